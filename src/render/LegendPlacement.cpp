#include "LegendPlacement.h"
#include "LegendPlacementDrawn.h"
#include "LegendPlacementInputs.h"
#include "SegmentClip.h"

#include <QLineF>
#include <QPolygonF>
#include <QRectF>

#include <algorithm>
#include <array>
#include <cmath>

namespace posenc::LegendPlacement {

namespace {

// Whether the segment from `a` to `b` meets `box`.
bool meets(const QPointF &a, const QPointF &b, const QRectF &box)
{
    if (box.contains(a) || box.contains(b))
        return true;
    const QLineF segment(a, b);
    const std::array<QLineF, 4> edges {QLineF(box.topLeft(), box.topRight()), QLineF(box.topRight(), box.bottomRight()),
                                       QLineF(box.bottomRight(), box.bottomLeft()),
                                       QLineF(box.bottomLeft(), box.topLeft())};
    for (const QLineF &edge : edges)
        if (segment.intersects(edge, nullptr) == QLineF::BoundedIntersection)
            return true;
    return false;
}

bool covers(const Trace &trace, const QRectF &box)
{
    if (!trace.shown)
        return false;
    const QRectF grown = box.adjusted(-trace.marker, -trace.marker, trace.marker, trace.marker);
    // A run of points all beyond one side of the grown box has none in it, nor a segment across the box.
    for (qsizetype run = 0; run < trace.runs.size(); ++run) {
        if (trace.runs[run].misses(grown))
            continue;
        weigh(trace.runEnd(run) - trace.runStart(run) + 1);
        for (qsizetype i = trace.runStart(run); i <= trace.runEnd(run); ++i) {
            if (grown.contains(trace.points[i]))
                return true;
            if (trace.joined && i > 0 && meets(trace.points[i - 1], trace.points[i], box))
                return true;
        }
    }
    return false;
}

bool itemCovers(QCPAbstractItem *item, const QRectF &box)
{
    if (auto *line = qobject_cast<QCPItemLine *>(item))
        return meets(line->start->pixelPosition(), line->end->pixelPosition(), box);
    if (auto *line = qobject_cast<QCPItemStraightLine *>(item)) {
        // Long enough to cross the whole rect either way.
        const QPointF a = line->point1->pixelPosition(), b = line->point2->pixelPosition();
        const QPointF step = (b - a) * 1e4;
        return meets(a - step, b + step, box);
    }
    if (auto *text = qobject_cast<QCPItemText *>(item)) // its box, not only its anchor
        return QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized().intersects(box);
    if (auto *tracer = qobject_cast<QCPItemTracer *>(item))
        return box.contains(tracer->position->pixelPosition());
    return false; // a shade: an area of Drawn
}

// matplotlib's order of "best": the corners, then the middles of the sides, then the centre.
const std::array<Qt::Alignment, 9> kPlaces {
    Qt::AlignTop | Qt::AlignRight,      Qt::AlignTop | Qt::AlignLeft,      Qt::AlignBottom | Qt::AlignLeft,
    Qt::AlignBottom | Qt::AlignRight,   Qt::AlignVCenter | Qt::AlignRight, Qt::AlignVCenter | Qt::AlignLeft,
    Qt::AlignBottom | Qt::AlignHCenter, Qt::AlignTop | Qt::AlignHCenter,   Qt::AlignCenter};

// The box a legend of `size` takes at `corner` of `rect`: its share of the rect as it will be
// (`grownBy` units higher), with a few units of air, in today's pixels.
QRectF boxAt(const QRect &r, QSize size, int grownBy, Qt::Alignment corner)
{
    const double width = std::min(1.0, (size.width() + 6.0) / std::max(r.width(), 1)) * r.width();
    const double height = std::min(1.0, (size.height() + 6.0) / std::max(r.height() + grownBy, 1)) * r.height();
    const double x = corner & Qt::AlignLeft ? r.left()
        : corner & Qt::AlignRight           ? r.right() - width
                                            : r.center().x() - width / 2.0;
    const double y = corner & Qt::AlignTop ? r.top()
        : corner & Qt::AlignBottom         ? r.bottom() - height
                                           : r.center().y() - height / 2.0;
    return {x, y, width, height};
}

// Whether `box` hides part of a cell drawn.
bool hidesCells(const QList<QRectF> &cells, const QRectF &box)
{
    return std::any_of(cells.begin(), cells.end(), [&box](const QRectF &cell) {
        const QRectF both = cell.intersected(box);
        return both.width() > 0.5 && both.height() > 0.5;
    });
}

// `polygon` clipped to the side of a box's edge where `inside` holds (one pass of Sutherland and
// Hodgman's clipping); `at` is where the segment from one point to the next meets that edge.
template<typename Inside, typename At>
void clipTo(const QList<QPointF> &polygon, QList<QPointF> &out, Inside inside, At at)
{
    out.clear();
    for (qsizetype i = 0; i < polygon.size(); ++i) {
        const QPointF &previous = polygon[i > 0 ? i - 1 : polygon.size() - 1], &point = polygon[i];
        const bool was = inside(previous), is = inside(point);
        if (is != was)
            out.append(at(previous, point));
        if (is)
            out.append(point);
    }
}

// The area of `polygon` within `box`: the polygon clipped to each of the box's sides in turn
// (Sutherland and Hodgman), whose shoelace is the area the two share, as QPolygonF::intersected
// would outline it, in time linear in its points (the clip of QPainterPath, QPathClipper, on a band
// of thousands of points took a tenth of a second at every fitting).
double areaWithin(const Area &area, const QRectF &box)
{
    if (!area.bounds.intersects(box))
        return 0.0;
    if (box.contains(area.bounds))
        return area.whole;
    weigh(area.polygon.size());
    QList<QPointF> a = area.polygon, b;
    b.reserve(a.size() + 8);
    const auto acrossX = [](double x) {
        return [x](const QPointF &p, const QPointF &q) {
            return QPointF(x, p.y() + (q.y() - p.y()) * (x - p.x()) / (q.x() - p.x()));
        };
    };
    const auto acrossY = [](double y) {
        return [y](const QPointF &p, const QPointF &q) {
            return QPointF(p.x() + (q.x() - p.x()) * (y - p.y()) / (q.y() - p.y()), y);
        };
    };
    const double left = box.left(), right = box.right(), top = box.top(), bottom = box.bottom();
    const auto pastLeft = [left](const QPointF &p) { return p.x() >= left; };
    const auto beforeRight = [right](const QPointF &p) { return p.x() <= right; };
    const auto belowTop = [top](const QPointF &p) { return p.y() >= top; };
    const auto aboveBottom = [bottom](const QPointF &p) { return p.y() <= bottom; };
    clipTo(a, b, pastLeft, acrossX(left));
    clipTo(b, a, beforeRight, acrossX(right));
    clipTo(a, b, belowTop, acrossY(top));
    clipTo(b, a, aboveBottom, acrossY(bottom));
    return enclosedArea(a);
}

// The fraction of a filled area that `box` hides: a legend's ground over a band notches it.
double hiddenOf(const Area &area, const QRectF &box)
{
    return area.whole > 0.0 ? areaWithin(area, box) / area.whole : 0.0;
}

// Whether `box` meets the area `area` fills (its outline crosses the box, or one holds the other:
// QPolygonF::intersects, in time linear in its points).
bool meets(const Area &area, const QRectF &box)
{
    const QPolygonF &polygon = area.polygon;
    const QRectF &bounds = area.bounds; // of no width or height where the area is flat: compared edge to edge
    if (polygon.isEmpty() || bounds.left() > box.right() || bounds.right() < box.left() || bounds.top() > box.bottom()
        || bounds.bottom() < box.top())
        return false;
    weigh(polygon.size());
    for (qsizetype i = 0; i < polygon.size(); ++i)
        if (clippedSegment(polygon[i > 0 ? i - 1 : polygon.size() - 1], polygon[i], box))
            return true;
    // Within the polygon (odd-even, as QCPGraph fills it): the box's centre.
    const QPointF centre = box.center();
    bool within = false;
    for (qsizetype i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
        const QPointF &p = polygon[i], &q = polygon[j];
        if ((p.y() > centre.y()) != (q.y() > centre.y())
            && centre.x() < p.x() + (q.x() - p.x()) * (centre.y() - p.y()) / (q.y() - p.y()))
            within = !within;
    }
    return within;
}

// The length of the segment from `a` to `b` within `box` (Liang-Barsky clipping).
double lengthWithin(const QPointF &a, const QPointF &b, const QRectF &box)
{
    const auto t = clippedSegment(a, b, box);
    return t ? (t->second - t->first) * std::hypot(b.x() - a.x(), b.y() - a.y()) : 0.0;
}

// The fraction of `trace` that `box` hides: of its length where its points are joined, else of
// its points.
double hiddenOf(const Trace &trace, const QRectF &box)
{
    if (trace.points.isEmpty() || !trace.shown)
        return 0.0;
    // A point or a stretch of line is hidden where its centre is under the box (half of its marker,
    // its line's width, or more); the box has its few units of air around the legend already.
    const QRectF &grown = box;
    const double left = grown.left(), right = grown.right(), top = grown.top(), bottom = grown.bottom();
    // The runs of points beyond one of the box's sides are skipped whole: none of them within.
    const auto near = [&](qsizetype run) {
        const bool is = !trace.runs[run].misses(grown);
        if (is)
            weigh(trace.runEnd(run) - trace.runStart(run) + 1);
        return is;
    };
    if (!trace.joined || trace.points.size() == 1) {
        // QRectF::contains of a box of some width and height, edges included, compared in place.
        if (!(grown.width() > 0.0 && grown.height() > 0.0))
            return 0.0;
        qsizetype inside = 0;
        for (qsizetype run = 0; run < trace.runs.size(); ++run) {
            if (!near(run))
                continue;
            const qsizetype end = run + 1 < trace.runs.size() ? trace.runStart(run + 1) : trace.points.size();
            for (qsizetype i = trace.runStart(run); i < end; ++i) {
                const QPointF &p = trace.points[i];
                inside += p.x() >= left && p.x() <= right && p.y() >= top && p.y() <= bottom ? 1 : 0;
            }
        }
        return double(inside) / double(trace.points.size());
    }
    double hidden = 0.0;
    for (qsizetype run = 0; run < trace.runs.size(); ++run) {
        if (!near(run))
            continue;
        for (qsizetype i = trace.runStart(run) + 1; i <= trace.runEnd(run); ++i) {
            const QPointF &a = trace.points[i - 1], &b = trace.points[i];
            // Beyond one of the box's sides: none of it within.
            if ((a.x() < left && b.x() < left) || (a.x() > right && b.x() > right) || (a.y() < top && b.y() < top)
                || (a.y() > bottom && b.y() > bottom))
                continue;
            hidden += lengthWithin(a, b, grown);
        }
    }
    const double total = trace.length;
    return total > 0.0 ? hidden / total : (grown.contains(trace.points.first()) ? 1.0 : 0.0);
}

} // namespace

namespace {

// leastCovered's place and its badness.
struct Covered
{
    Qt::Alignment place;
    double badness = 0.0;
};

std::optional<Covered> leastBadness(const Drawn &drawn, QCPAxisRect *rect, QSize size, int grownBy, double most);
std::optional<Qt::Alignment> freeIn(const Drawn &drawn, QCPAxisRect *rect, QSize size, int grownBy);

} // namespace

std::optional<Qt::Alignment> leastCovered(QCPAxisRect *rect, QSize size, int grownBy, double most)
{
    const auto drawn = drawnIn(rect);
    const auto covered = drawn ? leastBadness(*drawn, rect, size, grownBy, most) : std::nullopt;
    return covered ? std::optional<Qt::Alignment>(covered->place) : std::nullopt;
}

std::optional<Qt::Alignment> freeCorner(QCPAxisRect *rect, QSize size, int grownBy)
{
    const auto drawn = drawnIn(rect);
    return drawn ? freeIn(*drawn, rect, size, grownBy) : std::nullopt;
}

namespace {

// Of kPlaces, the one where a key of `size` hides the least of `drawn` (leastCovered).
std::optional<Covered> leastBadness(const Drawn &drawn, QCPAxisRect *rect, QSize size, int grownBy, double most)
{
    QCustomPlot *plot = rect->parentPlot();
    std::optional<Qt::Alignment> best;
    double least = 0.0;
    for (const Qt::Alignment place : kPlaces) {
        // The first place of least badness is taken: after one that hides nothing, none is taken.
        if (best && least < 1e-9)
            break;
        const QRectF box = boxAt(rect->rect(), size, grownBy, place);
        double badness = 0.0;
        bool bearable = !hidesCells(drawn.cells, box);
        // A place is weighed no further once it is unbearable or hides no less than the best before:
        // what is left of it only adds to its badness.
        const auto weighing = [&] { return bearable && (!best || badness < least - 1e-9); };
        for (qsizetype i = 0; weighing() && i < drawn.traces.size(); ++i) {
            const double hidden = hiddenOf(drawn.traces[i], box);
            bearable = bearable && hidden <= most;
            badness += hidden;
        }
        for (qsizetype i = 0; weighing() && i < drawn.areas.size(); ++i) {
            const double hidden = hiddenOf(drawn.areas[i], box);
            bearable = bearable && hidden <= most;
            badness += hidden;
        }
        for (int i = 0; weighing() && i < plot->itemCount(); ++i) {
            QCPAbstractItem *item = plot->item(i);
            if (!item->realVisibility() || !item->clipToAxisRect() || item->clipAxisRect() != rect)
                continue;
            if (auto *text = qobject_cast<QCPItemText *>(item))
                bearable = !QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition())
                                .normalized()
                                .intersects(box);
            else if (itemCovers(item, box))
                badness += 0.1;
        }
        if (bearable && (!best || badness < least - 1e-9)) {
            best = place;
            least = badness;
        }
    }
    return best ? std::optional<Covered>(Covered {*best, least}) : std::nullopt;
}

// Of kPlaces, the first where a key of `size` covers none of `drawn` (freeCorner).
std::optional<Qt::Alignment> freeIn(const Drawn &drawn, QCPAxisRect *rect, QSize size, int grownBy)
{
    QCustomPlot *plot = rect->parentPlot();
    for (const Qt::Alignment place : kPlaces) {
        const QRectF box = boxAt(rect->rect(), size, grownBy, place);
        bool free = !hidesCells(drawn.cells, box);
        for (const Trace &trace : drawn.traces)
            free = free && !covers(trace, box);
        for (const Area &area : drawn.areas)
            free = free && !meets(area, box);
        for (int i = 0; free && i < plot->itemCount(); ++i) {
            QCPAbstractItem *item = plot->item(i);
            if (item->realVisibility() && item->clipToAxisRect() && item->clipAxisRect() == rect)
                free = !itemCovers(item, box);
        }
        if (free)
            return place;
    }
    return std::nullopt;
}

} // namespace

void setBest(QCPLegend *legend, bool best)
{
    legend->setProperty("posencBest", best ? QVariant(true) : QVariant());
}

namespace {

// Where placeBest places `legend` in `rect`: the most columns, filled row by row, that leave it a
// free place within 40 % of the plot's height (FigureFit moves a larger one below); where none
// does, those that hide the least of the data there. What the plot draws is read once for every
// size tried.
Decision decide(const QCPLegend *legend, QCPAxisRect *rect)
{
    const std::optional<Drawn> drawn = drawnIn(rect);
    const auto freeAt = [&](QSize size) { return drawn ? freeIn(*drawn, rect, size, 0) : std::nullopt; };
    const auto leastAt = [&](QSize size) { return drawn ? leastBadness(*drawn, rect, size, 0, 1.0) : std::nullopt; };
    std::optional<Qt::Alignment> place;
    std::optional<Covered> least;
    QVariant most, leastColumns;
    const int entries = int(entriesOf(legend).size());
    const bool byRows = legend->fillOrder() == QCPLayoutGrid::foColumnsFirst;
    const auto fits = [&](QSize size) { return size.width() <= rect->width() - 8 && size.height() <= 0.4 * rect->height(); };
    for (int columns = entries; byRows && columns >= 1 && !place; --columns) {
        if (const QSize size = stackedSize(legend, columns); fits(size) && (place = freeAt(size)))
            most = columns;
    }
    // What each size hides is weighed only where none leaves a free place: a key that fits in fewer
    // columns had its wider sizes weighed for nothing, nine places over every point of the plot.
    for (int columns = entries; byRows && columns >= 1 && !place; --columns) {
        const QSize size = stackedSize(legend, columns);
        if (!fits(size))
            continue;
        if (const auto covered = leastAt(size); covered && (!least || covered->badness < least->badness - 1e-9)) {
            least = covered;
            leastColumns = columns;
        }
    }
    // A key filled column by column: where its size is now.
    if (!place && !least)
        place = freeAt(legend->minimumOuterSizeHint());
    const bool free = place.has_value();
    if (!place && least) {
        place = least->place;
        most = leastColumns;
    }
    // Else the place that hides the least at its size now (no columns taken: its size stays).
    if (const auto covered = place ? std::nullopt : leastAt(legend->minimumOuterSizeHint()))
        place = covered->place;
    return {most, free, place};
}

} // namespace

bool placeBest(QCPLegend *legend, QCPAxisRect *rect)
{
    QCPLayoutInset *insets = rect->insetLayout();
    if (!legend->property("posencBest").toBool() || legend->layout() != insets || placedAsIs(legend, rect))
        return false;
    const auto [most, free, place] = decided(legend, rect, [&] { return decide(legend, rect); });
    legend->setProperty(kMostColumns, most);
    bool changed = false;
    if (most.isValid() && legend->wrap() > most.toInt()) {
        legend->setWrap(most.toInt());
        legend->setFillOrder(legend->fillOrder(), true);
        changed = true;
    }
    // Over the data, it has no ground of its own: a white ground notches a band and pales its dots.
    if (!legend->property("posencGround").isValid())
        legend->setProperty("posencGround", legend->brush());
    const QBrush ground = free ? legend->property("posencGround").value<QBrush>() : QBrush();
    changed |= legend->brush() != ground;
    legend->setBrush(ground);
    for (int i = 0; place && i < insets->elementCount(); ++i) {
        if (insets->elementAt(i) != legend || insets->insetPlacement(i) != QCPLayoutInset::ipBorderAligned
            || insets->insetAlignment(i) == *place)
            continue;
        insets->setInsetAlignment(i, *place);
        changed = true;
    }
    rememberPlaced(legend, rect);
    return changed;
}

QList<QCPAbstractLegendItem *> entriesOf(const QCPLegend *legend)
{
    QList<QCPAbstractLegendItem *> entries;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem *item = legend->item(i))
            entries.append(item);
    return entries;
}

int columnsOf(const QCPLegend *legend)
{
    const int count = int(entriesOf(legend).size());
    const int wrap = std::max(legend->wrap(), 1);
    return legend->fillOrder() == QCPLayoutGrid::foColumnsFirst ? std::min(wrap, count) : (count + wrap - 1) / wrap;
}

int wrapFor(const QCPLegend *legend, int columns)
{
    const int count = int(entriesOf(legend).size());
    return legend->fillOrder() == QCPLayoutGrid::foColumnsFirst ? columns : (count + columns - 1) / columns;
}

QSize stackedSize(const QCPLegend *legend, int wrap)
{
    const bool byRows = legend->fillOrder() == QCPLayoutGrid::foColumnsFirst;
    const QList<QCPAbstractLegendItem *> entries = entriesOf(legend);
    const int count = int(entries.size());
    const int lines = (count + wrap - 1) / wrap;
    QList<int> widths(byRows ? wrap : lines, 0), heights(byRows ? lines : wrap, 0);
    for (int i = 0; i < count; ++i) {
        const int row = byRows ? i / wrap : i % wrap, column = byRows ? i % wrap : i / wrap;
        const QSize hint = entries[i]->minimumOuterSizeHint();
        widths[column] = std::max(widths[column], hint.width());
        heights[row] = std::max(heights[row], hint.height());
    }
    const QMargins m = legend->margins();
    int width = m.left() + m.right() + legend->columnSpacing() * int(widths.size() - 1);
    int height = m.top() + m.bottom() + legend->rowSpacing() * int(heights.size() - 1);
    for (const int w : widths)
        width += w;
    for (const int h : heights)
        height += h;
    return {width, height};
}

} // namespace posenc::LegendPlacement
