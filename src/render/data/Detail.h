#pragma once

#include <cstdint>

namespace posenc {

// Level of detail of a figure's data. A preview is computed within a small budget so that
// the screen follows a moving control at once; the full pass refines it when the control
// rests (the latest request wins, so a preview is never followed by a stale refinement).
enum class Detail { Preview, Full };

namespace Budget {
// Most table cells one figure computes at each level.
constexpr std::int64_t cells(Detail detail)
{
    return detail == Detail::Preview ? std::int64_t(1) << 19 : std::int64_t(64) << 20;
}

// The most a figure computes cell by cell for its full detail, whatever the size
// (docs/ARCHITECTURE.md, Exact at any size): 2^33 cells, the whole of X at L 2^20, d 8192 (about
// 15 s on two cores). Past it a figure shows the largest part within, titled a preview or an
// estimate with its share, so that an export, a screenshot or a view at d 2^20 by L 2^24
// finishes in bounded time instead of hours.
constexpr std::int64_t kMaxExactCells = std::int64_t(1) << 33;
// Rows wider than this cost more per cell: each block's first row sets up every sine and cosine
// pair of its columns, and a row no longer fits the caches (measured: X at d 2^20 takes about
// 9 times as long a cell as at d 8192, Y 10 times).
constexpr std::int64_t kWideColumns = std::int64_t(1) << 16;

// `rows` rows of `cols` columns in cells of an ordinary row: a wide row counts cols / kWideColumns
// times its cells.
constexpr double exactCost(std::int64_t rows, std::int64_t cols)
{
    const double widening = cols > kWideColumns ? static_cast<double>(cols) / static_cast<double>(kWideColumns) : 1.0;
    return static_cast<double>(rows) * static_cast<double>(cols) * widening;
}

// The most rows of `cols` columns whose cost is within kMaxExactCells, at least one.
constexpr std::int64_t exactRowsWithin(std::int64_t cols)
{
    const double perRow = exactCost(1, cols > 0 ? cols : 1);
    const double rows = static_cast<double>(kMaxExactCells) / perRow;
    return rows < 1.0 ? 1 : static_cast<std::int64_t>(rows);
}
} // namespace Budget

} // namespace posenc
