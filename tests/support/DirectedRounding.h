#pragma once

#include "check/TableMatch.h"
#include "core/Block.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

// A float32 value rounded to a half format of `bits` stored mantissa bits and least normal exponent
// `least` (bfloat16: 7, -126; float16: 10, -14) the way `rounding` says: its quotient by the format's
// unit at x rounded to nearest (ties to even), cut, floored or ceiled. The tables engineers dump
// rounded otherwise than torch's .to() rounds them (tst_tablecheckrounding, tst_tablecheckheldvalues).
namespace directedrounding {

// A half format: its name, stored mantissa bits and least normal exponent, and the precision the
// check names it by.
struct Format
{
    const char *name;
    int bits; // stored mantissa bits: bfloat16's 7, float16's 10
    int least; // the least normal exponent
    posenc::TablePrecision precision;
};
inline constexpr Format kBFloat16 {"bfloat16", 7, -126, posenc::TablePrecision::BFloat16};
inline constexpr Format kFloat16 {"float16", 10, -14, posenc::TablePrecision::Float16};

inline const char *name(posenc::Rounding r)
{
    return r == posenc::Rounding::TowardZero ? "toward zero"
        : r == posenc::Rounding::Downward    ? "down"
        : r == posenc::Rounding::Upward      ? "up"
                                             : "nearest";
}

// The table's `value`, rounded from `exact` the way `rounding` says, moved one unit of the format
// farther from where that rounding leaves a value (`exact`, or half a unit from it the rounding's
// way): no faithful rounding leaves it there. (The check's relative tolerance of a half format is its
// half unit at 1 times |reference|, up to a whole unit at the foot of a binade: a unit the other way
// may stay within it.)
inline float oneUnitOff(float value, double exact, const Format &f, posenc::Rounding rounding)
{
    const double unit = std::ldexp(1.0, std::max(std::ilogb(value), f.least) - f.bits);
    const bool up = rounding == posenc::Rounding::Upward || (rounding == posenc::Rounding::TowardZero && exact < 0.0);
    const double centre = rounding == posenc::Rounding::Nearest ? exact : exact + (up ? 0.5 : -0.5) * unit;
    return float(double(value) + (double(value) >= centre ? unit : -unit));
}

inline float rounded(float x, int bits, int least, posenc::Rounding rounding)
{
    if (x == 0.0f || !std::isfinite(x))
        return x;
    const double unit = std::ldexp(1.0, std::max(std::ilogb(x), least) - bits);
    const double q = double(x) / unit;
    switch (rounding) {
    case posenc::Rounding::TowardZero:
        return float(std::trunc(q) * unit);
    case posenc::Rounding::Downward:
        return float(std::floor(q) * unit);
    case posenc::Rounding::Upward:
        return float(std::ceil(q) * unit);
    case posenc::Rounding::Nearest:
        break;
    }
    return float(std::nearbyint(q) * unit);
}

inline posenc::RowMatrixXf roundedTable(posenc::RowMatrixXf t, int bits, int least, posenc::Rounding rounding)
{
    for (std::int64_t i = 0; i < t.size(); ++i)
        t.data()[i] = rounded(t.data()[i], bits, least, rounding);
    return t;
}

} // namespace directedrounding
