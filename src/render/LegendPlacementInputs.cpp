#include "LegendPlacementInputs.h"
#include "LegendPlacementDrawn.h"

#include <QHash>

namespace posenc::LegendPlacement {

namespace {

// What placeBest reads (the rect's pixels, its plottables' axes' ranges and whether they are drawn,
// the items' places, the key's entries' sizes) and what it sets (the key's wrap, ground and corner).
struct Inputs
{
    QRect rect;
    bool visible = false;
    QList<const void *> objects;
    QList<double> numbers;
    QList<QSize> sizes;
    QBrush brush;

    bool operator==(const Inputs &) const = default;
};

Inputs inputsOf(const QCPLegend *legend, QCPAxisRect *rect)
{
    Inputs in;
    in.rect = rect->rect();
    in.visible = rect->realVisibility();
    QCustomPlot *plot = rect->parentPlot();
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *plottable = plot->plottable(i);
        in.objects.append(plottable);
        const QCPPlottableInterface1D *data = plottable->interface1D();
        in.numbers += {plottable->realVisibility() ? 1.0 : 0.0, data ? double(data->dataCount()) : -1.0};
        for (const QCPAxis *axis : {plottable->keyAxis(), plottable->valueAxis()}) {
            in.objects.append(axis);
            if (axis)
                in.numbers += {axis->range().lower, axis->range().upper, double(axis->rangeReversed()),
                               double(axis->scaleType())};
        }
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem *item = plot->item(i);
        in.objects += {item, item->clipAxisRect()};
        in.numbers += {item->realVisibility() ? 1.0 : 0.0, item->clipToAxisRect() ? 1.0 : 0.0};
        for (const QCPItemPosition *position : item->positions()) {
            const QPointF at = position->pixelPosition();
            in.numbers += {at.x(), at.y()};
        }
    }
    in.objects.append(legend->layout());
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

} // namespace

void beginFitting()
{
    remembered().clear();
}

Fitting::Fitting()
{
    beginFitting();
    readOnce(true);
}

Fitting::~Fitting()
{
    readOnce(false);
}

bool placedAsIs(const QCPLegend *legend, QCPAxisRect *rect)
{
    const auto it = remembered().constFind(legend);
    return it != remembered().constEnd() && *it == inputsOf(legend, rect);
}

void rememberPlaced(const QCPLegend *legend, QCPAxisRect *rect)
{
    remembered().insert(legend, inputsOf(legend, rect));
}

} // namespace posenc::LegendPlacement
