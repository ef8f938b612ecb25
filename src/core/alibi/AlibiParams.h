#pragma once

#include <cstdint>

// ALiBi's parameters (docs/ARCHITECTURE.md, Encoding families): Params holds them as
// `params.alibi`.
namespace posenc {

// ALiBi's bias under a causal mask (-m(i - j) for keys j <= i, -inf after) or, for a
// bidirectional model, symmetric (-m|i - j|).
enum class AlibiMask { Causal, Symmetric };

// Press et al. 2022: H heads, head k (numbered 1..H as in the paper) adding -m_k times the
// distance to its attention scores. Like RoPE it adds no term to X.
struct AlibiParams
{
    static constexpr std::int64_t kMaxHeads = 4096;

    std::int64_t heads = 8;
    std::int64_t head = 1; // 1..heads
    AlibiMask mask = AlibiMask::Causal;

    friend bool operator==(const AlibiParams &, const AlibiParams &) = default;
};

} // namespace posenc
