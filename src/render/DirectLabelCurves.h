#pragma once

#include "FigureRoomChanges.h"
#include "QCustomPlot.h"

#include <QColor>
#include <QList>
#include <QPointF>

#include <algorithm>
#include <cmath>

// What DirectLabels reads of a curve: whether it is drawn, its colour, its points in layout units,
// and how it is drawn (a line, marks, a band's fill).
namespace posenc::DirectLabels {

inline bool shown(const QCPLayerable *layerable)
{
    return layerable && layerable->realVisibility() && !FigureRoom::Changes::isHidden(layerable);
}

// A graph drawn without a pen that fills to another graph: a band, labelled on its middle.
inline bool isBand(const QCPAbstractPlottable *plottable)
{
    const auto *graph = qobject_cast<const QCPGraph *>(plottable);
    return graph && graph->pen().style() == Qt::NoPen && graph->brush().style() != Qt::NoBrush
        && graph->channelFillGraph();
}

inline QList<QPointF> pointsOf(const QCPAbstractPlottable *plottable)
{
    QList<QPointF> points;
    QCPAxis *key = plottable->keyAxis();
    QCPAxis *value = plottable->valueAxis();
    const auto add = [&](double k, double v) {
        if (std::isfinite(k) && std::isfinite(v))
            points.append(key->orientation() == Qt::Horizontal ? QPointF(key->coordToPixel(k), value->coordToPixel(v))
                                                               : QPointF(value->coordToPixel(v), key->coordToPixel(k)));
    };
    if (const auto *graph = qobject_cast<const QCPGraph *>(plottable))
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            add(it->key, it->value);
    else if (const auto *curve = qobject_cast<const QCPCurve *>(plottable))
        for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it)
            add(it->key, it->value);
    return points;
}

inline bool joined(const QCPAbstractPlottable *plottable)
{
    if (const auto *graph = qobject_cast<const QCPGraph *>(plottable))
        return graph->lineStyle() != QCPGraph::lsNone && graph->pen().style() != Qt::NoPen;
    const auto *curve = qobject_cast<const QCPCurve *>(plottable);
    return curve && curve->lineStyle() != QCPCurve::lsNone && curve->pen().style() != Qt::NoPen;
}

inline double markerOf(const QCPAbstractPlottable *plottable)
{
    if (const auto *graph = qobject_cast<const QCPGraph *>(plottable))
        return graph->scatterStyle().isNone() ? 0.0 : graph->scatterStyle().size();
    const auto *curve = qobject_cast<const QCPCurve *>(plottable);
    return curve && !curve->scatterStyle().isNone() ? curve->scatterStyle().size() : 0.0;
}

// How far a curve's line inks past the cell its centre passes through (DirectLabelCells marks a
// line's centre cells only): half its pen, a cosmetic pen's unit counted, less the half unit a cell
// holds. why-sqrt-d's "σ 1, s 1" and "yours" stood on the ink of its 4-unit line, weighed by its centre.
inline double inkOf(const QCPAbstractPlottable *plottable)
{
    if (!joined(plottable))
        return 0.0;
    return std::max(std::max(plottable->pen().widthF(), 1.0) / 2.0 - 0.5, 0.0);
}

// The colour a reader sees `plottable` in: its marks' where it draws marks alone (mrope-positions'
// black rings of a graph whose unused pen was blue), else its pen's, else a band's fill's.
inline QColor colourOf(const QCPAbstractPlottable *plottable)
{
    QColor colour = plottable->pen().style() != Qt::NoPen ? plottable->pen().color() : plottable->brush().color();
    const auto *graph = qobject_cast<const QCPGraph *>(plottable);
    const auto *curve = qobject_cast<const QCPCurve *>(plottable);
    const QCPScatterStyle marks = graph ? graph->scatterStyle() : curve ? curve->scatterStyle() : QCPScatterStyle();
    if (!joined(plottable) && !marks.isNone() && marks.isPenDefined())
        colour = marks.pen().color();
    colour.setAlpha(255);
    return colour;
}

} // namespace posenc::DirectLabels
