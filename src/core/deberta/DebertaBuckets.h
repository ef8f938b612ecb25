#pragma once

#include <cstdint>

// DeBERTa-v2/v3's log buckets of relative position (docs/ARCHITECTURE.md, Encoding families), as
// HF transformers' `make_log_bucket_position` (modeling_deberta_v2.py) computes them.
namespace posenc::DebertaBuckets {

// The bucket of relative position `relative` = query - key: itself while |relative| <= mid =
// buckets / 2; beyond, sign * (ceil(ln(|r| / mid) / ln((max_position - 1) / mid) * (mid - 1)) + mid),
// computed in float32 as the reference's tensors are. Not capped: distances past max_position
// give buckets past buckets - 1, which the attention then clamps to its span.
// Precondition: buckets >= 2, maxPosition - 1 > buckets / 2.
std::int64_t bucket(std::int64_t relative, std::int64_t buckets, std::int64_t maxPosition);

} // namespace posenc::DebertaBuckets
