#include "LegendPlacementDrawn.h"
#include "LegendPlacement.h"

#include <QHash>

#include <atomic>
#include <cmath>

namespace posenc::LegendPlacement {

namespace Reading {

std::atomic<quint64> g_weighed {0};

// The length of `trace`'s line, summed once for every place a key is tried at, and the bounds
// of its runs.
void measure(Trace &trace)
{
    trace.length = 0.0;
    trace.runs.clear();
    const qsizetype n = trace.points.size();
    for (qsizetype run = 0; n > 0 && (run == 0 || trace.runStart(run) < n - 1); ++run) {
        const QPointF &first = trace.points[trace.runStart(run)];
        Bounds bounds {first.x(), first.y(), first.x(), first.y()};
        for (qsizetype i = trace.runStart(run) + 1; i <= trace.runEnd(run); ++i) {
            const QPointF &p = trace.points[i];
            bounds = {std::min(bounds.left, p.x()), std::min(bounds.top, p.y()), std::max(bounds.right, p.x()),
                      std::max(bounds.bottom, p.y())};
        }
        trace.runs.append(bounds);
    }
    if (!trace.joined)
        return;
    for (qsizetype i = 1; i < n; ++i)
        trace.length
            += std::hypot(trace.points[i].x() - trace.points[i - 1].x(), trace.points[i].y() - trace.points[i - 1].y());
}

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
        trace.points.reserve(graph->data()->size());
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            if (std::isfinite(it->key) && std::isfinite(it->value))
                trace.points.append(pixel(it->key, it->value));
        // A line drawn without a pen (the edge of a band it fills) is no line.
        trace.joined = graph->lineStyle() != QCPGraph::lsNone && graph->pen().style() != Qt::NoPen;
        trace.marker = graph->scatterStyle().isNone() ? 0.0 : graph->scatterStyle().size();
        trace.shown = trace.joined || trace.marker > 0.0;
        measure(trace);
        weigh(trace.points.size());
        return trace;
    }
    if (auto *curve = qobject_cast<QCPCurve *>(plottable)) {
        trace.points.reserve(curve->data()->size());
        for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it)
            if (std::isfinite(it->key) && std::isfinite(it->value))
                trace.points.append(pixel(it->key, it->value));
        trace.joined = curve->lineStyle() != QCPCurve::lsNone;
        trace.marker = curve->scatterStyle().isNone() ? 0.0 : curve->scatterStyle().size();
        measure(trace);
        weigh(trace.points.size());
        return trace;
    }
    return std::nullopt; // a colour map, bars: drawn over areas, not lines
}

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

// The area a filled item clipped to `rect` covers (a shade over a run of columns, PlotItems::shade;
// a ring's disc), as the rect shows it: a shade is data as much as a band a graph fills (the
// padding and decode steps of left-padding's rows hid under a key that counted only graphs).
std::optional<QPolygonF> filledOf(QCPAbstractItem *item, QCPAxisRect *rect)
{
    QCPItemPosition *from = nullptr, *to = nullptr;
    if (auto *box = qobject_cast<QCPItemRect *>(item)) {
        from = box->topLeft;
        to = box->bottomRight;
        if (box->brush().style() == Qt::NoBrush || box->brush().color().alpha() == 0)
            return std::nullopt;
    } else if (auto *ring = qobject_cast<QCPItemEllipse *>(item)) {
        from = ring->topLeft;
        to = ring->bottomRight;
        if (ring->brush().style() == Qt::NoBrush || ring->brush().color().alpha() == 0)
            return std::nullopt;
    } else {
        return std::nullopt;
    }
    const QRectF shown
        = QRectF(from->pixelPosition(), to->pixelPosition()).normalized().intersected(QRectF(rect->rect()));
    if (shown.width() <= 0.0 || shown.height() <= 0.0)
        return std::nullopt;
    return QPolygonF(shown);
}

void addFilledItems(QCPAxisRect *rect, Drawn &drawn)
{
    QCustomPlot *plot = rect->parentPlot();
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem *item = plot->item(i);
        if (!item->realVisibility() || !item->clipToAxisRect() || item->clipAxisRect() != rect)
            continue;
        if (auto area = filledOf(item, rect)) {
            const QRectF bounds = area->boundingRect();
            const double whole = enclosedArea(*area);
            drawn.areas.append({std::move(*area), bounds, whole});
        }
    }
}

std::optional<Drawn> read(QCPAxisRect *rect)
{
    QCustomPlot *plot = rect->parentPlot();
    Drawn drawn;
    addFilledItems(rect, drawn);
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
            if (auto area = areaOf(graph, *trace)) {
                const QRectF bounds = area->boundingRect();
                const double whole = enclosedArea(*area);
                drawn.areas.append({std::move(*area), bounds, whole});
            }
    }
    return drawn;
}

// All read() reads of a rect: its pixels, and of each plottable whether it is drawn there, its
// axes' ranges, scales and pixels, its data (the container, its size and ends) and its styles.
struct State
{
    QList<const void *> objects;
    QList<double> numbers;

    bool operator==(const State &) const = default;

    void addAxis(const QCPAxis *axis)
    {
        objects.append(axis);
        const QRect at = axis->axisRect()->rect();
        numbers += {axis->range().lower,
                    axis->range().upper,
                    double(axis->rangeReversed()),
                    double(axis->scaleType()),
                    double(axis->orientation()),
                    double(at.x()),
                    double(at.y()),
                    double(at.width()),
                    double(at.height())};
    }
    // A container's size and nine of its points, evenly spaced from its first to its last: a step
    // that set new data in it (QCPGraph::setData keeps its container) changes some of them.
    template<typename Data> void addData(const Data &data)
    {
        objects.append(data.data());
        const int size = data->size();
        numbers.append(double(size));
        for (int i = 0; size > 0 && i <= 8; ++i) {
            const auto point = data->constBegin() + qsizetype(i) * (size - 1) / 8;
            numbers += {point->mainKey(), point->mainValue()};
        }
    }
    void addGraph(const QCPGraph *graph)
    {
        addData(graph->data());
        numbers += {double(graph->lineStyle()), double(graph->pen().style()), double(graph->brush().style()),
                    graph->scatterStyle().isNone() ? 0.0 : graph->scatterStyle().size()};
    }
};

State stateOf(QCPAxisRect *rect)
{
    State state;
    const QRect at = rect->rect();
    state.numbers += {double(at.x()), double(at.y()), double(at.width()), double(at.height())};
    QCustomPlot *plot = rect->parentPlot();
    // The items it shades, where they stand and whether they are shown (a shade is placed anew
    // with the data it marks).
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem *item = plot->item(i);
        if (!qobject_cast<QCPItemRect *>(item) && !qobject_cast<QCPItemEllipse *>(item))
            continue;
        state.objects += {item, item->clipAxisRect()};
        state.numbers += {item->realVisibility() ? 1.0 : 0.0, item->clipToAxisRect() ? 1.0 : 0.0};
        for (const QCPItemPosition *position : item->positions()) {
            const QPointF p = position->pixelPosition();
            state.numbers += {p.x(), p.y()};
        }
    }
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *plottable = plot->plottable(i);
        const bool here = plottable->realVisibility() && plottable->keyAxis()->axisRect() == rect;
        state.objects.append(plottable);
        state.numbers.append(here ? 1.0 : 0.0);
        if (!here)
            continue;
        state.addAxis(plottable->keyAxis());
        state.addAxis(plottable->valueAxis());
        if (auto *graph = qobject_cast<QCPGraph *>(plottable)) {
            state.addGraph(graph);
            if (QCPGraph *channel = graph->channelFillGraph()) {
                state.objects.append(channel);
                state.addGraph(channel);
                state.addAxis(channel->keyAxis());
                state.addAxis(channel->valueAxis());
            }
        } else if (auto *curve = qobject_cast<QCPCurve *>(plottable)) {
            state.addData(curve->data());
            state.numbers
                += {double(curve->lineStyle()), curve->scatterStyle().isNone() ? 0.0 : curve->scatterStyle().size()};
        } else if (auto *map = qobject_cast<QCPColorMap *>(plottable)) {
            QCPColorMapData *data = map->data();
            state.objects.append(data);
            state.numbers += {double(map->gradient().nanHandling()),
                              double(data->keySize()),
                              double(data->valueSize()),
                              data->keyRange().lower,
                              data->keyRange().upper,
                              data->valueRange().lower,
                              data->valueRange().upper};
        }
    }
    return state;
}

// What was read of each rect in this thread's fitting, the last few states of it (legendsOverHeadroom
// reads a rect with its value axis grown between two reads of it as it is).
struct Kept
{
    State state;
    std::optional<Drawn> drawn;
};
constexpr qsizetype kStatesKept = 4;

struct Cache
{
    bool within = false;
    QHash<const QCPAxisRect *, QList<Kept>> kept;
};

Cache &cache()
{
    thread_local Cache kept;
    return kept;
}

// The state addDrawnState read last while a DrawnStateHeld lives.
struct Held
{
    bool within = false;
    const QCPAxisRect *rect = nullptr;
    State state;
};

Held &held()
{
    thread_local Held last;
    return last;
}

} // namespace Reading

std::optional<Drawn> drawnIn(QCPAxisRect *rect)
{
    Reading::Cache &cache = Reading::cache();
    if (!cache.within)
        return Reading::read(rect);
    Reading::Held &held = Reading::held();
    Reading::State state = held.within && held.rect == rect ? held.state : Reading::stateOf(rect);
    QList<Reading::Kept> &kept = cache.kept[rect];
    for (const Reading::Kept &one : kept)
        if (one.state == state)
            return one.drawn;
    if (kept.size() >= Reading::kStatesKept)
        kept.removeFirst();
    kept.append({std::move(state), Reading::read(rect)});
    return kept.constLast().drawn;
}

void addDrawnState(QCPAxisRect *rect, QList<const void *> &objects, QList<double> &numbers)
{
    Reading::State state = Reading::stateOf(rect);
    objects += state.objects;
    numbers += state.numbers;
    if (Reading::Held &held = Reading::held(); held.within) {
        held.rect = rect;
        held.state = std::move(state);
    }
}

DrawnStateHeld::DrawnStateHeld()
{
    Reading::held() = {true, nullptr, {}};
}

DrawnStateHeld::~DrawnStateHeld()
{
    Reading::held() = {};
}

void readOnce(bool within)
{
    Reading::cache().within = within;
    Reading::cache().kept.clear();
}

double enclosedArea(const QList<QPointF> &polygon)
{
    double twice = 0.0;
    for (qsizetype i = 0; i < polygon.size(); ++i) {
        const QPointF &a = polygon[i], &b = polygon[(i + 1) % polygon.size()];
        twice += a.x() * b.y() - b.x() * a.y();
    }
    return std::abs(twice) / 2.0;
}

void weigh(qsizetype points)
{
    Reading::g_weighed.fetch_add(quint64(points), std::memory_order_relaxed);
}

quint64 pointsWeighed()
{
    return Reading::g_weighed.load(std::memory_order_relaxed);
}

} // namespace posenc::LegendPlacement
