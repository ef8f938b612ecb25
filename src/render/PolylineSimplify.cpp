#include "PolylineSimplify.h"

#include <cmath>
#include <utility>
#include <vector>

namespace posenc {

namespace {

bool isFinite(const QPointF &p)
{
    return std::isfinite(p.x()) && std::isfinite(p.y());
}

// The squared distance of `p` from the segment a-b (not the line through them: a curve that turns
// back keeps its turn).
double squaredDistance(const QPointF &p, const QPointF &a, const QPointF &b)
{
    const QPointF ab = b - a;
    const QPointF ap = p - a;
    const double length = QPointF::dotProduct(ab, ab);
    const double t = length > 0.0 ? std::clamp(QPointF::dotProduct(ap, ab) / length, 0.0, 1.0) : 0.0;
    const QPointF d = ap - t * ab;
    return QPointF::dotProduct(d, d);
}

// Marks in `keep` the vertices of points[first..last] that Douglas-Peucker keeps, the ends marked.
void simplifyRun(const QList<QPointF> &points, qsizetype first, qsizetype last, double tolerance2,
                 std::vector<bool> &keep)
{
    keep[std::size_t(first)] = keep[std::size_t(last)] = true;
    std::vector<std::pair<qsizetype, qsizetype>> spans {{first, last}};
    while (!spans.empty()) {
        const auto [a, b] = spans.back();
        spans.pop_back();
        double farthest = tolerance2;
        qsizetype at = -1;
        for (qsizetype i = a + 1; i < b; ++i) {
            const double d = squaredDistance(points[i], points[a], points[b]);
            if (d > farthest) {
                farthest = d;
                at = i;
            }
        }
        if (at < 0)
            continue;
        keep[std::size_t(at)] = true;
        spans.push_back({a, at});
        spans.push_back({at, b});
    }
}

} // namespace

QList<QPointF> simplifyPolyline(const QList<QPointF> &points, double tolerance)
{
    const qsizetype n = points.size();
    if (n <= 2 || !(tolerance > 0.0))
        return points;
    std::vector<bool> keep(std::size_t(n), false);
    for (qsizetype start = 0; start < n;) {
        if (!isFinite(points[start])) {
            keep[std::size_t(start++)] = true; // the break itself
            continue;
        }
        qsizetype end = start;
        while (end + 1 < n && isFinite(points[end + 1]))
            ++end;
        simplifyRun(points, start, end, tolerance * tolerance, keep);
        start = end + 1;
    }
    QList<QPointF> kept;
    kept.reserve(n);
    for (qsizetype i = 0; i < n; ++i)
        if (keep[std::size_t(i)])
            kept.append(points[i]);
    return kept;
}

} // namespace posenc
