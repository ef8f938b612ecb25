#pragma once

#include "core/Params.h"
#include "core/RelativeBuckets.h"

#include <QString>

#include <cstdint>
#include <optional>

// DeBERTa-v2/v3's log buckets of relative position (docs/ARCHITECTURE.md, Encoding families), as
// HF transformers' `make_log_bucket_position` (modeling_deberta_v2.py) computes them.
namespace posenc::DebertaBuckets {

// The bucket of relative position `relative` = query - key: itself while |relative| <= mid =
// buckets / 2; beyond, sign * (ceil(ln(|r| / mid) / ln((max_position - 1) / mid) * (mid - 1)) + mid),
// computed in float32 as the reference's tensors are. Not capped: distances past max_position
// give buckets past buckets - 1, which the attention then clamps to its span.
// Precondition: buckets >= 2, maxPosition - 1 > buckets / 2.
std::int64_t bucket(std::int64_t relative, std::int64_t buckets, std::int64_t maxPosition);

// The nearest distance |i - j| whose bucket reaches `top` (the bucket does not fall as the distance
// grows): rounded up, the logarithm reaches a bucket before the distance at which it equals it
// (255 from distance 506 at 256 buckets and max_position 512, though ln(511 / 128) / ln(511 / 128)
// is 1 at 511 only); none where no distance does (at buckets 2 the bucket stays 1). Precondition: as
// bucket()'s, top >= 0.
std::optional<std::int64_t> firstReaching(std::int64_t top, std::int64_t buckets, std::int64_t maxPosition);

// Why DeBERTa's buckets cannot be computed from these parameters (its settings not valid, or not
// what the reference function needs), if they cannot.
std::optional<QString> problem(const Params &params);
// The bucket of the offset k = j - i (key minus query), that of i - j = -k, at the settings.
std::int64_t ofOffset(const Params &params, std::int64_t k);

// What `posenc describe` prints for DeBERTa after its parameters (RelativeBuckets::spec).
struct Description
{
    std::int64_t mid = 0; // buckets / 2: |r| <= mid is its own bucket
    std::int64_t logStart = 0; // mid + 1, the first |r| in a logarithmic bucket
    std::int64_t bucketAtMaxPosition = 0; // the bucket of r = max_position
    std::int64_t bucketAtMaxLen = 0; // of r = max_len - 1, the farthest pair of the table
    bool capped = false; // the reference does not cap the bucket (the attention clamps it)
};
// Precondition: params valid.
Description describe(const Params &params);

// DeBERTa as a family of relative buckets (RelativeBuckets): its settings, ofOffset and problem.
const RelativeBuckets::Family &bucketFamily();

} // namespace posenc::DebertaBuckets
