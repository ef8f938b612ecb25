#pragma once

#include <QList>
#include <QPointF>

namespace posenc {

// The vertices of the polyline `points` (device pixels; a point with a NaN coordinate breaks it)
// that keep every vertex left out within `tolerance` of the segment drawn in its place: the
// Douglas-Peucker simplification of each unbroken run, its ends and its breaks kept. A curve
// sampled a point or two a pixel is drawn with a fraction of its segments, none of its pixels more
// than `tolerance` away.
QList<QPointF> simplifyPolyline(const QList<QPointF> &points, double tolerance);

} // namespace posenc
