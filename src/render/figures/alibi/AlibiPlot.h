#pragma once

#include "render/QCustomPlot.h"

#include <QColor>

#include <cstdint>

// What the ALiBi figures draw alike: a colour per head by its slope, steep heads dark and gentle
// ones light along viridis (log scale), so that the order of the slopes reads in every figure and
// colour vision, whatever the interleave does to the heads' numbers.
namespace posenc::AlibiPlot {

// The colour of `slope` among slopes from `steepest` down to `gentlest`.
QColor slopeColor(double slope, double steepest, double gentlest);
// The pen of a head's curve: head K, the one the parameters choose, wider.
QPen headPen(double slope, double steepest, double gentlest, bool chosen);

} // namespace posenc::AlibiPlot
