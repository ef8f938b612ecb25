#pragma once

#include "render/QCustomPlot.h"

#include <QColor>
#include <QList>

// What figures of any family draw with besides their panels: lines across an axis rect, shades
// of a range of x behind the curves, and logarithmic axes in powers of two.
namespace posenc::PlotItems {

// A line graph of the rect's axes, in `color`, `width` and `style`.
QCPGraph *line(QCPAxisRect *rect, const QColor &color, double width, Qt::PenStyle style = Qt::SolidLine);
// `graph` as a horizontal line at `y` from x0 to x1, or a vertical one at `x` from y0 to y1.
void horizontal(QCPGraph *graph, double x0, double x1, double y);
void vertical(QCPGraph *graph, double x, double y0, double y1);
// A rectangle over x in plot coordinates and the rect's whole height, behind the graphs created
// after it; hidden until placed.
QCPItemRect *shade(QCPAxisRect *rect, const QColor &fill);
// Shows `item` over x in [x0, x1], or hides it when `show` is false.
void placeShade(QCPItemRect *item, bool show, double x0 = 0.0, double x1 = 0.0);
// A logarithmic axis in powers of two, about `ticks` ticks: labelled 2⁻²³ .. 2¹⁰ (`powers`), or as
// the whole numbers they are, thousands grouped ("4,096"): the gaps of binary formats and the
// positions where they double.
void setLog2Axis(QCPAxis *axis, bool powers, int ticks);
// The range of positive values on a log axis, a factor `margin` beyond the least and the most.
QCPRange logRange(const QList<double> &values, double margin);

} // namespace posenc::PlotItems
