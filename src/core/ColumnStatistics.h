#pragma once

#include "Engine.h"

#include <Eigen/Core>

#include <cstdint>
#include <optional>

namespace posenc {

// Per column j of X, over the positions p = 0 .. L - 1: the mean, the population standard
// deviation (dividing by L) and the RMS of the PE part and of the s*E part. Zero where a
// column holds no such part (the embedding-only and PE-only columns of concat).
struct ColumnStats
{
    Eigen::ArrayXd peMean, peStd, peRms;
    Eigen::ArrayXd embeddingMean, embeddingStd, embeddingRms;
    // Positions the s*E statistics (and a float32-angle PE's) were taken over: L when exact.
    std::int64_t rows = 0;
    std::int64_t maxLen = 0;

    bool isExact() const { return rows == maxLen; }
};

// Exact statistics over positions at any L. The PE at exact angles in closed form: means of
// sin(p w) and cos(p w) over p = 0 .. L - 1 are geometric series (Dirichlet kernels), and so
// are their mean squares through sin^2 = (1 - cos 2pw) / 2. The rest (s*E, and a float32-angle
// PE) from every row, computed in tiles of rows within the memory budget, threaded, and
// combined in tile order (Chan's pairwise update of means and squared deviations) so that the
// result is the same whatever the thread count.
namespace ColumnStatistics {

// Mean and mean square over p = 0 .. L - 1 of the sinusoidal table's columns, exact angles.
void sinusoidMoments(std::int64_t dModel, const SinusoidalParams &params, std::int64_t maxLen, Eigen::ArrayXd &mean,
                     Eigen::ArrayXd &meanSquare);

// The error that refuses the statistics of `engine` (a tile of rows over the memory budget),
// or nothing when they can be computed.
std::optional<QString> check(const Engine &engine);
// Over every position; nothing when cancelled or over the memory budget.
std::optional<ColumnStats> compute(const Engine &engine, const ComputeOptions &options = {});
// An estimate for a preview: the rows of s*E (and of a float32-angle PE) from about `rows`
// positions in evenly spaced runs, the exact-angle PE in closed form.
std::optional<ColumnStats> estimate(const Engine &engine, std::int64_t rows, const ComputeOptions &options = {});

} // namespace ColumnStatistics

} // namespace posenc
