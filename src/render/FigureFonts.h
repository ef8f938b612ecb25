#pragma once

#include "QCustomPlot.h"

namespace posenc::FigureFonts {

// Every text of the figure scaled by `factor`: axis labels and ticks, titles, legends, colorbars.
void scale(QCustomPlot *plot, double factor);

} // namespace posenc::FigureFonts
