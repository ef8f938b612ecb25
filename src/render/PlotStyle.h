#pragma once

#include "core/Quantity.h"

#include "QCustomPlot.h"

#include <QString>

namespace posenc::PlotStyle {

// One look for every figure: fonts that stay legible, quiet grids, no antialiasing where
// it only costs time (colormaps), a title element on top.
void preparePlot(QCustomPlot *plot);
void styleAxisRect(QCPAxisRect *rect);
// Empties the layout and puts a title text element in row 0; returns it.
QCPTextElement *resetWithTitle(QCustomPlot *plot);

QString quantityLabel(Quantity quantity); // for colorbars and titles
QString formatCount(std::int64_t n); // 8192 -> "8,192"
QString formatNumber(double value, int digits = 4); // compact, exponent when needed

} // namespace posenc::PlotStyle
