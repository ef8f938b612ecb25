#include "ColumnFill.h"

#include <QImage>
#include <QPaintDevice>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace posenc::ColumnFill {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Far past any device: rows beyond it are clipped anyway, and the conversion to int stays defined.
constexpr double kFar = 1e8;

bool runsForward(const QList<QPointF> &points)
{
    double last = -std::numeric_limits<double>::infinity();
    for (const QPointF &p : points) {
        if (std::isnan(p.x()))
            continue;
        if (p.x() < last)
            return false;
        last = p.x();
    }
    return true;
}

// A side read at increasing x: the segment under x, found by walking on from the last one.
class SideReader
{
public:
    explicit SideReader(const QList<QPointF> &points)
        : m_points(points)
    { }

    // The side's y at x (linear between the two points around it), NaN where it is broken or absent.
    double at(double x)
    {
        const qsizetype n = m_points.size();
        while (m_next < n && !(m_points[m_next].x() >= x))
            ++m_next; // NaN x breaks the side: skipped over, it leaves no segment around x
        if (m_next >= n || m_next == 0)
            return m_next < n && m_points[m_next].x() == x ? finiteY(m_points[m_next]) : kNaN;
        const QPointF &a = m_points[m_next - 1], &b = m_points[m_next];
        if (!std::isfinite(a.x()) || !std::isfinite(a.y()) || !std::isfinite(b.y()))
            return b.x() == x ? finiteY(b) : kNaN;
        if (b.x() == a.x())
            return b.y();
        return a.y() + (b.y() - a.y()) * ((x - a.x()) / (b.x() - a.x()));
    }

private:
    static double finiteY(const QPointF &p) { return std::isfinite(p.y()) ? p.y() : kNaN; }

    const QList<QPointF> &m_points;
    qsizetype m_next = 0;
};

Rows rowsBetween(double a, double b)
{
    if (!std::isfinite(a) || !std::isfinite(b))
        return {};
    const double top = std::min(a, b), bottom = std::max(a, b);
    // The rows whose centres r + 0.5 lie in [top, bottom).
    const auto row = [](double y) { return int(std::ceil(std::clamp(y, -kFar, kFar) - 0.5)); };
    return {row(top), row(bottom)};
}

QList<QPointF> mapped(const QList<QPointF> &points, const QTransform &t)
{
    QList<QPointF> out;
    out.reserve(points.size());
    // On the raster engine's grid of a 64th of a pixel, where it places a polygon's vertices.
    const auto grid
        = [](double v) { return std::isfinite(v) ? std::round(std::clamp(v, -kFar, kFar) * 64.0) / 64.0 : v; };
    for (const QPointF &p : points)
        out.append({grid(t.m11() * p.x() + t.dx()), grid(t.m22() * p.y() + t.dy())});
    return out;
}

} // namespace

Rows rowsAt(const QList<QPointF> &side, const QList<QPointF> &otherSide, double centre)
{
    const QList<QPointF> onGrid = mapped(side, QTransform()), otherOnGrid = mapped(otherSide, QTransform());
    SideReader a(onGrid), b(otherOnGrid);
    return rowsBetween(a.at(centre), b.at(centre));
}

bool draw(QPainter &painter, const QList<QPointF> &side, const QList<QPointF> &otherSide, const QColor &color)
{
    const QTransform t = painter.deviceTransform();
    if (t.type() > QTransform::TxScale || t.m11() <= 0.0 || t.m22() <= 0.0 || !runsForward(side)
        || !runsForward(otherSide) || !painter.device())
        return false;
    const QList<QPointF> a = mapped(side, t), b = mapped(otherSide, t);
    QRect bounds(0, 0, painter.device()->width(), painter.device()->height());
    if (painter.hasClipping())
        bounds &= t.mapRect(painter.clipBoundingRect()).toAlignedRect();
    // The columns both sides may cover, within the clip.
    double least = std::numeric_limits<double>::infinity(), most = -least;
    for (const QList<QPointF> *s : {&a, &b})
        for (const QPointF &p : *s)
            if (std::isfinite(p.x())) {
                least = std::min(least, p.x());
                most = std::max(most, p.x());
            }
    if (!(least <= most) || bounds.isEmpty())
        return true;
    // Clamped to the bounds before they become ints: a side far off the device stays a finite
    // double that no int holds.
    const double left = bounds.left(), right = bounds.right() + 1;
    const int firstColumn = std::max(bounds.left(), int(std::ceil(std::clamp(least, left, right) - 0.5)));
    const int lastColumn = std::min(bounds.right(), int(std::floor(std::clamp(most, left, right) - 0.5)));
    if (firstColumn > lastColumn)
        return true;
    std::vector<Rows> rows(std::size_t(lastColumn - firstColumn + 1));
    SideReader readA(a), readB(b);
    int top = bounds.bottom() + 1, bottom = bounds.top();
    for (int c = firstColumn; c <= lastColumn; ++c) {
        const double centre = c + 0.5;
        Rows r = rowsBetween(readA.at(centre), readB.at(centre));
        r.first = std::max(r.first, bounds.top());
        r.last = std::min(r.last, bounds.bottom() + 1);
        if (r.first < r.last) {
            top = std::min(top, r.first);
            bottom = std::max(bottom, r.last);
        }
        rows[std::size_t(c - firstColumn)] = r;
    }
    if (top >= bottom)
        return true;
    QImage image(lastColumn - firstColumn + 1, bottom - top, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    const QRgb pixel = qPremultiply(color.rgba());
    // The pixels written through one pointer: QImage::scanLine, a call with a detach check, was a
    // third of a band's filling.
    uchar *const bits = image.bits();
    const auto stride = static_cast<std::size_t>(image.bytesPerLine());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (int y = rows[i].first; y < rows[i].last; ++y)
            reinterpret_cast<QRgb *>(bits + static_cast<std::size_t>(y - top) * stride)[i] = pixel;
    }
    // Drawn one device pixel to one: in device pixels, on a device of another pixel ratio too.
    const qreal ratio = painter.device()->devicePixelRatioF();
    image.setDevicePixelRatio(ratio);
    painter.save();
    painter.resetTransform();
    painter.drawImage(QPointF(firstColumn / ratio, top / ratio), image);
    painter.restore();
    return true;
}

} // namespace posenc::ColumnFill
