#pragma once

#include "QCustomPlot.h"

#include <QLineF>
#include <QPointF>
#include <QRectF>

#include <algorithm>
#include <cmath>

// A direct label that stands off its curve, joined to it by a leader line (DirectLabels.h): where
// curves crowd a small plot so that no label finds a place beside its own, an author sets some
// labels in the free room nearby and draws a thin line from each to a point of its curve, as
// matplotlib's `ax.annotate(name, xy=point, xytext=place, arrowprops=dict(arrowstyle="-"))` or
// ggrepel's segments do. The leader is drawn with its label, so that hiding the label hides it.
namespace posenc::DirectLabels {

inline constexpr double kLeaderWidth = 0.8; // layout units: thinner than any curve it names
inline constexpr double kLeaderOff = 1.5; // between the leader's ends and its curve and its label

// The leader from `anchor`, a point of the curve, to the nearest point of the label's `box`,
// without the kLeaderOff at each end; empty where the anchor is within that of the box.
inline QLineF leaderOf(const QRectF &box, QPointF anchor)
{
    const QPointF to(std::clamp(anchor.x(), box.left(), box.right()), std::clamp(anchor.y(), box.top(), box.bottom()));
    const QLineF whole(anchor, to);
    const double length = whole.length();
    if (length <= 2.0 * kLeaderOff + 1.0)
        return {};
    const QPointF unit = (to - anchor) / length;
    return {anchor + unit * kLeaderOff, to - unit * kLeaderOff};
}

// Whether the segment `line` meets `box`.
inline bool meets(const QLineF &line, const QRectF &box)
{
    if (line.isNull())
        return false;
    if (box.contains(line.p1()) || box.contains(line.p2()))
        return true;
    const QLineF edges[] = {{box.topLeft(), box.topRight()},
                            {box.topRight(), box.bottomRight()},
                            {box.bottomRight(), box.bottomLeft()},
                            {box.bottomLeft(), box.topLeft()}};
    return std::any_of(std::begin(edges), std::end(edges),
                       [&](const QLineF &edge) { return line.intersects(edge) == QLineF::BoundedIntersection; });
}

// A label's text with, where it stands off its curve, its leader: `anchor` the point of its curve
// (in the same coordinates as its position, so that both follow the plot as it grows).
class LeaderText : public QCPItemText
{
public:
    explicit LeaderText(QCustomPlot *plot)
        : QCPItemText(plot)
        , anchor(createPosition(QStringLiteral("leaderAnchor")))
    { }

    QCPItemPosition *const anchor;
    bool leads = false;

    // The leader as laid out now, in layout units; empty where the label stands beside its curve.
    QLineF leader() const
    {
        if (!leads)
            return {};
        return leaderWithin(QRectF(topLeft->pixelPosition(), bottomRight->pixelPosition()).normalized());
    }
    // The same, its text's `box` as laid out now given (a text's box is its text measured again).
    QLineF leaderWithin(const QRectF &box) const { return leads ? leaderOf(box, anchor->pixelPosition()) : QLineF(); }

protected:
    void draw(QCPPainter *painter) override
    {
        // QCPItemText leaves the painter moved to its text's position.
        const QTransform before = painter->transform();
        QCPItemText::draw(painter);
        painter->setTransform(before);
        const QLineF line = leader();
        if (line.isNull())
            return;
        QPen pen(color(), kLeaderWidth);
        pen.setCapStyle(Qt::FlatCap);
        painter->setPen(pen);
        painter->setBrush(Qt::NoBrush);
        painter->drawLine(line);
    }
};

} // namespace posenc::DirectLabels
