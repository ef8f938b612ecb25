#pragma once

#include "core/Engine.h"

#include <Eigen/Core>

#include <atomic>
#include <cstdint>
#include <optional>

namespace posenc {

// The per-column mean and standard deviation of s*E over the first rows of its table, and
// ||s*E_p|| for each of those rows, kept between requests (docs/ARCHITECTURE.md, "Exact at any
// size"). s*E is a fixed table (the seeded unit normals, or a loaded matrix) times a factor
// (s sigma, or s): what is kept are that table's moments per block of rows and per column, so a
// change of s, sigma, p or of the PE's parameters reuses every one of them, and a change of L or
// d computes only the rows or columns not seen yet. The numbers do not depend on the thread
// count; on what was kept, only in their last bits (sums taken in another order).
namespace EmbeddingMoments {

struct Result
{
    std::int64_t rows = 0; // rows [0, rows) the statistics are over
    Eigen::ArrayXd mean; // of s*E[:, j], one per column of E
    Eigen::ArrayXd std; // population standard deviation
    Eigen::ArrayXd rowNorms; // ||s*E_p|| for p in [0, rows), when asked for
};

// Over rows [0, rows) of the engine's s*E (rows <= L); with `norms`, the row norms too. Without
// them and when `rows` spans a block, over as many more rows as fill the last block kept
// (Result::rows). On `options.threads` threads; nothing when cancelled. Precondition:
// ColumnStatistics::check(engine) passed.
std::optional<Result> compute(const Engine &engine, std::int64_t rows, bool norms, const ComputeOptions &options);

// Forgets what was kept (tests).
void clear();

} // namespace EmbeddingMoments

} // namespace posenc
