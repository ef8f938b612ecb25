#pragma once

#include <QColor>
#include <QList>
#include <QPointF>

class QPainter;

namespace posenc::ColumnFill {

// The aliased fill of the band between two sides over increasing x (a channel fill: one side out,
// the other back, as QCPGraph makes its polygon), drawn column by column of device pixels: in each
// column the pixels whose centres lie between the two sides at the column's centre, as the raster
// engine fills that polygon without antialiasing. A side is a polyline in the painter's
// coordinates; a point with a NaN coordinate breaks it, and a column where either side is broken
// is left empty. The columns are written to one image drawn at once: a band of a point a pixel has
// an edge on every pixel, which the polygon's scan conversion pays for scanline by scanline.
//
// Draws nothing and returns false when the painter maps to the device by more than a scale and a
// translation, or a side's x runs backwards: the caller draws the polygon instead.
bool draw(QPainter &painter, const QList<QPointF> &side, const QList<QPointF> &otherSide, const QColor &color);

// The rows [first, last) of device pixels between the sides at device x `centre`, or an empty
// range; the sides are in device pixels. Exposed for its test.
struct Rows
{
    int first = 0, last = 0;
};
Rows rowsAt(const QList<QPointF> &side, const QList<QPointF> &otherSide, double centre);

} // namespace posenc::ColumnFill
