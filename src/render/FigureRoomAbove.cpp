#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include "AxesInOrder.h"
#include "FigureFit.h"
#include "MeasuredText.h"
#include "ShorterLabels.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

// The row of a panel's name given its room beside the name (docs/ARCHITECTURE.md, "Figures at any
// size"): a y axis's or a colour bar's label set across above its axis's top end (matplotlib's
// cbar.ax.set_title, and a y label written at the top of its axis, which compact figures use to
// give the plot the label's column), and the end tick labels over a panel standing half in it.
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

double spaceOf(const QFont &font)
{
    return MeasuredText::advance(font, u" "_s);
}

// Where `text` (a label above, aligned at its position's left and bottom) is drawn.
QRectF boxOf(const QCPItemText *text)
{
    const QPointF at = text->position->pixelPosition();
    const QFontMetricsF metrics(text->font());
    const double width = MeasuredText::advance(text->font(), text->text());
    return {at.x(), at.y() - text->padding().bottom() - metrics.height(), width, metrics.height()};
}

// The lines of a text of the layout, centred in its rect.
QRectF textBox(const QCPTextElement *text)
{
    const QStringList lines = text->text().split(u'\n');
    double width = 0.0;
    for (const QString &line : lines)
        width = std::max(width, MeasuredText::advance(text->font(), line));
    const double height = QFontMetricsF(text->font()).height() * double(lines.size());
    const QPointF centre = QRectF(text->rect()).center();
    return {centre.x() - width / 2.0, centre.y() - height / 2.0, width, height};
}

// The boxes of `axis`'s tick labels (tickLabelBoxes), and of its label across under it for a bottom
// axis: a bottom axis's down to its panel's end.
void addTickLabels(const QCPAxis *axis, QList<QRectF> &boxes)
{
    if (!axis || !axis->visible() || !axis->tickLabels())
        return;
    const QRect inner = axis->axisRect()->rect(), outer = axis->axisRect()->outerRect();
    const bool bottom = axis->axisType() == QCPAxis::atBottom;
    for (const QRectF &box : tickLabelBoxes(axis))
        boxes.append(bottom ? QRectF(box.left(), inner.bottom(), box.width(), outer.bottom() - inner.bottom()) : box);
    if (bottom && !axis->label().isEmpty())
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
            boxes.append(textBox(text));
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
    // A space clear of the page's sides and of the texts beside it: a file's glyphs may run tenths
    // of a unit past the widths they were laid out with (rope-input's "value" ran past a 6 x 4 cm
    // page's edge), and dropout-anatomy's "X and Y" read on from its neighbour's name "training: Y".
    const double space = spaceOf(text->font());
    if (!QRectF(plot.viewport()).adjusted(space, 0.0, -space, 0.0).contains(boxOf(text)))
        return false;
    const QRectF box = boxOf(text).adjusted(-space, 0.5, space, -0.5);
    const QList<QRectF> others = obstacles(plot, text);
    return std::none_of(others.begin(), others.end(), [&](const QRectF &other) { return other.intersects(box); });
}

// The figure laid out again for a trial, as FigureLayoutLoop lays it out: a colour bar's margins
// from none, as its group's neighbours now hold them.
void layOut(QCustomPlot *plot)
{
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(element))
            scale->setMargins(QMargins());
    for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        plot->plotLayout()->update(phase);
}

// `axis`'s label, of one line, as a text above the axis's top end, left-aligned at `x` (pixels, or
// a ratio of `rect`'s width): unplaced where it would meet another text, a plot or the page's edge.
QCPItemText *labelAbove(QCustomPlot *plot, QCPAxis *axis, QCPAxisRect *rect, double x, bool ratio, const QString &label)
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
    text->setText(label);
    text->setProperty(kAboveProperty, true);
    // Clear where it is set, and once its column has gone to the plots: the panels widened so move
    // the names beside it (dropout-anatomy's "training: Y" met "X and Y" over its colour bar).
    bool placed = clear(*plot, text);
    if (placed) {
        const QString given = axis->label();
        axis->setLabel(QString());
        layOut(plot);
        placed = clear(*plot, text);
        axis->setLabel(given);
        layOut(plot);
    }
    if (!placed) {
        plot->removeItem(text);
        return nullptr;
    }
    return text;
}

// `axis`'s label whole, then the shorter forms its figure gives, each as true (ShorterLabels): a
// label above stands in the first that is clear, as a label along its ticks does (dropout-anatomy's
// colour bar, "X and Y" beside its neighbour's name "training: Y", "X, Y" over the bar).
QStringList formsOf(const QCPAxis *axis)
{
    QStringList forms {FigureFit::unwrappedLabel(axis)};
    for (const QString &form : ShorterLabels::of(axis))
        if (!form.isEmpty() && !form.contains(u'\n') && !forms.contains(form))
            forms.append(form);
    return forms;
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

bool barTicksClearOfTexts(const QCustomPlot &plot)
{
    QList<QRectF> texts;
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(element); text && shown(text) && !text->text().isEmpty())
            texts.append(textBox(text));
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true)) {
        auto *scale = qobject_cast<QCPColorScale *>(element);
        if (!shown(scale))
            continue;
        QList<QRectF> ticks;
        addTickLabels(scale->axis(), ticks);
        for (const QRectF &tick : ticks)
            for (const QRectF &text : texts)
                if (tick.adjusted(0.5, 0.5, -0.5, -0.5).intersects(text))
                    return false;
    }
    return true;
}

namespace Steps {

bool endLabelsIntoNames(QCustomPlot *plot)
{
    constexpr int kTight = 2;
    Changes &changes = Changes::of(plot);
    bool changed = false;
    // A panel's or a bar's top margin, held for the half of its end tick label that stands above it,
    // down to kTight where that half then stands in the row above (a panel's name), not off the page.
    const auto lower = [&](QCPLayoutElement *element, const QFont &tickFont) {
        const double half = QFontMetricsF(tickFont).height() / 2.0;
        if (element->minimumMargins().top() <= kTight || element->outerRect().top() + kTight - half < 0.0)
            return;
        changes.keepMargins(element);
        QMargins least = element->minimumMargins();
        least.setTop(kTight);
        element->setMinimumMargins(least);
        changed = true;
    };
    for (QCPAxisRect *rect : plot->axisRects()) {
        if (!shown(rect) || dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            continue;
        const QCPAxis *top = rect->axis(QCPAxis::atTop);
        if (top && top->visible() && (top->tickLabels() || !top->label().isEmpty()))
            continue;
        lower(rect, rect->axis(QCPAxis::atLeft)->tickLabelFont());
    }
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(element); shown(scale) && scale->type() == QCPAxis::atRight)
            lower(scale, scale->axis()->tickLabelFont());
    return changed;
}

bool barsBelowTheirLabels(QCustomPlot *plot)
{
    Changes &changes = Changes::of(plot);
    bool changed = false;
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        auto *scale = qobject_cast<QCPColorScale *>(element);
        if (!shown(scale) || scale->type() != QCPAxis::atRight || !changes.foldedAbove(scale->axis()))
            continue;
        const int half = static_cast<int>(std::ceil(QFontMetricsF(scale->axis()->tickLabelFont()).height() / 2.0));
        if (scale->minimumMargins().top() >= half || !marginGroupOf(*scale, QCP::msTop))
            continue;
        changes.keepMargins(scale);
        QMargins least = scale->minimumMargins();
        least.setTop(half);
        scale->setMinimumMargins(least);
        changed |= changes.leaveMarginGroup(scale, QCP::msTop);
    }
    return changed;
}

bool labelsAbove(QCustomPlot *plot)
{
    bool changed = false;
    for (QCPAxisRect *rect : plot->axisRects()) {
        if (!shown(rect) || dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            continue;
        QCPAxis *axis = rect->axis(QCPAxis::atLeft);
        if (!movable(axis))
            continue;
        // A space from the left of its panel's cell, over the column of tick labels and on past it.
        for (const QString &label : formsOf(axis))
            if (QCPItemText *text
                = labelAbove(plot, axis, rect, rect->outerRect().left() + spaceOf(axis->labelFont()), false, label)) {
                changed |= Changes::of(plot).foldAbove(axis, text);
                break;
            }
    }
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        auto *scale = qobject_cast<QCPColorScale *>(element);
        if (!shown(scale) || scale->type() != QCPAxis::atRight || !movable(scale->axis()))
            continue;
        QCPAxis *axis = scale->axis();
        QCPAxisRect *bar = axis->axisRect();
        // From the bar's left where its bar and tick labels' column holds it, else ending a space
        // short of its cell's right end (the page's, for a bar on the right).
        double widest = 0.0;
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        for (qsizetype i = 0; i < std::min(ticks.size(), labels.size()); ++i)
            if (axis->range().contains(ticks[i]))
                widest = std::max(widest, MeasuredText::advance(axis->tickLabelFont(), labels[i]));
        const double column = bar->rect().width() + tickLabelDistance(axis) + widest;
        for (const QString &label : formsOf(axis)) {
            const double advance = MeasuredText::advance(axis->labelFont(), label);
            QCPItemText *text = advance <= column
                ? labelAbove(plot, axis, bar, 0.0, true, label)
                : labelAbove(plot, axis, bar, scale->outerRect().right() + 1 - spaceOf(axis->labelFont()) - advance,
                             false, label);
            if (text) {
                changed |= Changes::of(plot).foldAbove(axis, text);
                break;
            }
        }
    }
    return changed;
}

} // namespace Steps

} // namespace posenc::FigureRoom
