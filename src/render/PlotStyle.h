#pragma once

#include "data/FigureText.h"

#include "QCustomPlot.h"

#include <QSize>
#include <QString>

namespace posenc::PlotStyle {

// One look for every figure: fonts that stay legible, quiet grids, no antialiasing where
// it only costs time (colormaps), a title element on top.
void preparePlot(QCustomPlot *plot);
void styleAxisRect(QCPAxisRect *rect);
// Empties the layout and puts a title text element in row 0; returns it.
QCPTextElement *resetWithTitle(QCustomPlot *plot);
// A figure the size of a paper column or smaller (below 500 x 340 layout units, 13.2 x 9 cm):
// the figures with long legends shorten them then, in the window as in the export.
bool isCompact(QSize layout);

} // namespace posenc::PlotStyle
