#pragma once

// A bucket computed in float64 by a reference (T5Reference.h, DebertaReference.h), with whether
// its floor or ceil came within a tie of a whole number, where the reference's float32
// arithmetic may round the other way.
#include <cmath>
#include <cstdint>

namespace buckettie {

struct Bucket
{
    std::int64_t value = 0;
    bool nearTie = false;
};

inline constexpr double kTie = 1e-4;

// Whether a float64 logarithm's scaled value lies within a tie of a whole number.
inline bool nearWhole(double scaled)
{
    return std::abs(scaled - std::round(scaled)) < kTie;
}

// Whether `value` is the reference's bucket, or next to it where float32 may round the other way.
inline bool matches(std::int64_t value, const Bucket &reference)
{
    return value == reference.value || (reference.nearTie && std::abs(value - reference.value) == 1);
}

} // namespace buckettie
