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

} // namespace posenc::LegendPlacement
