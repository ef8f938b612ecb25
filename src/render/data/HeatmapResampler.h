#pragma once

#include "core/Engine.h"

#include <atomic>
#include <cstdint>
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
    // Most table cells to compute; beyond it each grid row averages evenly spaced sample rows.
    std::int64_t cellBudget = std::int64_t(64) << 20;
};

// A block shown at screen resolution: the block is cut into rows x cols equal rectangles and
// grid cell (a, b) holds a weighted mean of the table cells around rectangle (a, b): a
// Gaussian of 0.6 rectangles, cut at 2, in each direction where cells outnumber pixels, so
// that nothing aliases into moire. One table cell per grid cell when they fit.
struct HeatmapGrid
{
    Quantity quantity = Quantity::Pe;
    Block block;
    int rows = 0; // <= the request's pixelRows, <= block.rows
    int cols = 0;
    std::vector<float> values; // rows x cols, row-major
    double minValue = 0.0;
    double maxValue = 0.0;
    // Fraction of the block's rows that entered the means: 1 for an exact area average; less
    // when the block is over the cell budget and each grid row averages evenly spaced rows.
    double rowCoverage = 1.0;

    float at(int row, int col) const { return values[static_cast<std::size_t>(row) * cols + col]; }
};

namespace HeatmapResampler {

// The grid of `request`, computed in row bands off the caller's thread pool; nothing when
// cancelled or when the engine refuses the block.
std::optional<HeatmapGrid> resample(const Engine &engine, const HeatmapRequest &request,
                                    const ComputeOptions &options = {});

// The block of a table with `shape` that covers the visible ranges [lo, hi) of columns
// (x, in column units) and rows (y), widened to whole cells and clamped to the table.
Block visibleBlock(Shape shape, double colLo, double colHi, double rowLo, double rowHi);

} // namespace HeatmapResampler

} // namespace posenc
