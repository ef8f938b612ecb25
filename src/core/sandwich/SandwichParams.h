#pragma once

#include <cstdint>

// Sandwich's parameters (docs/ARCHITECTURE.md, Encoding families): Params holds them as
// `params.sandwich`.
namespace posenc {

// NeMo's `bidirectional` flag: causal (False) sets the distance of every key after the query to 0
// (torch.tril), bidirectional (True) keeps |i - j| on both sides.
enum class SandwichMask { Causal, Bidirectional };

// Chi et al. 2023 (arXiv 2212.10356), as NVIDIA NeMo's SandwichRelativePositionEmbedding computes
// it: H heads, head h (numbered 1..H) adding (sum_k cos(r w_k) - d/2) / (8h/H) at distance r, with
// w_k = 1 / 10000^(2k/d) for the per-head dim d. Like ALiBi it adds no term to X.
struct SandwichParams
{
    static constexpr std::int64_t kMaxHeads = 4096;
    static constexpr std::int64_t kMaxHeadDim = 4096;

    std::int64_t heads = 12;
    std::int64_t head = 1; // 1..heads
    std::int64_t headDim = 64; // d: hidden_size / num_attention_heads (or kv_channels)
    SandwichMask mask = SandwichMask::Causal;

    friend bool operator==(const SandwichParams &, const SandwichParams &) = default;
};

} // namespace posenc
