#include "DirectLabelScene.h"

#include "DirectLabelCurves.h"
#include "DirectLabelLeader.h"
#include "MeasuredText.h"

#include <QHashFunctions>
#include <QPointer>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <tuple>
#include <unordered_map>

namespace posenc::DirectLabels {

namespace {

// What maps a plottable's data to a fraction of one of its axes' length: its range and scale.
struct AxisScale
{
    double lower = 0.0, upper = 0.0;
    int scale = 0;
    bool reversed = false;
    int orientation = 0;

    static AxisScale of(const QCPAxis *axis)
    {
        return {axis->range().lower, axis->range().upper, int(axis->scaleType()), axis->rangeReversed(),
                int(axis->orientation())};
    }
    bool operator==(const AxisScale &) const = default;

    // The fraction of the axis's length at which QCPAxis::coordToPixel (QCustomPlot 2.1) puts `v`,
    // computed as it computes it before it scales by its rect's extent; for a value a log axis
    // cannot show, which it draws 200 units past an edge, +inf (at or over zero, the range under
    // it) or -inf (at or under zero, the range over it); NaN where the fraction is not finite (an
    // empty range: pointsOf maps such a curve).
    double fraction(double v) const
    {
        double at = 0.0;
        if (scale == QCPAxis::stLinear)
            at = (reversed ? upper - v : v - lower) / (upper - lower);
        else if (v >= 0.0 && upper < 0.0)
            return std::numeric_limits<double>::infinity();
        else if (v <= 0.0 && upper >= 0.0)
            return -std::numeric_limits<double>::infinity();
        else
            at = (reversed ? std::log(upper / v) : std::log(v / lower)) / std::log(upper / lower);
        return std::isfinite(at) ? at : std::numeric_limits<double>::quiet_NaN();
    }
};

// What maps a plottable's data to layout units along one of its axes.
struct AxisState
{
    QRect rect; // of the axis rect it spans
    AxisScale scale;

    static AxisState of(const QCPAxis *axis) { return {axis->axisRect()->rect(), AxisScale::of(axis)}; }
    bool operator==(const AxisState &) const = default;

    // In layout units, the point at `fraction` of the axis's length, as QCPAxis::coordToPixel
    // scales it by its rect's extent (QRect's right and bottom, a unit within its edges); a value
    // off a log axis's range (an infinite fraction) 200 units past the edge it puts it beyond.
    double pixel(double fraction) const
    {
        const bool across = scale.orientation == Qt::Horizontal;
        if (std::isinf(fraction)) {
            const bool far = (fraction > 0.0) != scale.reversed; // right, or top
            return across ? (far ? rect.right() + 200 : rect.left() - 200)
                          : (far ? rect.top() - 200 : rect.bottom() + 200);
        }
        return across ? fraction * rect.width() + rect.left() : rect.bottom() - fraction * rect.height();
    }
};

// Within a fitting (Fitting), in which the figure's data stays as it is, the hash of each data
// container asked for, by its address, its size and nine of its points, evenly spaced (as
// LegendPlacementDrawn tells its plots' states apart): a curve's points are asked for at every
// place tried and every two curves measured, and hashing a long curve's bytes at each was most of
// a span of 145 ms of the window's GUI thread.
struct DataHash
{
    qsizetype size = 0;
    QList<double> samples;
    size_t hash = 0;
};

struct DataHashes
{
    bool within = false;
    std::unordered_map<const void *, DataHash> kept;
};

DataHashes &dataHashes()
{
    thread_local DataHashes hashes;
    return hashes;
}

// The data of a graph or curve as its bytes: its size and their hash.
std::pair<qsizetype, size_t> dataOf(const QCPAbstractPlottable *plottable)
{
    const auto hashed = [](const auto &data) {
        const qsizetype size = data->size();
        DataHash known;
        DataHashes &hashes = dataHashes();
        if (hashes.within) {
            known.size = size;
            for (qsizetype i = 0; size > 0 && i <= 8; ++i) {
                const auto point = data->constBegin() + i * (size - 1) / 8;
                known.samples += {point->mainKey(), point->mainValue()};
            }
            const auto found = hashes.kept.find(data.data());
            if (found != hashes.kept.end() && found->second.size == size && found->second.samples == known.samples)
                return std::pair {size, found->second.hash};
        }
        known.hash
            = size == 0 ? size_t(0) : qHashBits(&*data->constBegin(), sizeof(*data->constBegin()) * size_t(size));
        if (hashes.within)
            hashes.kept.insert_or_assign(data.data(), known);
        return std::pair {size, known.hash};
    };
    if (const auto *graph = qobject_cast<const QCPGraph *>(plottable))
        return hashed(graph->data());
    if (const auto *curve = qobject_cast<const QCPCurve *>(plottable))
        return hashed(curve->data());
    return {0, 0};
}

// All that a plottable's points and cells are made of: the same geometry draws the same cells.
struct Geometry
{
    AxisState key, value;
    std::pair<qsizetype, size_t> data;
    bool line = false;
    double marker = 0.0;
    bool band = false;
    AxisState fillKey, fillValue; // a band's other edge's
    std::pair<qsizetype, size_t> fill;

    static Geometry of(const QCPAbstractPlottable *plottable)
    {
        Geometry geometry {AxisState::of(plottable->keyAxis()), AxisState::of(plottable->valueAxis()), dataOf(plottable),
                           joined(plottable), markerOf(plottable), isBand(plottable), {}, {}, {}};
        if (geometry.band) {
            const QCPGraph *other = static_cast<const QCPGraph *>(plottable)->channelFillGraph();
            geometry.fillKey = AxisState::of(other->keyAxis());
            geometry.fillValue = AxisState::of(other->valueAxis());
            geometry.fill = dataOf(other);
        }
        return geometry;
    }
    bool operator==(const Geometry &) const = default;
};

// Each finite point of a plottable (pointsOf's) as the fractions of its axes' lengths it stands at,
// for their ranges and scales: a layout that moves or resizes its plot alone maps them to layout
// units by a product and a sum each, as coordToPixel does last. A fitting tries its plots at dozens
// of heights, and mapping each point of a log-log plot anew at each (four logarithms a point) was
// the direct labels' most in a span of 100 ms of the window's GUI thread (ALiBi's attention span
// under its lesson's text). Null where a fraction is not finite (an empty range): pointsOf maps those.
struct Fractions
{
    QPointer<QCPAbstractPlottable> alive;
    AxisScale key, value;
    std::pair<qsizetype, size_t> data;
    std::shared_ptr<const std::vector<std::pair<double, double>>> at;
};

struct Kept
{
    QPointer<QCPAbstractPlottable> alive;
    Geometry geometry;
    std::shared_ptr<const QList<QPointF>> points;
    std::shared_ptr<const Cells> cells; // made when first asked for
};

std::atomic<quint64> g_pointsDrawn {0};
std::atomic<quint64> g_pointsMapped {0};

// Of each plottable, the geometries last drawn, for the thread that lays its plot out: within a
// fitting (DirectLabels::Fitting) its last kKeptWithin, else its last. A fitting lays its plots out
// hundreds of times, and the trial layouts of makeSome and the settled ones between them come back
// to the geometries before: with the last alone kept, each curve was drawn anew at each (a
// DeepSeek-V3 view's long curves, 439 ms of the window's GUI thread). A plottable deleted leaves
// its entries until the next that the kept ones outnumber.
constexpr std::size_t kKeptWithin = 8;

struct Keeping
{
    int fittings = 0; // nested: a fitting's figure may lay out another's
    quint64 serial = 0; // of the outermost fittings begun on the thread
    std::unordered_map<const QCPAbstractPlottable *, std::vector<std::shared_ptr<Kept>>> all;
    // Each plottable's points as fractions of its axes (Fractions), for its last few ranges.
    std::unordered_map<const QCPAbstractPlottable *, std::vector<Fractions>> fractions;
    // How far apart two curves are drawn (apart), for the cells of each as drawn, within a fitting:
    // their addresses its key, while they last.
    struct Apart
    {
        double far = 0.0;
        std::weak_ptr<const Cells> a, b;
    };
    std::map<std::tuple<const Cells *, const Cells *, double>, Apart> apart;
};

Keeping &keeping()
{
    thread_local Keeping kept;
    return kept;
}

// The fractions of `plottable`'s axes its points stand at (Fractions), for `geometry`, its own.
std::shared_ptr<const std::vector<std::pair<double, double>>> fractionsFor(const QCPAbstractPlottable *plottable,
                                                                           const Geometry &geometry)
{
    Keeping &keep = keeping();
    std::vector<Fractions> &kept = keep.fractions[plottable];
    for (const Fractions &one : kept)
        if (one.alive == plottable && one.key == geometry.key.scale && one.value == geometry.value.scale
            && one.data == geometry.data)
            return one.at;
    std::erase_if(kept, [](const Fractions &one) { return one.alive.isNull(); });
    if (kept.size() >= (keep.fittings > 0 ? kKeptWithin : 1))
        kept.erase(kept.begin());
    auto at = std::make_shared<std::vector<std::pair<double, double>>>();
    bool mapped = true;
    const auto add = [&](double k, double v) {
        if (!mapped || !std::isfinite(k) || !std::isfinite(v))
            return;
        const double a = geometry.key.scale.fraction(k), b = geometry.value.scale.fraction(v);
        mapped = !std::isnan(a) && !std::isnan(b);
        at->emplace_back(a, b);
    };
    if (const auto *graph = qobject_cast<const QCPGraph *>(plottable)) {
        at->reserve(size_t(graph->data()->size()));
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            add(it->key, it->value);
    } else if (const auto *curve = qobject_cast<const QCPCurve *>(plottable)) {
        at->reserve(size_t(curve->data()->size()));
        for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it)
            add(it->key, it->value);
    }
    g_pointsMapped.fetch_add(quint64(at->size()), std::memory_order_relaxed);
    kept.push_back({const_cast<QCPAbstractPlottable *>(plottable), geometry.key.scale, geometry.value.scale,
                    geometry.data, mapped ? std::move(at) : nullptr});
    return kept.back().at;
}

// The points of `plottable` in layout units for `geometry`, its own: pointsOf's, from the
// fractions of its axes they stand at.
QList<QPointF> pointsFor(const QCPAbstractPlottable *plottable, const Geometry &geometry)
{
    const auto fractions = fractionsFor(plottable, geometry);
    if (!fractions) {
        QList<QPointF> points = pointsOf(plottable);
        g_pointsMapped.fetch_add(quint64(points.size()), std::memory_order_relaxed);
        return points;
    }
    QList<QPointF> points(qsizetype(fractions->size()));
    QPointF *out = points.data();
    const bool across = geometry.key.scale.orientation == Qt::Horizontal;
    for (const auto &[k, v] : *fractions) {
        const double x = geometry.key.pixel(k), y = geometry.value.pixel(v);
        *out++ = across ? QPointF(x, y) : QPointF(y, x);
    }
    return points;
}

std::shared_ptr<Kept> keptFor(const QCPAbstractPlottable *plottable)
{
    Keeping &keep = keeping();
    Geometry geometry = Geometry::of(plottable);
    auto found = keep.all.find(plottable);
    if (found != keep.all.end())
        for (const std::shared_ptr<Kept> &one : found->second)
            if (one->alive == plottable && one->geometry == geometry)
                return one;
    if (found == keep.all.end() && keep.all.size() >= 64) {
        std::erase_if(keep.all, [](const auto &entry) {
            return std::all_of(entry.second.begin(), entry.second.end(),
                               [](const std::shared_ptr<Kept> &one) { return one->alive.isNull(); });
        });
        std::erase_if(keep.fractions, [](const auto &entry) {
            return std::all_of(entry.second.begin(), entry.second.end(),
                               [](const Fractions &one) { return one.alive.isNull(); });
        });
    }
    std::vector<std::shared_ptr<Kept>> &kept = keep.all[plottable];
    std::erase_if(kept, [](const std::shared_ptr<Kept> &one) { return one->alive.isNull(); });
    if (kept.size() >= (keep.fittings > 0 ? kKeptWithin : 1))
        kept.erase(kept.begin());
    auto points = std::make_shared<const QList<QPointF>>(pointsFor(plottable, geometry));
    kept.push_back(std::make_shared<Kept>(
        Kept {const_cast<QCPAbstractPlottable *>(plottable), std::move(geometry), std::move(points), nullptr}));
    return kept.back();
}

// The cells of a curve's line or marks, or of a band's fill, within `rect`.
Cells drawn(const QCPAbstractPlottable *plottable, const QRect &rect)
{
    const QList<QPointF> &points = *pointsAt(plottable);
    g_pointsDrawn.fetch_add(quint64(points.size()), std::memory_order_relaxed);
    Cells cells(rect);
    if (isBand(plottable)) {
        // Its fill, column by column: its own room, which its label stands beside.
        const QList<QPointF> &other = *pointsAt(static_cast<const QCPGraph *>(plottable)->channelFillGraph());
        for (qsizetype k = 0; k < std::min(points.size(), other.size()); ++k) {
            cells.segment(points[k], other[k]);
            if (k > 0)
                for (double t = 0.25; t < 1.0; t += 0.25)
                    cells.segment(points[k - 1] + (points[k] - points[k - 1]) * t,
                                  other[k - 1] + (other[k] - other[k - 1]) * t);
        }
        cells.finish();
        return cells;
    }
    const bool line = joined(plottable);
    const double marker = markerOf(plottable);
    for (qsizetype k = 0; k < points.size(); ++k) {
        if (marker > 0.0)
            cells.mark(points[k], marker / 2.0);
        if (line && k > 0)
            cells.segment(points[k - 1], points[k]);
    }
    if (line && points.size() == 1)
        cells.mark(points[0], 0.0);
    cells.finish();
    return cells;
}

std::shared_ptr<const Cells> cellsAt(const QCPAbstractPlottable *plottable, const QRect &rect)
{
    const std::shared_ptr<Kept> entry = keptFor(plottable);
    if (!entry->cells)
        entry->cells = std::make_shared<const Cells>(drawn(plottable, rect));
    return entry->cells;
}

} // namespace

std::shared_ptr<const QList<QPointF>> pointsAt(const QCPAbstractPlottable *plottable)
{
    return keptFor(plottable)->points;
}

bool hasPoint(const QCPAbstractPlottable *plottable)
{
    const auto any = [](const auto &data) {
        return std::any_of(data->constBegin(), data->constEnd(),
                           [](const auto &point) { return std::isfinite(point.key) && std::isfinite(point.value); });
    };
    if (const auto *graph = qobject_cast<const QCPGraph *>(plottable))
        return any(graph->data());
    const auto *curve = qobject_cast<const QCPCurve *>(plottable);
    return curve && any(curve->data());
}

QRectF boxOf(const QCPItemText *text)
{
    // A label's text centred on its place, unturned: its corners as QCPItemText::anchorPixelPosition
    // (QCustomPlot 2.1) puts them, the text's size measured once a font and text (MeasuredText)
    // instead of shaped again for each corner asked. Whether every label stands clear is asked at
    // every layout of a fitting (FigureRoom::within), each label's box again for every other.
    if (text->textAlignment() == Qt::AlignCenter && qFuzzyIsNull(text->rotation())) {
        const QSize size
            = MeasuredText::centredSize(text->selected() ? text->selectedFont() : text->font(), text->text());
        const QMargins pad = text->padding();
        // QRect's adjusted() by the padding, as a QRectF (anchorPixelPosition's textBoxRect).
        const double w = double(size.width() + pad.left() + pad.right());
        const double h = double(size.height() + pad.top() + pad.bottom());
        // getTextDrawPoint's place of the box's top left for the position's alignment, rounded
        // (QPointF::toPoint), then moved by the position (the transform's translation).
        const Qt::Alignment align = text->positionAlignment();
        double x = 0.0, y = 0.0;
        if (align != Qt::Alignment() && align != (Qt::AlignLeft | Qt::AlignTop)) {
            if (align.testFlag(Qt::AlignHCenter))
                x -= w / 2.0;
            else if (align.testFlag(Qt::AlignRight))
                x -= w;
            if (align.testFlag(Qt::AlignVCenter))
                y -= h / 2.0;
            else if (align.testFlag(Qt::AlignBottom))
                y -= h;
        }
        const QPointF corner = QPointF(QPointF(x, y).toPoint());
        const QPointF at = text->position->pixelPosition();
        return QRectF(corner + at, QPointF(corner.x() + w, corner.y() + h) + at).normalized();
    }
    return QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
}

Scene sceneOf(QCPAxisRect *rect, const QList<const QCPItemText *> &placing)
{
    QCustomPlot *plot = rect->parentPlot();
    Scene scene {rect->rect(), {}, {}, {}, {}, {}, {}, {}, false, {}, {}};
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *plottable = plot->plottable(i);
        if (!shown(plottable) || plottable->keyAxis()->axisRect() != rect)
            continue;
        if (qobject_cast<QCPColorMap *>(plottable) || qobject_cast<QCPBars *>(plottable)) {
            scene.covered = true;
            continue;
        }
        if (isBand(plottable))
            scene.bands.emplace(plottable, cellsAt(plottable, scene.rect));
        else if (joined(plottable) || markerOf(plottable) > 0.0) { // else the edge of a band it fills: no line drawn
            scene.curves.emplace(plottable, cellsAt(plottable, scene.rect));
            scene.inks.emplace(plottable, inkOf(plottable));
            const QCPLayer *layer = plottable->layer();
            const std::pair order(layer ? layer->index() : 0, layer ? layer->children().indexOf(plottable) : 0);
            scene.drawOrder.emplace(plottable, order);
            if (joined(plottable) && plottable->pen().style() == Qt::SolidLine)
                scene.solid.emplace(plottable, order);
        }
    }
    Cells lines(scene.rect);
    bool anyLine = false;
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem *item = plot->item(i);
        if (!shown(item) || !item->clipToAxisRect() || item->clipAxisRect() != rect)
            continue;
        if (auto *text = qobject_cast<QCPItemText *>(item)) {
            if (!placing.contains(text) && !text->text().isEmpty())
                scene.texts.append(boxOf(text));
            // A label's leader, drawn with it, is a line the others keep off.
            const auto *leader = dynamic_cast<const LeaderText *>(text);
            if (const QLineF line = leader && !placing.contains(text) ? leader->leader() : QLineF(); !line.isNull()) {
                lines.segment(line.p1(), line.p2());
                anyLine = true;
            }
        } else if (auto *segment = qobject_cast<QCPItemLine *>(item)) {
            lines.segment(segment->start->pixelPosition(), segment->end->pixelPosition());
            anyLine = true;
        } else if (auto *straight = qobject_cast<QCPItemStraightLine *>(item)) {
            const QPointF a = straight->point1->pixelPosition(), b = straight->point2->pixelPosition();
            lines.segment(a - (b - a) * 1e4, b + (b - a) * 1e4);
            anyLine = true;
        }
    }
    if (anyLine) {
        lines.finish();
        scene.lines = std::move(lines);
    }
    for (QCPLayoutElement *element : rect->insetLayout()->elements(false))
        if (shown(element))
            scene.texts.append(element->outerRect());
    return scene;
}

bool sameScene(const Scene &a, const Scene &b)
{
    const auto sameCells = [](const auto &x, const auto &y) {
        return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const auto &one, const auto &other) {
            return one.first == other.first && one.second.get() == other.second.get();
        });
    };
    return a.rect == b.rect && a.covered == b.covered && a.texts == b.texts && a.inks == b.inks
        && a.drawOrder == b.drawOrder && a.solid == b.solid && sameCells(a.curves, b.curves)
        && sameCells(a.bands, b.bands) && a.lines.has_value() == b.lines.has_value()
        && (!a.lines || a.lines->sameCells(*b.lines));
}

} // namespace posenc::DirectLabels

namespace posenc::DirectLabels {

namespace {

// Points every `step` units along `plottable`'s line (its points where it draws marks alone),
// those within `rect`, at most `most` of them.
QList<QPointF> alongOf(const QCPAbstractPlottable *plottable, const QRect &rect, double step, qsizetype most)
{
    const QList<QPointF> &points = *pointsAt(plottable);
    QList<QPointF> along;
    const auto add = [&](const QPointF &p) {
        if (rect.contains(p.toPoint()) && along.size() < most)
            along.append(p);
    };
    for (qsizetype k = 0; k < points.size() && along.size() < most; ++k) {
        add(points[k]);
        if (k == 0 || !joined(plottable))
            continue;
        const QPointF a = points[k - 1], b = points[k];
        const double length = std::hypot(b.x() - a.x(), b.y() - a.y());
        for (double at = step; at < length && along.size() < most; at += step)
            add(a + (b - a) * (at / length));
    }
    return along;
}

double farthest(const Scene &scene, const QCPAbstractPlottable *from, const QCPAbstractPlottable *to, double most)
{
    const auto cells = scene.curves.find(to);
    if (cells == scene.curves.end())
        return most;
    const QList<QPointF> along = alongOf(from, scene.rect, 2.0, 600);
    if (along.isEmpty())
        return most;
    double far = 0.0;
    for (const QPointF &p : along) {
        double r = far; // a point nearer than the farthest so far changes nothing
        if (cells->second->meets(QRectF(p.x() - r, p.y() - r, 2.0 * r, 2.0 * r)))
            continue;
        while (r < most && !cells->second->meets(QRectF(p.x() - r, p.y() - r, 2.0 * r, 2.0 * r)))
            r += 1.0;
        if (r >= most)
            return most;
        far = r;
    }
    return far;
}

} // namespace

double apart(const Scene &scene, const QCPAbstractPlottable *a, const QCPAbstractPlottable *b, double most)
{
    const bool ordered = std::less<const void *>()(a, b);
    const auto key = std::tuple<const void *, const void *, double>(ordered ? a : b, ordered ? b : a, most);
    if (const auto kept = scene.apartKept.find(key); kept != scene.apartKept.end())
        return kept->second;
    // Within a fitting, for the two curves as drawn (their cells, and so their points and plot), in
    // any scene: a trial layout of makeSome that comes back to a plot as it was measures no two again.
    Keeping &keep = keeping();
    const auto cellsA = scene.curves.find(a), cellsB = scene.curves.find(b);
    const bool both = keep.fittings > 0 && cellsA != scene.curves.end() && cellsB != scene.curves.end();
    std::tuple<const Cells *, const Cells *, double> drawnKey;
    if (both) {
        const bool less = std::less<const Cells *>()(cellsA->second.get(), cellsB->second.get());
        drawnKey = {(less ? cellsA : cellsB)->second.get(), (less ? cellsB : cellsA)->second.get(), most};
        if (const auto kept = keep.apart.find(drawnKey);
            kept != keep.apart.end() && !kept->second.a.expired() && !kept->second.b.expired()) {
            scene.apartKept.emplace(key, kept->second.far);
            return kept->second.far;
        }
    }
    const double far = std::max(farthest(scene, a, b, most), farthest(scene, b, a, most));
    scene.apartKept.emplace(key, far);
    if (both)
        keep.apart.insert_or_assign(drawnKey, Keeping::Apart {far, cellsA->second, cellsB->second});
    return far;
}

Fitting::Fitting()
{
    if (keeping().fittings++ == 0)
        ++keeping().serial;
    dataHashes().within = true;
}

Fitting::~Fitting()
{
    Keeping &keep = keeping();
    if (--keep.fittings > 0)
        return;
    // Each plottable's last geometry kept, as outside a fitting, its data hashed afresh.
    dataHashes() = DataHashes();
    keep.apart.clear();
    for (auto &[plottable, kept] : keep.all)
        if (kept.size() > 1)
            kept.erase(kept.begin(), kept.end() - 1);
    for (auto &[plottable, kept] : keep.fractions)
        if (kept.size() > 1)
            kept.erase(kept.begin(), kept.end() - 1);
}

quint64 fittingNow()
{
    const Keeping &keep = keeping();
    return keep.fittings > 0 ? keep.serial : 0;
}

quint64 pointsDrawn()
{
    return g_pointsDrawn.load(std::memory_order_relaxed);
}

quint64 pointsMapped()
{
    return g_pointsMapped.load(std::memory_order_relaxed);
}

} // namespace posenc::DirectLabels
