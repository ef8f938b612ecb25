#pragma once

#include "QCustomPlot.h"

#include <QFont>
#include <QRect>
#include <QRectF>
#include <QString>

namespace posenc {

// Laying a figure out asks every title and legend entry for its size several times: each of
// QCustomPlot's layout passes does, and a view lays out when it requests data, when the data
// arrives, on every round of fitting and again when it replots. Each ask shapes the text anew
// (a fifth of the window's processor time while parameters change). The sizes below are
// measured once per text and font, and are what QFontMetrics would say.
namespace MeasuredText {

// QFontMetrics(font).boundingRect(0, 0, 0, height, Qt::TextDontClip, text), remembered for
// the calling thread.
QRect boundingRect(const QFont &font, int height, const QString &text);
// QFontMetricsF(font).horizontalAdvance(text), remembered for the calling thread: fitting a figure
// to its room measures its titles, labels and tick labels in every round of every layout.
double advance(const QFont &font, const QString &text);
// QFontMetricsF(font).tightBoundingRect(text), remembered for the calling thread: whether a
// figure's texts keep clear of each other is asked of their ink at every layout of its fitting.
QRectF tightBoundingRect(const QFont &font, const QString &text);
// QFontMetrics(font).boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignCenter, text).size(),
// remembered for the calling thread: a label on a curve (DirectLabels) is measured centred, as
// QCPItemText lays it out, for each of its forms at every layout of a fitting.
QSize centredSize(const QFont &font, const QString &text);

// Gives every axis of `plot` (its axis rects' and colour scales') a painter that remembers its tick labels' measures
// (QCPAxisPainterPrivate's TickLabelData) for the calling thread: QCustomPlot shapes each label at every layout of the
// axis (its margin) and again to place it when it draws, the text laid out anew each time. The measures and so every
// pixel are those QCustomPlot's own painter gives; its pixmap cache of labels (QCP::phCacheLabels) would place them at
// whole pixels (PlotStyle::preparePlot).
void measureTickLabels(QCustomPlot *plot);

// Adds `plottable` to `legend` (if it is not there yet) as a MeasuredLegendItem: what
// QCPAbstractPlottable::addToLegend does with a QCPPlottableLegendItem.
void addToLegend(QCPAbstractPlottable *plottable, QCPLegend *legend);

} // namespace MeasuredText

// A QCPTextElement whose size hints measure its text once, and that draws it without shaping it
// again (DrawnText).
class MeasuredTextElement : public QCPTextElement
{
public:
    MeasuredTextElement(QCustomPlot *plot, const QString &text, const QFont &font);

protected:
    void draw(QCPPainter *painter) override;
    QSize minimumOuterSizeHint() const override;
    QSize maximumOuterSizeHint() const override;
};

// A QCPPlottableLegendItem whose size hint measures its text once, and whose icon sits in the
// middle of its text's line: QCustomPlot's sits at the top, so beside text taller than the icon
// (any legend at 14 pt: 19 units of text, 8 of icon) it read like a superscript.
class MeasuredLegendItem : public QCPPlottableLegendItem
{
public:
    MeasuredLegendItem(QCPLegend *legend, QCPAbstractPlottable *plottable);

    // The room of its icon: the legend's icon size, grown to hold its plottable's scatter marker
    // whole (its size and its pen's width), which the icon's clip would otherwise cut (an open
    // circle 14 units across in an icon 8 or 14 high), up to the height of its line of text; a
    // marker larger than that is drawn smaller to fit, whole.
    QSize iconSize() const;
    // The units the marker takes across, its pen and antialiased edge counted; 0 without one.
    double markerExtent() const;

protected:
    QSize minimumOuterSizeHint() const override;
    void draw(QCPPainter *painter) override;
};

} // namespace posenc
