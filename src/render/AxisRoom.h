#pragma once

#include "QCustomPlot.h"

// What a panel's axes keep of it, at every layout (FigureLayoutLoop::layOut; docs/ARCHITECTURE.md,
// "Figures at any size"): the height their titles' words need.
namespace posenc::AxisRoom {

// Sets each panel's least height to what the longest word of its left and right axes' labels needs
// beyond the margins above and below the plot it may reach into, or to the least height its figure
// gave it where that is more (kept across layouts: a figure's own is read back where it has not set
// another since). A word cannot wrap, and one longer than its plot reached past the panel, over the
// numbers of the panel above it (rope-decay's "RoFormer" over the scores' -0.25 at 6 x 4 cm), where
// FigureRoom, having nothing left to give up, kept it whole.
void holdLabelWords(QCustomPlot *plot);

} // namespace posenc::AxisRoom
