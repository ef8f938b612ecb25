#pragma once

#include <QPointF>
#include <QRectF>

#include <algorithm>
#include <optional>
#include <utility>

namespace posenc {

// The part of the segment from `a` to `b` inside `box`, as the parameters t0 <= t1 of a + (b - a) t
// (Liang-Barsky clipping); nothing where the segment misses the box.
inline std::optional<std::pair<double, double>> clippedSegment(const QPointF &a, const QPointF &b, const QRectF &box)
{
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    double t0 = 0.0, t1 = 1.0;
    const std::pair<double, double> sides[] {
        {-dx, a.x() - box.left()}, {dx, box.right() - a.x()}, {-dy, a.y() - box.top()}, {dy, box.bottom() - a.y()}};
    for (const auto &[p, q] : sides) {
        if (p == 0.0) {
            if (q < 0.0)
                return std::nullopt;
            continue;
        }
        const double t = q / p;
        if (p < 0.0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1)
            return std::nullopt;
    }
    return std::pair {t0, t1};
}

} // namespace posenc
