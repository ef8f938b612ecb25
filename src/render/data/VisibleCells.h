#pragma once

#include "FigureModel.h"
#include "HeatmapResampler.h"

namespace posenc::VisibleCells {

// The request for what a heatmap panel shows: the table cells in view and the output pixels
// they cover (less than the panel when the view reaches past the table), so the grid never has
// more cells than the output has pixels. The window and the exporter both ask through here.
HeatmapRequest request(const PanelExtent &panel, Quantity quantity, Shape table);

// Why the resampler computed no grid for `block` of `quantity`: the engine's refusal (outside the
// table, or over the memory budget with cells and GiB).
QString refusal(const Engine &engine, Quantity quantity, const Block &block);

// The whole table of `shape`, as a heatmap's axes show it: cell j spans [j - 0.5, j + 0.5].
ViewRange wholeColumns(Shape shape);
ViewRange wholeRows(Shape shape);

// A map of queries x keys (the bias and bucket figures): its view axes, "keys" (j, across) and
// "queries" (i, down), and the cells of `quantity` in view, the whole table where the view is not
// set: `posenc table QUANTITY --positions A:B --dims C:D`.
inline constexpr char16_t kKeysAxis[] = u"keys";
inline constexpr char16_t kQueriesAxis[] = u"queries";
std::optional<TableRequest> queryKeyCells(Quantity quantity, std::int64_t maxLen, const FigureState &state);

} // namespace posenc::VisibleCells
