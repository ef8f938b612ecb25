#pragma once

#include "check/TableCheck.h"

#include "render/QCustomPlot.h"

namespace posenc::ColumnMaxPlot {

// The check window's second plot (TableCheckDialog): the largest |table − reference| of each
// column over every position, streamed from the whole table, on a logarithmic axis, with the
// columns that hold cells beyond the tolerance crossed and the tolerance at |reference| = 1 dashed.

// Titles `plot` and gives it its one axis rect.
void prepare(QCustomPlot *plot);
// Draws `verification`'s column maxima, each at least `range.lower` (the heatmap's floor), and the
// tolerance of `match`; the axis shows `range` with room around it. `legend` is the plot's legend
// row, made at the first drawing and kept: a check again shows its own graphs in it.
void draw(QCustomPlot *plot, QCPLegend *&legend, const TableCheck::Verification &verification, const TableMatch &match,
          const QCPRange &range);

} // namespace posenc::ColumnMaxPlot
