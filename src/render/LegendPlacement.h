#pragma once

#include "QCustomPlot.h"

#include <QSize>

#include <optional>

namespace posenc::LegendPlacement {

// The place in `rect` (a corner, the middle of a side or the centre, in matplotlib's order of
// "best") where a legend of `size` layout units, in the rect as it will be laid out `grownBy`
// units higher, covers none of the rect's data: no line or point of its graphs and curves, no
// line or label of the items drawn over it. Nothing when every corner covers some, or the rect
// shows something drawn over all of it (a colour map).
std::optional<Qt::Alignment> freeCorner(QCPAxisRect *rect, QSize size, int grownBy);

// The entries of `legend`, without the empty cells of its grid.
QList<QCPAbstractLegendItem *> entriesOf(const QCPLegend *legend);
// The columns `legend`'s entries take now, and the wrap (QCPLayoutGrid::setWrap) that lays them
// out in `columns` columns: the columns themselves filling row by row, else the rows they need.
int columnsOf(const QCPLegend *legend);
int wrapFor(const QCPLegend *legend, int columns);
// The least size of `legend` with its entries laid out afresh at `wrap`, as its grid would take it.
QSize stackedSize(const QCPLegend *legend, int wrap);

} // namespace posenc::LegendPlacement
