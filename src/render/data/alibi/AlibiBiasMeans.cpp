#include "AlibiBiasMeans.h"

#include "render/data/DiagonalMeans.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posenc::AlibiBiasMeans {

namespace {

// The mean of the integers [first, end).
double alibiBandCentre(std::int64_t first, std::int64_t end)
{
    return 0.5 * static_cast<double>(first + end - 1);
}

// sum over j in [c0, c1) of |i - j|: the keys before i and those after, each an arithmetic series.
std::int64_t alibiRowAbsSum(std::int64_t i, std::int64_t c0, std::int64_t c1)
{
    const std::int64_t below = std::clamp(i - c0 + 1, std::int64_t(0), c1 - c0); // j in [c0, min(i, c1 - 1)]
    const std::int64_t above = (c1 - c0) - below; // j in [max(i + 1, c0), c1)
    const std::int64_t firstBelow = i - (c0 + below - 1); // i - j at the last key at or before i
    const std::int64_t lastBelow = i - c0;
    const std::int64_t firstAbove = std::max(i + 1, c0) - i;
    const std::int64_t lastAbove = c1 - 1 - i;
    const std::int64_t sumBelow = below > 0 ? (firstBelow + lastBelow) * below / 2 : 0;
    const std::int64_t sumAbove = above > 0 ? (firstAbove + lastAbove) * above / 2 : 0;
    return sumBelow + sumAbove;
}

struct AlibiPixelBias
{
    double mean = 0.0; // over the unmasked cells
    bool masked = false; // every cell masked
};

AlibiPixelBias alibiPixelBias(double slope, AlibiMask mask, const Block &rect)
{
    const std::int64_t r0 = rect.row0, r1 = rect.rowEnd(), c0 = rect.col0, c1 = rect.colEnd();
    const double rows = alibiBandCentre(r0, r1), cols = alibiBandCentre(c0, c1);
    // Every key at or before its query: -m(i - j), affine.
    if (c1 - 1 <= r0)
        return {-slope * (rows - cols), false};
    if (mask == AlibiMask::Symmetric) {
        if (c0 >= r1 - 1)
            return {-slope * (cols - rows), false};
        long double sum = 0.0L;
        for (std::int64_t i = r0; i < r1; ++i)
            sum += static_cast<long double>(alibiRowAbsSum(i, c0, c1));
        return {-slope * static_cast<double>(sum / static_cast<long double>(rect.cells())), false};
    }
    // Causal: every key after its query is masked.
    if (c0 > r1 - 1)
        return {0.0, true};
    long double sum = 0.0L, count = 0.0L;
    for (std::int64_t i = r0; i < r1; ++i) {
        const std::int64_t last = std::min(c1 - 1, i);
        if (last < c0)
            continue;
        const std::int64_t n = last - c0 + 1;
        // sum over j in [c0, last] of (i - j).
        sum += static_cast<long double>(((i - last) + (i - c0)) * n / 2);
        count += static_cast<long double>(n);
    }
    return {-slope * static_cast<double>(sum / count), false};
}

} // namespace

double maskedShare(const Block &rect)
{
    return static_cast<double>(rect.cells() - DiagonalMeans::cellsUpTo(rect, 0)) / static_cast<double>(rect.cells());
}

std::optional<HeatmapGrid> grid(double slope, AlibiMask mask, const Block &block, int rows, int cols,
                                const std::atomic<bool> *cancel)
{
    return DiagonalMeans::pixels(block, rows, cols, cancel, [&](int, int, const Block &rect) -> std::optional<double> {
        const AlibiPixelBias bias = alibiPixelBias(slope, mask, rect);
        return bias.masked ? std::nullopt : std::optional(bias.mean);
    });
}

} // namespace posenc::AlibiBiasMeans
