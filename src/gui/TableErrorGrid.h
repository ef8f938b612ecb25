#pragma once

#include "core/check/TableCheck.h"
#include "render/data/HeatmapResampler.h"

#include <QString>

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

// Whether a rows-high grid of `block` has a preview: when its pixel rows cover several rows of
// the table each (otherwise the full grid reads no more than a preview would).
bool hasPreview(const Block &block, int rows);
// The coarse preview of maximum(), drawn at once while the full grid is computed: each pixel row
// reads the one table row in the middle of the rows it covers (`rows` rows read, whatever the
// block's size), each pixel the largest |error| of that row's cells it covers.
std::variant<HeatmapGrid, QString> preview(const TableMatch &match, const TableRows &table, const Block &block,
                                           int rows, int cols, const std::atomic<bool> &cancel);

} // namespace posenc::TableErrorGrid
