#pragma once

#include "core/Params.h"
#include "core/RelativeBuckets.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

// T5's relative position buckets (docs/ARCHITECTURE.md, Encoding families), as HF transformers'
// `T5Attention._relative_position_bucket` computes them.
namespace posenc::T5Buckets {

// The bucket of relative position `relative` = key - query. Bidirectional (the encoder) halves
// the buckets and puts keys after the query (relative > 0) in the upper half; causal (the
// decoder) buckets only keys at or before the query, every later key in bucket 0. Within a half
// of n buckets, distances below max_exact = n / 2 are their own bucket; beyond,
// max_exact + trunc(ln(distance / max_exact) / ln(max_distance / max_exact) * (n - max_exact)),
// capped at n - 1. The logarithm's part is computed in float32, as the reference's tensors are,
// and truncated toward zero by its `.to(torch.long)`.
// Precondition: buckets >= 2 (even when bidirectional), maxDistance > maxExact(buckets, ...).
std::int64_t bucket(std::int64_t relative, std::int64_t buckets, std::int64_t maxDistance, bool bidirectional);
// The logarithmic bucket of a distance >= max_exact within a side of `sideBuckets` buckets before
// the reference's clamp torch.min(relative_position_if_large, num_buckets - 1): from about
// max_distance on it is `sideBuckets` or more (what code without the clamp computes, candle#1312).
std::int64_t unclampedLogBucket(std::int64_t distance, std::int64_t sideBuckets, std::int64_t maxDistance);
// The buckets of one direction: buckets / 2 when bidirectional, else all of them.
std::int64_t sideBuckets(std::int64_t buckets, bool bidirectional);
// max_exact: the distances below it have a bucket each.
std::int64_t maxExact(std::int64_t buckets, bool bidirectional);
// The least distance d >= 0 (|key - query|, or query - key for causal's keys at or before the
// query) whose bucket within its side is at least `sideBucket` (< sideBuckets): where that bucket
// starts, or where the next one does when no distance falls in it. The bucket grows with the
// distance, so it is found by bisection over what bucket() computes, float32 included.
std::int64_t firstDistance(std::int64_t sideBucket, std::int64_t buckets, std::int64_t maxDistance, bool bidirectional);

// Why T5's buckets cannot be computed from these parameters (its settings not valid, or not what
// the reference function needs), if they cannot.
std::optional<QString> problem(const Params &params);
// The bucket of the offset k = j - i (key minus query) at the parameters' settings.
std::int64_t ofOffset(const Params &params, std::int64_t k);

// What `posenc describe` prints for T5 after its parameters (RelativeBuckets::spec).
struct Description
{
    bool bidirectional = true;
    std::int64_t sideBuckets = 0; // n: buckets / 2 when bidirectional, else all of them
    std::int64_t maxExact = 0; // n / 2: the distances below it have a bucket each
    // The first distance of each logarithmic bucket max_exact .. n - 1 (firstDistance): a bucket
    // no distance falls in starts where the next one does.
    std::vector<std::int64_t> logBucketStarts;
    std::int64_t emptyBuckets = 0; // logarithmic buckets that no distance falls in
    std::int64_t lastBucketStart = 0; // every key at this distance or farther shares bucket n - 1
};
// Precondition: params valid.
Description describe(const Params &params);

// T5 as a family of relative buckets (RelativeBuckets): its settings, ofOffset and problem.
const RelativeBuckets::Family &bucketFamily();

} // namespace posenc::T5Buckets
