#pragma once

#include "QCustomPlot.h"

namespace posenc::FigureFonts {

// The size of every text of a figure in the window, and of a file's unless --font-size says
// otherwise: axis labels and their ticks, titles, legends and the labels on the data alike.
constexpr double kBasePointSize = 9.0;
// A colour bar's widest (layout units) on little room (FigureRoom), whatever the text's size.
inline constexpr char kBarLimitProperty[] = "posencBarLimit";

// Every text of the figure at `points` (docs/ARCHITECTURE.md, Exporting): axis labels and ticks,
// titles and captions, legends and their entries, colorbars, the labels placed on the data; bold
// and italic as the figure set them. Colorbars widen with the text. Changes only what differs,
// so that a figure laid out again keeps QCustomPlot's caches of its tick labels.
void apply(QCustomPlot *plot, double points);

} // namespace posenc::FigureFonts
