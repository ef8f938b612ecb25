#pragma once

// Float64 reference for DeBERTa's log buckets, written from HF transformers' DeBERTa-v2
// make_log_bucket_position (modeling_deberta_v2.py), never from the code under test, and
// without a header of it: the command line's tests include it too.
#include "support/BucketTie.h"

#include <cmath>
#include <cstdint>

namespace debertaref {

using buckettie::Bucket;
using buckettie::matches;

// The bucket of relative = query - key, signed, uncapped.
inline Bucket deberta(std::int64_t relative, std::int64_t buckets, std::int64_t maxPosition)
{
    const std::int64_t mid = buckets / 2;
    const std::int64_t a = std::abs(relative);
    if (a <= mid)
        return {relative, false};
    const double log
        = std::log(double(a) / double(mid)) / std::log(double(maxPosition - 1) / double(mid)) * double(mid - 1);
    const auto magnitude = std::int64_t(std::ceil(log)) + mid;
    return {relative < 0 ? -magnitude : magnitude, buckettie::nearWhole(log)};
}

// The same in torch's float32: abs_pos / mid, torch.log, torch.tensor((max_position - 1) / mid).
inline std::int64_t debertaFloat32(std::int64_t relative, std::int64_t buckets, std::int64_t maxPosition)
{
    const std::int64_t mid = buckets / 2;
    const std::int64_t a = std::abs(relative);
    if (a <= mid)
        return relative;
    const float ratio = float(a) / float(mid);
    const float span = std::log(float(double(maxPosition - 1) / double(mid)));
    const auto magnitude = std::int64_t(std::ceil(std::log(ratio) / span * float(mid - 1)) + float(mid));
    return relative < 0 ? -magnitude : magnitude;
}

} // namespace debertaref
