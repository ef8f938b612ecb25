#pragma once

// Independent float64 references for the core tests, written from docs/ARCHITECTURE.md, The mathematics and
// never from the implementation: the frequencies, the two layouts, the float32-angle recipe,
// and helpers that compare float tables bit for bit or in units in the last place.

#include "core/Block.h"
#include "core/Params.h"

#include <QString>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace reference {

using posenc::Layout;
using posenc::RowMatrixXf;

inline constexpr std::int64_t kTwoTo24 = std::int64_t(1) << 24;

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

inline bool sameBits(float a, float b)
{
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

// Units in the last place between two finite floats (+0 and -0 are 0 apart).
inline std::int64_t ulpDistance(float a, float b)
{
    const auto key = [](float x) {
        const std::int64_t bits = std::bit_cast<std::int32_t>(x);
        return bits < 0 ? std::int64_t(std::numeric_limits<std::int32_t>::min()) - bits : bits;
    };
    const std::int64_t d = key(a) - key(b);
    return d < 0 ? -d : d;
}

inline QString num(double x)
{
    return QString::number(x, 'g', 17);
}

inline QString numf(float x)
{
    return QString::number(double(x), 'g', 9);
}

// Empty when `got` equals `expected` bit for bit; else where and how they first differ.
// rowBase / colBase translate matrix indices to table coordinates in the message.
inline QString firstBitDifference(const RowMatrixXf &expected, const RowMatrixXf &got, std::int64_t rowBase = 0,
                                  std::int64_t colBase = 0)
{
    if (expected.rows() != got.rows() || expected.cols() != got.cols())
        return QStringLiteral("shape %1 x %2, expected %3 x %4")
            .arg(got.rows())
            .arg(got.cols())
            .arg(expected.rows())
            .arg(expected.cols());
    std::int64_t mismatches = 0;
    QString first;
    for (Eigen::Index r = 0; r < expected.rows(); ++r)
        for (Eigen::Index c = 0; c < expected.cols(); ++c)
            if (!sameBits(expected(r, c), got(r, c))) {
                if (mismatches == 0)
                    first = QStringLiteral("cell (%1, %2): expected %3, got %4")
                                .arg(rowBase + r)
                                .arg(colBase + c)
                                .arg(numf(expected(r, c)), numf(got(r, c)));
                ++mismatches;
            }
    if (mismatches == 0)
        return {};
    return QStringLiteral("%1 (%2 of %3 cells differ)").arg(first).arg(mismatches).arg(expected.size());
}

// Blocks of a few rows at scattered positions below 2^24: around the anchors and hops of any
// rotation scheme, powers of two, the very end, and random ones from a fixed seed.
struct RowRange
{
    std::int64_t row0 = 0;
    std::int64_t rows = 0;
};

inline std::vector<RowRange> scatteredRows(std::uint64_t seed = 20240611u, int randomCount = 16)
{
    std::vector<RowRange> ranges = {
        {0, 4},
        {31, 3},
        {63, 3},
        {1023, 3},
        {2047, 2},
        {4095, 3},
        {65535, 2},
        {(1 << 20) + 7, 3},
        {(1 << 23) - 1, 2},
        {kTwoTo24 - 33, 33},
    };
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<std::int64_t> position(0, kTwoTo24 - 4);
    for (int i = 0; i < randomCount; ++i)
        ranges.push_back({position(random), 3});
    return ranges;
}

} // namespace reference
