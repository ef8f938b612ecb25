#pragma once

// Float64 reference for T5's relative buckets, written from HF transformers'
// T5Attention._relative_position_bucket (modeling_t5.py), never from the code under test, and
// without a header of it: the command line's tests include it too.
#include "support/BucketTie.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace t5ref {

using buckettie::Bucket;
using buckettie::matches;

// What _relative_position_bucket reads before its logarithm: the side's buckets n (all of them,
// or half where both sides count), the side's first bucket, the distance and max_exact = n / 2.
struct Side
{
    std::int64_t n = 0, result = 0, distance = 0, exact = 0;
};

inline Side side(std::int64_t relative, std::int64_t buckets, bool bidirectional)
{
    Side s {buckets, 0, 0, 0};
    if (bidirectional) {
        s.n /= 2;
        if (relative > 0)
            s.result = s.n;
        s.distance = std::abs(relative);
    } else {
        s.distance = relative < 0 ? -relative : 0;
    }
    s.exact = s.n / 2;
    return s;
}

// The bucket of relative = key - query.
inline Bucket t5(std::int64_t relative, std::int64_t buckets, std::int64_t maxDistance, bool bidirectional)
{
    const auto [n, result, distance, exact] = side(relative, buckets, bidirectional);
    if (distance < exact)
        return {result + distance, false};
    const double scaled = std::log(double(distance) / double(exact)) / std::log(double(maxDistance) / double(exact))
        * double(n - exact);
    return {result + std::min(exact + std::int64_t(std::floor(scaled)), n - 1), buckettie::nearWhole(scaled)};
}

// The same in torch's float32, as the model computes it: relative_position.float() / max_exact,
// torch.log, divided by math.log(max_distance / max_exact) (a Python float, taken as float32),
// times (n - max_exact), then .to(torch.long), which truncates.
inline std::int64_t t5Float32(std::int64_t relative, std::int64_t buckets, std::int64_t maxDistance, bool bidirectional)
{
    const auto [n, result, distance, exact] = side(relative, buckets, bidirectional);
    if (distance < exact)
        return result + distance;
    const float ratio = float(distance) / float(exact);
    const float span = float(std::log(double(maxDistance) / double(exact)));
    const float scaled = std::log(ratio) / span * float(n - exact);
    return result + std::min(exact + std::int64_t(scaled), n - 1);
}

} // namespace t5ref
