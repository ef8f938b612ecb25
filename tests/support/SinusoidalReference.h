#pragma once

// Float64 references for the sinusoidal table, written from docs/ARCHITECTURE.md, The mathematics
// (Vaswani et al. 2017; PyTorch's interleaved and TensorFlow's split layouts) and never from the
// implementation: the frequencies, the two layouts, the exact and float32-angle values.

#include "core/Params.h"

#include <cmath>
#include <cstdint>

namespace reference {

using posenc::Layout;

// w_i = exp(-2 i ln(b) / d), in double.
inline double omega(std::int64_t pair, std::int64_t dModel, double base)
{
    return std::exp(-2.0 * double(pair) * std::log(base) / double(dModel));
}

struct Role
{
    std::int64_t pair = 0;
    bool isCos = false;
};

// interleaved: column j holds pair j/2, sin on even j and cos on odd j;
// split: the first h = ceil(d/2) columns hold sin of pairs 0..h-1, the rest cos of 0..d-h-1.
inline Role role(std::int64_t column, std::int64_t dModel, Layout layout)
{
    if (layout == Layout::Interleaved)
        return {column / 2, column % 2 == 1};
    const std::int64_t h = (dModel + 1) / 2;
    if (column < h)
        return {column, false};
    return {column - h, true};
}

// sin / cos(p * w_i) in float64.
inline double exactValue(std::int64_t position, std::int64_t column, std::int64_t dModel, double base, Layout layout)
{
    const Role r = role(column, dModel, layout);
    const double angle = double(position) * omega(r.pair, dModel, base);
    return r.isCos ? std::cos(angle) : std::sin(angle);
}

// sin / cos(p * w_i) with the product p * w_i carried exactly (hi + lo, by fma) before the
// sine: about 1e-16 from the true value even where p * w_i is near 2^24 and the rounding of
// the double product alone would cost ~1e-9.
inline double preciseValue(std::int64_t position, std::int64_t column, std::int64_t dModel, double base, Layout layout)
{
    const Role r = role(column, dModel, layout);
    const double w = omega(r.pair, dModel, base);
    const double hi = double(position) * w;
    const double lo = std::fma(double(position), w, -hi);
    const double s = std::sin(hi), c = std::cos(hi);
    return r.isCos ? c - s * lo : s + c * lo;
}

// What float32 code computes: the angle rounded to float32 before its sine or cosine.
inline float float32AngleValue(std::int64_t position, std::int64_t column, std::int64_t dModel, double base,
                               Layout layout)
{
    const Role r = role(column, dModel, layout);
    const float wf = float(omega(r.pair, dModel, base));
    const float a = float(position) * wf;
    return float(r.isCos ? std::cos(double(a)) : std::sin(double(a)));
}

} // namespace reference
