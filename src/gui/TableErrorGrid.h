#pragma once

#include "check/TableCheck.h"
#include "render/data/HeatmapResampler.h"

#include <QSize>
#include <QString>

#include <functional>
#include <utility>

#include <atomic>
#include <variant>

// The heatmap of a checked table's error (docs/ARCHITECTURE.md, Checking a table, the window),
// computed off the GUI thread: each pixel the largest |table − reference| of the cells it covers,
// never a mean, which would dilute one wrong cell into the rounding around it.
namespace posenc::TableErrorGrid {

// The largest |table − reference| of every cell of `block`, each pixel of a rows x cols grid the
// maximum of the cells it covers, a few MiB of rows at a time; "cancelled" when `cancel` is set, a
// message when the rows cannot be read.
std::variant<HeatmapGrid, QString> maximum(const TableMatch &match, const TableRows &table, const Block &block,
                                           int rows, int cols, const std::atomic<bool> &cancel);

// The grid as the check window's map colours it: a logarithmic scale has no 0, so cells under
// `floor` (a thousandth of the tolerance) take it.
HeatmapGrid floored(HeatmapGrid grid, double floor);
// `block` within a table of rows x cols, at least a cell.
Block clamped(const Block &block, std::int64_t rows, std::int64_t cols);
// The cells of a rows x cols table that the axes' ranges touch, whole (cell r covers
// [r - 0.5, r + 0.5]), at least one.
Block cellsIn(std::pair<double, double> x, std::pair<double, double> y, std::int64_t rows, std::int64_t cols);

// Whether a rows-high grid of `block` has a preview: when its pixel rows cover several rows of
// the table each (otherwise the full grid reads no more than a preview would).
bool hasPreview(const Block &block, int rows);
// The coarse preview of maximum(), drawn at once while the full grid is computed: each pixel row
// reads the one table row in the middle of the rows it covers (`rows` rows read, whatever the
// block's size), each pixel the largest |error| of that row's cells it covers.
std::variant<HeatmapGrid, QString> preview(const TableMatch &match, const TableRows &table, const Block &block,
                                           int rows, int cols, const std::atomic<bool> &cancel);

// What the heatmap's job computes for a view, a grid of grid.height() rows and grid.width()
// columns: the preview when the block has one, then, once the view has rested as a view's job
// rests (FigureJob::kRestBeforeRefining), every cell; each handed to `show` as it comes (the grid
// and whether it is a preview), or the message that stopped it. Nothing more once `cancel` is set.
using Show = std::function<void(std::variant<HeatmapGrid, QString> grid, bool preview)>;
void inTurn(const TableMatch &match, const TableRows &table, const Block &block, QSize grid,
            const std::atomic<bool> &cancel, const Show &show);

} // namespace posenc::TableErrorGrid
