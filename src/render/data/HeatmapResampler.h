#pragma once

#include "CellMarks.h"

#include "core/Engine.h"
#include "core/TitleText.h"

#include <atomic>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace posenc {

// A visible part of a table and the pixels it is shown on.
struct HeatmapRequest
{
    Quantity quantity = Quantity::Pe;
    Block block; // the table cells in view, clamped to the table
    int pixelRows = 1; // pixels available for the block's rows and columns
    int pixelCols = 1;
    // About the most table cells the first pass computes cell by cell (always at least one
    // row per grid row); each later pass computes ~8 times more, the last one every row. The
    // parts in closed form cost nothing here.
    std::int64_t cellBudget = std::int64_t(64) << 20;
};

// A block shown at screen resolution: grid cell (a, b) holds the block's cells weighted by a
// Gaussian of 0.6 grid cells in each direction where cells outnumber pixels (AxisFilter
// defines it), so that nothing aliases into moire; one table cell per grid cell when they fit.
struct HeatmapGrid
{
    Quantity quantity = Quantity::Pe;
    Block block;
    int rows = 0; // <= the request's pixelRows, <= block.rows
    int cols = 0;
    std::vector<float> values; // rows x cols, row-major
    double minValue = 0.0;
    double maxValue = 0.0;
    // Half the width of the quantity's colour range, from the parameters (QuantitySpec::bound): the same
    // at any resolution, where minValue and maxValue shrink as pixels average more cells.
    double colourExtent = 1.0;
    // Fraction of the block's rows whose cell-by-cell part entered the means: 1 when the grid
    // is exact (the filter's value of every cell); less for a preview, whose cell-by-cell
    // part is estimated from the rows of a pass.
    double rowCoverage = 1.0;
    int pass = 0; // the pass this grid is, of `passes`
    int passes = 1;
    // The spread within each grid cell of the PE's part (its weighted standard deviation over
    // the cells the grid cell averages, in closed form as the mean is): rows x cols, empty where
    // the grid holds no PE or averages nothing. A column turning faster than a pixel has the
    // mean ~0 and the spread ~0.71, a full swing.
    std::vector<float> spread;
    // One table cell a grid cell, in Y: which cells the mask zeroed (CellMarks); else empty.
    std::vector<CellMark> marks;
    // What its rows are indexed by, for its axis: positions, or a timestep embedding's timesteps.
    TitleText::RowIndex index;

    bool isPreview() const { return rowCoverage < 1.0; }
    bool isCellByCell() const { return rows == block.rows && cols == block.cols; }
    float at(int row, int col) const { return values[static_cast<std::size_t>(row) * cols + col]; }
};

// Computes heatmap grids, exactly at any size and coarse to fine where cells must be computed.
//
// Progressive use (a scheduler running the passes of the latest request in turn):
//   const int passes = HeatmapResampler::passCount(engine, request);
//   for (int pass = 0; pass < passes; ++pass)
//       show(*HeatmapResampler::resample(engine, request, options, pass)); // nullopt: cancelled
// Every pass is computed from scratch (the total is about 8/7 of the last pass alone) and
// every grid is complete: what is in closed form (the PE, and the PE part of X and Y) is exact
// from pass 0; the rest is the weighted mean of a jittered subset of rows (RowSampling) until
// the last pass, which takes every row and is exact (isPreview() false). The PE at exact
// angles needs one pass whatever its size. The same request gives the same grid, bit for bit,
// whatever the thread count.
namespace HeatmapResampler {

constexpr int kLastPass = std::numeric_limits<int>::max();

// The passes `request` takes until it is exact; 1 when the first is.
int passCount(const Engine &engine, const HeatmapRequest &request);
// The last pass that computes at most `cells` table cells one by one, a wide row counted at what
// it costs (Budget::exactCost; pass 0 if none does): where an exact grid would take too long, the
// best preview within a bound.
int lastPassWithin(const Engine &engine, const HeatmapRequest &request, std::int64_t cells);
// The rows pass `pass` computes one by one (0 where no cell is).
std::int64_t rowsOfPass(const Engine &engine, const HeatmapRequest &request, int pass);

// The grid of `request` after pass `pass` (kLastPass, or any pass past the last: the exact
// grid). Nothing when cancelled or when the engine refuses the block.
std::optional<HeatmapGrid> resample(const Engine &engine, const HeatmapRequest &request,
                                    const ComputeOptions &options = {}, int pass = kLastPass);

// The block of a table with `shape` that covers the visible ranges [lo, hi) of columns
// (x, in column units) and rows (y), widened to whole cells and clamped to the table.
Block visibleBlock(Shape shape, double colLo, double colHi, double rowLo, double rowHi);

} // namespace HeatmapResampler

} // namespace posenc
