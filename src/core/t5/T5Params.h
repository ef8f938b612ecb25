#pragma once

#include <cstdint>

// T5's parameters (docs/ARCHITECTURE.md, Encoding families): Params holds them as `params.t5`.
namespace posenc {

// T5's relative attention buckets (HF T5Config's relative_attention_num_buckets and
// relative_attention_max_distance): each head adds a learned scalar per bucket of key - query.
struct T5Params
{
    static constexpr std::int64_t kMaxBuckets = std::int64_t(1) << 16;

    std::int64_t buckets = 32;
    std::int64_t maxDistance = 128;
    bool causal = false; // the decoder's unidirectional map; the encoder's is bidirectional

    friend bool operator==(const T5Params &, const T5Params &) = default;
};

} // namespace posenc
