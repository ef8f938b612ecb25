#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include "AxesInOrder.h"
#include "FigureFit.h"
#include "MeasuredText.h"

#include <algorithm>
#include <cmath>

// A y axis's or a colour bar's label set across above its axis's top end, in the row of the panel's
// name (docs/ARCHITECTURE.md, "Figures at any size"): matplotlib's cbar.ax.set_title, and a y label
// written at the top of its axis, which compact figures use to give the plot the label's column.
namespace posenc::FigureRoom {

namespace {

// The property of a label a step set above its axis.
constexpr char kAboveProperty[] = "posencLabelAbove";
// Layout units between a label above and the end tick label under it.
constexpr double kGap = 1.0;

bool shown(const QCPLayerable *layerable)
{
    return layerable && layerable->realVisibility() && !Changes::isHidden(layerable);
}

// Where `text` (a label above, aligned at its position's left and bottom) is drawn.
QRectF boxOf(const QCPItemText *text)
{
    const QPointF at = text->position->pixelPosition();
    const QFontMetricsF metrics(text->font());
    const double width = MeasuredText::advance(text->font(), text->text());
    return {at.x(), at.y() - text->padding().bottom() - metrics.height(), width, metrics.height()};
}

// The boxes of `axis`'s tick labels, and of its label across under it for a bottom axis.
void addTickLabels(const QCPAxis *axis, QList<QRectF> &boxes)
{
    if (!axis || !axis->visible() || !axis->tickLabels())
        return;
    const QRect inner = axis->axisRect()->rect(), outer = axis->axisRect()->outerRect();
    const double height = QFontMetricsF(axis->tickLabelFont()).height();
    const double distance
        = axis->offset() + std::max(axis->tickLengthOut(), axis->subTickLengthOut()) + axis->tickLabelPadding();
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    for (qsizetype i = 0; i < std::min(ticks.size(), labels.size()); ++i) {
        if (labels[i].isEmpty() || !axis->range().contains(ticks[i]))
            continue;
        const double at = axis->coordToPixel(ticks[i]);
        const double width = MeasuredText::advance(axis->tickLabelFont(), labels[i]);
        switch (axis->axisType()) {
        case QCPAxis::atLeft:
            boxes.append(QRectF(inner.left() - distance - width, at - height / 2.0, width, height));
            break;
        case QCPAxis::atRight:
            boxes.append(QRectF(inner.right() + 1 + distance, at - height / 2.0, width, height));
            break;
        case QCPAxis::atTop:
            boxes.append(QRectF(at - width / 2.0, inner.top() - distance - height, width, height));
            break;
        case QCPAxis::atBottom:
            // Its tick labels and its label, down to its panel's end.
            boxes.append(QRectF(at - width / 2.0, inner.bottom(), width, outer.bottom() - inner.bottom()));
            break;
        }
    }
    if (axis->axisType() == QCPAxis::atBottom && !axis->label().isEmpty())
        boxes.append(QRectF(inner.left(), inner.bottom(), inner.width(), outer.bottom() - inner.bottom()));
}

// What a label above must keep clear of, but for `except`: the texts of the layout (their lines,
// centred in their rects), the other labels on or beside the plots, the legends, the plots and
// colour bars, and the tick labels.
QList<QRectF> obstacles(const QCustomPlot &plot, const QCPItemText *except)
{
    QList<QRectF> boxes;
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true)) {
        if (!element || !shown(element))
            continue;
        if (auto *text = qobject_cast<QCPTextElement *>(element); text && !text->text().isEmpty()) {
            const QStringList lines = text->text().split(u'\n');
            double width = 0.0;
            for (const QString &line : lines)
                width = std::max(width, MeasuredText::advance(text->font(), line));
            const double height = QFontMetricsF(text->font()).height() * double(lines.size());
            const QPointF centre = QRectF(text->rect()).center();
            boxes.append(QRectF(centre.x() - width / 2.0, centre.y() - height / 2.0, width, height));
        } else if (auto *legend = qobject_cast<QCPLegend *>(element)) {
            boxes.append(legend->outerRect());
        }
    }
    for (int i = 0; i < plot.itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(plot.item(i));
        if (!text || text == except || !shown(text) || text->text().isEmpty())
            continue;
        boxes.append(text->property(kAboveProperty).toBool()
                         ? boxOf(text)
                         : QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized());
    }
    for (QCPAxisRect *rect : plot.axisRects()) {
        if (!shown(rect))
            continue;
        boxes.append(rect->rect());
        for (QCPAxis *axis : axesInOrder(*rect))
            addTickLabels(axis, boxes);
    }
    return boxes;
}

bool clear(const QCustomPlot &plot, const QCPItemText *text)
{
    // A unit clear of the page's sides, for the tenths of a unit a file's glyphs may run past the
    // widths they were laid out with (rope-input's "value" ran past a 6 x 4 cm page's edge).
    if (!QRectF(plot.viewport()).adjusted(1.0, 0.0, -1.0, 0.0).contains(boxOf(text)))
        return false;
    const QRectF box = boxOf(text).adjusted(0.5, 0.5, -0.5, -0.5);
    const QList<QRectF> others = obstacles(plot, text);
    return std::none_of(others.begin(), others.end(), [&](const QRectF &other) { return other.intersects(box); });
}

// `axis`'s label, of one line, as a text above the axis's top end, left-aligned at `x` (pixels, or
// a ratio of `rect`'s width): unplaced where it would meet another text, a plot or the page's edge.
QCPItemText *labelAbove(QCustomPlot *plot, QCPAxis *axis, QCPAxisRect *rect, double x, bool ratio)
{
    auto *text = new QCPItemText(plot);
    // Drawn while its panel is: an item stays the child of the axis rect it was last clipped to.
    text->setClipAxisRect(rect);
    text->setClipToAxisRect(false);
    text->position->setTypeX(ratio ? QCPItemPosition::ptAxisRectRatio : QCPItemPosition::ptAbsolute);
    text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    text->position->setAxisRect(rect);
    text->position->setCoords(x, 0.0);
    text->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    // Above the end tick label centred on the axis's top.
    const int half = static_cast<int>(std::ceil(QFontMetricsF(axis->tickLabelFont()).height() / 2.0 + kGap));
    text->setPadding(QMargins(0, 0, 0, half));
    text->setFont(axis->labelFont());
    text->setColor(axis->labelColor());
    text->setText(FigureFit::unwrappedLabel(axis));
    text->setProperty(kAboveProperty, true);
    if (!clear(*plot, text)) {
        plot->removeItem(text);
        return nullptr;
    }
    return text;
}

// Whether `axis`'s label may go above it: one line, along the axis, its tick labels drawn.
bool movable(const QCPAxis *axis)
{
    return axis && axis->visible() && axis->tickLabels() && !axis->property(kFoldedProperty).isValid()
        && !axis->label().isEmpty() && !FigureFit::unwrappedLabel(axis).contains(u'\n');
}

} // namespace

bool labelsAboveClear(const QCustomPlot &plot)
{
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot.item(i));
            text && text->property(kAboveProperty).toBool() && shown(text) && !clear(plot, text))
            return false;
    return true;
}

namespace Steps {

bool labelsAbove(QCustomPlot *plot)
{
    bool changed = false;
    for (QCPAxisRect *rect : plot->axisRects()) {
        if (!shown(rect) || dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            continue;
        QCPAxis *axis = rect->axis(QCPAxis::atLeft);
        if (!movable(axis))
            continue;
        // From the left of its panel's cell, over the column of tick labels and on past it.
        if (QCPItemText *text = labelAbove(plot, axis, rect, rect->outerRect().left() + 2.0, false))
            changed |= Changes::of(plot).foldAbove(axis, text);
    }
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        auto *scale = qobject_cast<QCPColorScale *>(element);
        if (!shown(scale) || scale->type() != QCPAxis::atRight || !movable(scale->axis()))
            continue;
        QCPAxis *axis = scale->axis();
        QCPAxisRect *bar = axis->axisRect();
        // From the bar's left where its bar and tick labels' column holds it, else ending a unit
        // short of its cell's right end (the page's, for a bar on the right).
        double widest = 0.0;
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        for (qsizetype i = 0; i < std::min(ticks.size(), labels.size()); ++i)
            if (axis->range().contains(ticks[i]))
                widest = std::max(widest, MeasuredText::advance(axis->tickLabelFont(), labels[i]));
        const double column = bar->rect().width() + axis->offset()
            + std::max(axis->tickLengthOut(), axis->subTickLengthOut()) + axis->tickLabelPadding() + widest;
        const double advance = MeasuredText::advance(axis->labelFont(), FigureFit::unwrappedLabel(axis));
        QCPItemText *text = advance <= column
            ? labelAbove(plot, axis, bar, 0.0, true)
            : labelAbove(plot, axis, bar, scale->outerRect().right() - advance, false);
        if (text)
            changed |= Changes::of(plot).foldAbove(axis, text);
    }
    return changed;
}

} // namespace Steps

} // namespace posenc::FigureRoom
