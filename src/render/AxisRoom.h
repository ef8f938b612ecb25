#pragma once

#include "QCustomPlot.h"

// What a panel's axes keep of it, at every layout (FigureLayoutLoop::layOut; docs/ARCHITECTURE.md,
// "Figures at any size"): the height their titles' words need, and their lines clear of the keys
// set inside the plot.
namespace posenc::AxisRoom {

// Sets each panel's least height to what the longest word of its left and right axes' labels needs
// beyond the margins above and below the plot it may reach into, or to the least height its figure
// gave it where that is more (kept across layouts: a figure's own is read back where it has not set
// another since). A word cannot wrap, and one longer than its plot reached past the panel, over the
// numbers of the panel above it (rope-decay's "RoFormer" over the scores' -0.25 at 6 x 4 cm), where
// FigureRoom, having nothing left to give up, kept it whole. The panels of a grid whose property
// kEqualPlots is true are raised alike, so that its plots stay as high as each other.
constexpr char kEqualPlots[] = "posencEqualPlots";
void holdLabelWords(QCustomPlot *plot);

// Keeps what stands in a plot's corners (a key moved into a free corner, an inset's key) off the
// lines of its axes: each side of the plot's inset layout as far in as the axis on that side draws
// its line, and a unit. A key's ground covers its outer rect (QCPLegend::draw), which
// QCPLayoutInset set flush with the plot's edges, over the axes' lines: what-dropout-does' key in
// its scatter plot paled the x axis under it, leaving a dark stretch beside it, and left-padding's
// key of the difference covered its panel's lower left corner.
void keepInsetsOffAxes(QCustomPlot *plot);

// Keeps the end tick labels of each panel's axes across on the page: where the label centred on an
// end tick reaches past the plot's side at the page's edge, the panel's least margin on that side
// holds what reaches past (or its figure's own least margin there, where that is more; kept across
// layouts as holdLabelWords keeps a height). QCustomPlot leaves out a tick label that the page would
// cut (QCPAxisPainterPrivate::placeTickLabel): many-layers' query scale, its positions to Llama 4
// Scout's 10,485,760, lost its 10⁷ a unit from the page's right edge. True when a margin changed:
// the layout is then updated again.
bool holdEndTickLabels(QCustomPlot *plot);

// `element`'s least margins without the raise holdEndTickLabels set last, where they are that
// raise; else as they are. A room step that keeps an axis rect's margins to give back when undone
// keeps these: given back with the raise, a raise made on a compact page stayed when a view was made
// large again, read as the panel's own (buckets' left plots a unit narrower than a view opened large).
QMargins ownMargins(const QCPLayoutElement *element);

} // namespace posenc::AxisRoom
