#pragma once

#include <cstdint>

// DeBERTa's parameters (docs/ARCHITECTURE.md, Encoding families): Params holds them as
// `params.deberta`.
namespace posenc {

// DeBERTa-v2/v3's log buckets of query - key (HF DebertaV2Config's position_buckets and
// max_relative_positions, which -1 makes max_position_embeddings).
struct DebertaParams
{
    static constexpr std::int64_t kMaxBuckets = std::int64_t(1) << 16;

    std::int64_t buckets = 256;
    std::int64_t maxPosition = 512;

    friend bool operator==(const DebertaParams &, const DebertaParams &) = default;
};

} // namespace posenc
