#pragma once

#include "FigureSize.h"
#include "QCustomPlot.h"

namespace posenc {
class FigureBuild;
}

namespace posenc::StackedPanels {

// On a page grown for its panels (FigureSize::stacked, FigureSizes::grownForPanels), a figure's row
// of panels side by side goes down the page, one panel under the other, as an author stacks the
// panels of a figure for a paper's column rather than leave some out: in each grid of the figure's
// layout (legends aside) whose panels (axis rects, or grids holding one, colour bars aside) stand
// in one row and in two columns or more, each panel's columns (its own, and those after it that
// hold no panel: its colour bar, a spacer) with their rows (its name above it, a caption under it)
// go under the last panel's, the first panel's first; the columns' stretch factors the most any
// panel's column at that place had, the rows' those of the rows they came from. rope-rotation's
// circle, cos table and sin table at a column (which drew the circle alone) stand one under the
// other, the tables' shared colour bar beside the last. A grid whose panels stand in several rows
// already (families' panels, as its figure lays them out for the page) is left as it is. Call it
// on the figure's layout as its figure built it, before any room step (FigureBuild). True when a
// grid changed.
bool stack(QCustomPlot *plot);

// Whether a figure, stacked or not, fits its page for FigureSizes::grownForPanels: FigureRoom::fits
// with texts at `points`, and every text item drawn (a colour bar's label folded under its bar,
// FigureRoom's foldBarLabels) within the page, which the room steps do not read once a later step
// narrowed the bar's column: dropout-anatomy stacked at 8.5 x 15 cm at 8 pt read "X and Y" past the
// page's right edge.
bool fitsPage(const QCustomPlot &plot, double points);

// How `build`, laid out on its page with texts at `points`, draws its panels for
// FigureSizes::grownForPanels: those it leaves out for room (KeptPanels::leftOut) and whether it fits
// its page (fitsPage()); a figure that cannot be drawn there leaves out more than any that can. What
// `posenc export` weighs each figure of its page by, and the Export figure dialog its figure.
FigureSizes::PanelsOnPage onPage(const FigureBuild &build, double points);

} // namespace posenc::StackedPanels
