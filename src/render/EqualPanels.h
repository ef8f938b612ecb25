#pragma once

#include "QCustomPlot.h"

namespace posenc::EqualPanels {

// Panels side by side in a grid (axis rects in one row, each a cell of its own, drawn) get plots as
// wide relative to each other as their figure's column stretch factors say, whatever their margins:
// a panel that gave its left axis's labels to its neighbour (FigureRoom's shareAxes and
// giveBackMargins) has a narrower margin, and in a cell as wide as its neighbour's its plot came
// out wider (dropout-anatomy's Y 390 px beside X's 335 at the window). On a figure laid out, scales
// each such column's factor towards its plot's share and its margins, through the plot's
// FigureRoom changes (undone with them, before each fitting). True when a factor changed (the
// caller lays the figure out again, until the plots are even within a unit).
bool equalize(QCustomPlot *plot);

} // namespace posenc::EqualPanels
