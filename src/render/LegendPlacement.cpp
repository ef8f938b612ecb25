#include "LegendPlacement.h"
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

// The points of a line plottable in pixels, whether its points are joined, and its marker's size.
struct Trace
{
    QList<QPointF> points;
    bool joined = true;
    double marker = 0.0;
    bool shown = true; // a line or marks drawn, not only the edge of an area it fills
};

std::optional<Trace> traceOf(QCPAbstractPlottable *plottable)
{
    Trace trace;
    QCPAxis *key = plottable->keyAxis();
    QCPAxis *value = plottable->valueAxis();
    const auto pixel = [&](double k, double v) {
        return key->orientation() == Qt::Horizontal ? QPointF(key->coordToPixel(k), value->coordToPixel(v))
                                                    : QPointF(value->coordToPixel(v), key->coordToPixel(k));
    };
    if (auto *graph = qobject_cast<QCPGraph *>(plottable)) {
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            if (std::isfinite(it->key) && std::isfinite(it->value))
                trace.points.append(pixel(it->key, it->value));
        // A line drawn without a pen (the edge of a band it fills) is no line.
        trace.joined = graph->lineStyle() != QCPGraph::lsNone && graph->pen().style() != Qt::NoPen;
        trace.marker = graph->scatterStyle().isNone() ? 0.0 : graph->scatterStyle().size();
        trace.shown = trace.joined || trace.marker > 0.0;
        return trace;
    }
    if (auto *curve = qobject_cast<QCPCurve *>(plottable)) {
        for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it)
            if (std::isfinite(it->key) && std::isfinite(it->value))
                trace.points.append(pixel(it->key, it->value));
        trace.joined = curve->lineStyle() != QCPCurve::lsNone;
        trace.marker = curve->scatterStyle().isNone() ? 0.0 : curve->scatterStyle().size();
        return trace;
    }
    return std::nullopt; // a colour map, bars: drawn over areas, not lines
}

bool covers(const Trace &trace, const QRectF &box)
{
    if (!trace.shown)
        return false;
    const QRectF grown = box.adjusted(-trace.marker, -trace.marker, trace.marker, trace.marker);
    for (qsizetype i = 0; i < trace.points.size(); ++i) {
        if (grown.contains(trace.points[i]))
            return true;
        if (trace.joined && i > 0 && meets(trace.points[i - 1], trace.points[i], box))
            return true;
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
    if (auto *text = qobject_cast<QCPItemText *>(item))
        return box.contains(text->position->pixelPosition());
    if (auto *tracer = qobject_cast<QCPItemTracer *>(item))
        return box.contains(tracer->position->pixelPosition());
    return false; // a shade behind the data
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

// The lines and points drawn in `rect`, and the areas its graphs fill (a band between two graphs,
// or down to zero), in pixels.
struct Drawn
{
    QList<Trace> traces;
    QList<QPolygonF> areas;
    // The cells a colour map draws, in runs along its rows: none of them may be hidden.
    QList<QRectF> cells;
};

// The runs of cells `map` draws, in pixels; none where it draws over all of its rect (its NaN
// cells drawn in a colour, not left clear). A map's NaN cells left clear (QCPColorGradient's
// nhTransparent) are empty room: head-map's rows of narrower heads end well before its widest's.
std::optional<QList<QRectF>> cellsOf(QCPColorMap *map)
{
    if (map->gradient().nanHandling() != QCPColorGradient::nhTransparent)
        return std::nullopt;
    QCPColorMapData *data = map->data(); // its cell() is not const
    const int keys = data->keySize(), values = data->valueSize();
    if (keys < 2 || values < 2)
        return std::nullopt;
    const double keyStep = data->keyRange().size() / (keys - 1), valueStep = data->valueRange().size() / (values - 1);
    QCPAxis *key = map->keyAxis();
    QCPAxis *value = map->valueAxis();
    const auto box = [&](double k0, double k1, double v0, double v1) {
        const double a = key->coordToPixel(k0), b = key->coordToPixel(k1);
        const double c = value->coordToPixel(v0), d = value->coordToPixel(v1);
        return key->orientation() == Qt::Horizontal ? QRectF(QPointF(a, c), QPointF(b, d)).normalized()
                                                    : QRectF(QPointF(c, a), QPointF(d, b)).normalized();
    };
    QList<QRectF> runs;
    for (int j = 0; j < values; ++j) {
        for (int i = 0; i < keys;) {
            if (std::isnan(data->cell(i, j))) {
                ++i;
                continue;
            }
            const int first = i;
            while (i < keys && !std::isnan(data->cell(i, j)))
                ++i;
            double k0 = 0.0, k1 = 0.0, v = 0.0;
            data->cellToCoord(first, j, &k0, &v);
            data->cellToCoord(i - 1, j, &k1, &v);
            runs.append(box(k0 - keyStep / 2.0, k1 + keyStep / 2.0, v - valueStep / 2.0, v + valueStep / 2.0));
        }
    }
    return runs;
}

// Whether `box` hides part of a cell drawn.
bool hidesCells(const QList<QRectF> &cells, const QRectF &box)
{
    return std::any_of(cells.begin(), cells.end(), [&box](const QRectF &cell) {
        const QRectF both = cell.intersected(box);
        return both.width() > 0.5 && both.height() > 0.5;
    });
}

// The area `graph` fills, as QCPGraph draws it: to its channel graph, or to its value axis's zero.
std::optional<QPolygonF> areaOf(QCPGraph *graph, const Trace &trace)
{
    if (graph->brush().style() == Qt::NoBrush || trace.points.size() < 2)
        return std::nullopt;
    QPolygonF area(trace.points);
    if (QCPGraph *channel = graph->channelFillGraph()) {
        const auto other = traceOf(channel);
        if (!other)
            return std::nullopt;
        for (auto it = other->points.crbegin(); it != other->points.crend(); ++it)
            area.append(*it);
        return area;
    }
    const double zero = graph->valueAxis()->coordToPixel(0.0);
    const bool across = graph->keyAxis()->orientation() == Qt::Horizontal;
    const QPointF first = trace.points.constFirst(), last = trace.points.constLast();
    area.append(across ? QPointF(last.x(), zero) : QPointF(zero, last.y()));
    area.append(across ? QPointF(first.x(), zero) : QPointF(zero, first.y()));
    return area;
}

// What is drawn in `rect`, or nothing where something is drawn over all of it (bars, a colour map
// that colours its NaN cells too).
std::optional<Drawn> drawnIn(QCPAxisRect *rect)
{
    QCustomPlot *plot = rect->parentPlot();
    Drawn drawn;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *plottable = plot->plottable(i);
        if (!plottable->realVisibility() || plottable->keyAxis()->axisRect() != rect)
            continue;
        if (auto *map = qobject_cast<QCPColorMap *>(plottable)) {
            const auto cells = cellsOf(map);
            if (!cells)
                return std::nullopt;
            drawn.cells += *cells;
            continue;
        }
        const auto trace = traceOf(plottable);
        if (!trace)
            return std::nullopt;
        drawn.traces.append(*trace);
        if (auto *graph = qobject_cast<QCPGraph *>(plottable))
            if (const auto area = areaOf(graph, *trace))
                drawn.areas.append(*area);
    }
    return drawn;
}

// The area within `polygon` (the shoelace formula; a polygon Qt's intersection returns is closed).
double areaWithin(const QPolygonF &polygon)
{
    double twice = 0.0;
    for (qsizetype i = 0; i < polygon.size(); ++i) {
        const QPointF &a = polygon[i], &b = polygon[(i + 1) % polygon.size()];
        twice += a.x() * b.y() - b.x() * a.y();
    }
    return std::abs(twice) / 2.0;
}

// The fraction of a filled area that `box` hides: a legend's ground over a band notches it.
double hiddenOf(const QPolygonF &area, const QRectF &box)
{
    const double whole = areaWithin(area);
    return whole > 0.0 ? areaWithin(area.intersected(QPolygonF(box))) / whole : 0.0;
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
    if (!trace.joined || trace.points.size() == 1) {
        const auto inside = std::count_if(trace.points.begin(), trace.points.end(),
                                          [&](const QPointF &p) { return grown.contains(p); });
        return double(inside) / double(trace.points.size());
    }
    double total = 0.0, hidden = 0.0;
    for (qsizetype i = 1; i < trace.points.size(); ++i) {
        total
            += std::hypot(trace.points[i].x() - trace.points[i - 1].x(), trace.points[i].y() - trace.points[i - 1].y());
        hidden += lengthWithin(trace.points[i - 1], trace.points[i], grown);
    }
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

std::optional<Covered> leastBadness(QCPAxisRect *rect, QSize size, int grownBy, double most);

} // namespace

std::optional<Qt::Alignment> leastCovered(QCPAxisRect *rect, QSize size, int grownBy, double most)
{
    const auto covered = leastBadness(rect, size, grownBy, most);
    return covered ? std::optional<Qt::Alignment>(covered->place) : std::nullopt;
}

namespace {

std::optional<Covered> leastBadness(QCPAxisRect *rect, QSize size, int grownBy, double most)
{
    const auto drawn = drawnIn(rect);
    if (!drawn)
        return std::nullopt;
    QCustomPlot *plot = rect->parentPlot();
    std::optional<Qt::Alignment> best;
    double least = 0.0;
    for (const Qt::Alignment place : kPlaces) {
        const QRectF box = boxAt(rect->rect(), size, grownBy, place);
        double badness = 0.0;
        bool bearable = !hidesCells(drawn->cells, box);
        for (const Trace &trace : drawn->traces) {
            const double hidden = hiddenOf(trace, box);
            bearable = bearable && hidden <= most;
            badness += hidden;
        }
        for (const QPolygonF &area : drawn->areas) {
            const double hidden = hiddenOf(area, box);
            bearable = bearable && hidden <= most;
            badness += hidden;
        }
        for (int i = 0; bearable && i < plot->itemCount(); ++i) {
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

} // namespace

std::optional<Qt::Alignment> freeCorner(QCPAxisRect *rect, QSize size, int grownBy)
{
    QCustomPlot *plot = rect->parentPlot();
    const auto drawn = drawnIn(rect);
    if (!drawn)
        return std::nullopt;
    for (const Qt::Alignment place : kPlaces) {
        const QRectF box = boxAt(rect->rect(), size, grownBy, place);
        bool free = !hidesCells(drawn->cells, box);
        for (const Trace &trace : drawn->traces)
            free = free && !covers(trace, box);
        for (const QPolygonF &area : drawn->areas)
            free = free && !area.intersects(QPolygonF(box));
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

void setBest(QCPLegend *legend, bool best)
{
    legend->setProperty("posencBest", best ? QVariant(true) : QVariant());
}

bool placeBest(QCPLegend *legend, QCPAxisRect *rect)
{
    QCPLayoutInset *insets = rect->insetLayout();
    if (!legend->property("posencBest").toBool() || legend->layout() != insets)
        return false;
    // The most columns, filled row by row, that leave it a free place within 40 % of the plot's
    // height (FigureFit moves a larger one below); where none does, those that hide the least of
    // the data there.
    std::optional<Qt::Alignment> place;
    std::optional<Covered> least;
    QVariant most, leastColumns;
    const int entries = int(entriesOf(legend).size());
    for (int columns = entries; legend->fillOrder() == QCPLayoutGrid::foColumnsFirst && columns >= 1 && !place;
         --columns) {
        const QSize size = stackedSize(legend, columns);
        if (size.width() > rect->width() - 8 || size.height() > 0.4 * rect->height())
            continue;
        if ((place = freeCorner(rect, size, 0)))
            most = columns;
        else if (const auto covered = leastBadness(rect, size, 0, 1.0);
                 covered && (!least || covered->badness < least->badness - 1e-9)) {
            least = covered;
            leastColumns = columns;
        }
    }
    // A key filled column by column: where its size is now.
    if (!place && !least)
        place = freeCorner(rect, legend->minimumOuterSizeHint(), 0);
    const bool free = place.has_value();
    if (!place && least) {
        place = least->place;
        most = leastColumns;
    }
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
    if (!place)
        place = leastCovered(rect, legend->minimumOuterSizeHint(), 0, 1.0);
    for (int i = 0; place && i < insets->elementCount(); ++i) {
        if (insets->elementAt(i) != legend || insets->insetPlacement(i) != QCPLayoutInset::ipBorderAligned
            || insets->insetAlignment(i) == *place)
            continue;
        insets->setInsetAlignment(i, *place);
        changed = true;
    }
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
