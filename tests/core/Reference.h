#pragma once

// Helpers of the core tests that compare float tables bit for bit or in units in the last place,
// and rows to sample, with the sinusoid's float64 references (tests/support/SinusoidalReference.h).

#include "support/SinusoidalReference.h"

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
