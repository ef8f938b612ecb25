#include "LegendPlacementInputs.h"
#include "LegendPlacement.h"
#include "LegendPlacementDrawn.h"

#include <QHash>

#include <atomic>

namespace posenc::LegendPlacement {

namespace {

// What placeBest reads (the rect's pixels, its plottables' axes' ranges and whether they are drawn,
// the items' places, the key's entries' sizes) and what it sets (the key's wrap, ground and corner):
// of its plot and of the key.
struct PlotInputs
{
    QRect rect;
    bool visible = false;
    QList<const void *> objects;
    QList<double> numbers;

    bool operator==(const PlotInputs &) const = default;
};

struct KeyInputs
{
    const void *layout = nullptr;
    QList<double> numbers;
    QList<QSize> sizes;
    QBrush brush;

    bool operator==(const KeyInputs &) const = default;
};

struct Inputs
{
    PlotInputs plot;
    KeyInputs key;

    bool operator==(const Inputs &) const = default;
};

// Hands what placeBest reads of the plot of `rect` (its plottables and items), in order, to `sink`'s
// object() and number(), until one returns false: false then.
template<typename Sink> bool walkPlot(QCPAxisRect *rect, Sink &sink)
{
    QCustomPlot *plot = rect->parentPlot();
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *plottable = plot->plottable(i);
        const QCPPlottableInterface1D *data = plottable->interface1D();
        if (!sink.object(plottable) || !sink.number(plottable->realVisibility() ? 1.0 : 0.0)
            || !sink.number(data ? double(data->dataCount()) : -1.0))
            return false;
        for (const QCPAxis *axis : {plottable->keyAxis(), plottable->valueAxis()}) {
            if (!sink.object(axis))
                return false;
            if (axis
                && !(sink.number(axis->range().lower) && sink.number(axis->range().upper)
                     && sink.number(double(axis->rangeReversed())) && sink.number(double(axis->scaleType()))))
                return false;
        }
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem *item = plot->item(i);
        if (!sink.object(item) || !sink.object(item->clipAxisRect()) || !sink.number(item->realVisibility() ? 1.0 : 0.0)
            || !sink.number(item->clipToAxisRect() ? 1.0 : 0.0))
            return false;
        for (const QCPItemPosition *position : item->positions()) {
            const QPointF at = position->pixelPosition();
            if (!sink.number(at.x()) || !sink.number(at.y()))
                return false;
        }
    }
    return true;
}

PlotInputs plotInputsOf(QCPAxisRect *rect)
{
    struct Reading
    {
        PlotInputs &in;
        bool object(const void *o)
        {
            in.objects.append(o);
            return true;
        }
        bool number(double v)
        {
            in.numbers.append(v);
            return true;
        }
    };
    PlotInputs in;
    in.rect = rect->rect();
    in.visible = rect->realVisibility();
    const QCustomPlot *plot = rect->parentPlot();
    in.objects.reserve(3 * plot->plottableCount() + 2 * plot->itemCount());
    in.numbers.reserve(10 * plot->plottableCount() + 6 * plot->itemCount());
    Reading reading {in};
    walkPlot(rect, reading);
    return in;
}

// Whether the plot of `rect` reads as `kept` read it (its rect and visibility aside), compared as
// it is walked: nothing is built, and the first difference ends it.
bool plotReadsAs(QCPAxisRect *rect, const PlotInputs &kept)
{
    struct Comparing
    {
        const PlotInputs &kept;
        qsizetype objects = 0, numbers = 0;
        bool object(const void *o) { return objects < kept.objects.size() && kept.objects.at(objects++) == o; }
        bool number(double v) { return numbers < kept.numbers.size() && kept.numbers.at(numbers++) == v; }
    };
    Comparing comparing {kept};
    return walkPlot(rect, comparing) && comparing.objects == kept.objects.size()
        && comparing.numbers == kept.numbers.size();
}

KeyInputs keyInputsOf(const QCPLegend *legend, QCPAxisRect *rect)
{
    KeyInputs in;
    in.layout = legend->layout();
    in.numbers += {double(legend->wrap()), double(legend->fillOrder()),
                   legend->property("posencBest").toBool() ? 1.0 : 0.0};
    in.sizes.append(legend->minimumOuterSizeHint());
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem *item = legend->item(i))
            in.sizes.append(item->minimumOuterSizeHint());
    const QCPLayoutInset *insets = rect->insetLayout();
    for (int i = 0; i < insets->elementCount(); ++i)
        if (insets->elementAt(i) == legend)
            in.numbers += {double(insets->insetPlacement(i)), double(insets->insetAlignment(i))};
    in.brush = legend->brush();
    return in;
}

// Each key placed in this thread's fitting, with what it was placed by and as it was left.
QHash<const QCPLegend *, Inputs> &remembered()
{
    thread_local QHash<const QCPLegend *, Inputs> placed;
    return placed;
}

// All placeBest's decision reads (Decision): the pointers of the key, its plot and what it reads
// of them, and the numbers read.
struct DecisionKey
{
    QList<const void *> objects;
    QList<double> numbers;

    bool operator==(const DecisionKey &) const = default;
};

size_t qHash(const DecisionKey &key, size_t seed = 0)
{
    return qHashMulti(seed, qHashRange(key.objects.begin(), key.objects.end()),
                      qHashRange(key.numbers.begin(), key.numbers.end()));
}

// What each kind of item clipped to a plot is read for (LegendPlacement.cpp's itemCovers, and the
// shades of drawnIn, `filledOf`): its kind and the points read of it, a shade's fill too.
void addItem(QCPAbstractItem *item, DecisionKey &key)
{
    key.objects.append(item);
    const auto at = [&key](const QCPItemAnchor *anchor) {
        const QPointF p = anchor->pixelPosition();
        key.numbers += {p.x(), p.y()};
    };
    const auto fill = [&key](const QBrush &brush) {
        key.numbers += {double(brush.style()), double(brush.color().alpha())};
    };
    if (auto *line = qobject_cast<QCPItemLine *>(item)) {
        key.numbers.append(1.0);
        at(line->start);
        at(line->end);
    } else if (auto *straight = qobject_cast<QCPItemStraightLine *>(item)) {
        key.numbers.append(2.0);
        at(straight->point1);
        at(straight->point2);
    } else if (auto *text = qobject_cast<QCPItemText *>(item)) {
        key.numbers.append(3.0);
        at(text->topLeft);
        at(text->bottomRight);
    } else if (auto *tracer = qobject_cast<QCPItemTracer *>(item)) {
        key.numbers.append(4.0);
        at(tracer->position);
    } else if (auto *box = qobject_cast<QCPItemRect *>(item)) {
        key.numbers.append(5.0);
        at(box->topLeft);
        at(box->bottomRight);
        fill(box->brush());
    } else if (auto *ring = qobject_cast<QCPItemEllipse *>(item)) {
        key.numbers.append(6.0);
        at(ring->topLeft);
        at(ring->bottomRight);
        fill(ring->brush());
    } else {
        key.numbers.append(0.0); // read for nothing
    }
}

DecisionKey decisionKey(const QCPLegend *legend, QCPAxisRect *rect)
{
    DecisionKey key;
    key.objects += {legend, rect};
    addDrawnState(rect, key.objects, key.numbers);
    QCustomPlot *plot = rect->parentPlot();
    for (int i = 0; i < plot->itemCount(); ++i)
        if (QCPAbstractItem *item = plot->item(i);
            item->realVisibility() && item->clipToAxisRect() && item->clipAxisRect() == rect)
            addItem(item, key);
    // The key's sizes as stackedSize adds them up, and its own as laid out now.
    const QList<QCPAbstractLegendItem *> entries = entriesOf(legend);
    key.numbers += {double(entries.size()), double(legend->fillOrder())};
    for (const QCPAbstractLegendItem *entry : entries) {
        const QSize size = entry->minimumOuterSizeHint();
        key.numbers += {double(size.width()), double(size.height())};
    }
    const QMargins m = legend->margins();
    const QSize own = legend->minimumOuterSizeHint();
    key.numbers += {double(m.left()),
                    double(m.top()),
                    double(m.right()),
                    double(m.bottom()),
                    double(legend->columnSpacing()),
                    double(legend->rowSpacing()),
                    double(own.width()),
                    double(own.height())};
    return key;
}

// A fitting's keys and plots number a few, their states on the ladder a few hundred.
constexpr qsizetype kMostDecisions = 4096;

struct Decisions
{
    bool within = false;
    QHash<DecisionKey, Decision> made;
};

Decisions &decisions()
{
    thread_local Decisions kept;
    return kept;
}

std::atomic<quint64> g_made {0};
std::atomic<quint64> g_remembered {0};

} // namespace

void beginFitting()
{
    remembered().clear();
}

Fitting::Fitting()
{
    beginFitting();
    readOnce(true);
    decisions().made.clear();
    decisions().within = true;
}

Fitting::~Fitting()
{
    readOnce(false);
    decisions().made.clear();
    decisions().within = false;
}

Decision decided(const QCPLegend *legend, QCPAxisRect *rect, const std::function<Decision()> &decide)
{
    Decisions &memo = decisions();
    if (!memo.within) {
        g_made.fetch_add(1, std::memory_order_relaxed);
        return decide();
    }
    const DrawnStateHeld held;
    DecisionKey key = decisionKey(legend, rect);
    if (const auto found = memo.made.constFind(key); found != memo.made.cend()) {
        g_remembered.fetch_add(1, std::memory_order_relaxed);
        return *found;
    }
    if (memo.made.size() >= kMostDecisions)
        memo.made.clear();
    g_made.fetch_add(1, std::memory_order_relaxed);
    const Decision decision = decide();
    memo.made.insert(std::move(key), decision);
    return decision;
}

quint64 decisionsMade()
{
    return g_made.load(std::memory_order_relaxed);
}

quint64 decisionsRemembered()
{
    return g_remembered.load(std::memory_order_relaxed);
}

bool placedAsIs(const QCPLegend *legend, QCPAxisRect *rect)
{
    const auto it = remembered().constFind(legend);
    // The rect first: a layout that moved it is told apart without reading the rest.
    return it != remembered().constEnd() && it->plot.rect == rect->rect() && it->plot.visible == rect->realVisibility()
        && plotReadsAs(rect, it->plot) && it->key == keyInputsOf(legend, rect);
}

void rememberPlaced(const QCPLegend *legend, QCPAxisRect *rect)
{
    remembered().insert(legend, {plotInputsOf(rect), keyInputsOf(legend, rect)});
}

} // namespace posenc::LegendPlacement
