#include "FigureRoom.h"

#include "AxesInOrder.h"
#include "DirectLabels.h"
#include "FigureFit.h"
#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"
#include "FigureSize.h"
#include "MeasuredText.h"
#include "ShadeLabels.h"

#include <functional>

using namespace Qt::StringLiterals;

namespace posenc::FigureRoom {

namespace {

const QString kSeparator = u"  ·  "_s;

QCPTextElement *titleOf(const QCustomPlot &plot)
{
    const QCPLayoutGrid *layout = plot.plotLayout();
    return layout->elementCount() > 0 ? qobject_cast<QCPTextElement *>(layout->elementAt(0)) : nullptr;
}

struct Step
{
    template<typename F>
    Step(F step, StepGives gives = StepGives::Room)
        : giveUp(std::move(step))
        , gives(gives)
    { }
    std::function<bool(QCustomPlot *)> giveUp;
    StepGives gives;
};

// What a careful author gives up first: nothing a reader sees (tight axes, legends in more
// columns), then what a paper's caption says anyway (captions, the title's later parts), then
// names shortened, then the title, then panels.
const std::vector<Step> &ladder()
{
    using namespace Steps;
    static const std::vector<Step> steps {
        tightenAxes,
        tightenGrids,
        foldBarLabels,
        unfoldLegends,
        captionsInShorterForms,
        dropCaptions,
        shareAxes,
        // "1k" for "1000" reads the same, in a narrower column of tick labels.
        shortenTickNumbers,
        [](QCustomPlot *plot) { return labelsAlongTicks(plot, Qt::Horizontal); },
        // A title of many parts keeps its first in three lines, then two: the lines a layout
        // takes, the lesson's question first, over the model's figures (rope-layouts).
        [](QCustomPlot *plot) { return shortenTitle(plot, 3); },
        [](QCustomPlot *plot) { return shortenTitle(plot, 2); },
        shortenEntries,
        legendsInside,
        [](QCustomPlot *plot) { return labelsAlongTicks(plot, Qt::Vertical); },
        shortenTitleKeepingModel,
        shortenAxisLabels,
        shortenBarLabels,
        elideTickLabels,
        [](QCustomPlot *plot) { return shortenPanelTitles(plot, 1); },
        // A title's line of the model's parameters goes only after the panels' second lines.
        [](QCustomPlot *plot) { return shortenTitle(plot, 1); },
        // A caption of one line its figure gave (what a table's pixels are) goes with the title only.
        dropCaptionForms,
        {dropTitle, StepGives::Title},
        // Axes grown by what went since may hold in a corner a legend they could not before.
        legendsInside,
        {[](QCustomPlot *plot) { return hideDispensable(plot, 1); }, StepGives::Panels},
        {[](QCustomPlot *plot) { return hideDispensable(plot, 2); }, StepGives::Panels},
        {[](QCustomPlot *plot) { return hideDispensable(plot, 3); }, StepGives::Panels},
        dropUnnamingTitles,
        // Panels grown by those that went may hold along their ticks labels they could not before.
        [](QCustomPlot *plot) {
            const bool across = labelsAlongTicks(plot, Qt::Horizontal);
            return labelsAlongTicks(plot, Qt::Vertical) || across;
        },
        legendsInside,
        // Where no corner is free, over the data where the key hides least, its entries whole.
        legendsOverData,
        elideEntries,
        legendsOverData,
        // Where none hides little enough, above the data, the axis grown for it.
        legendsOverHeadroom,
        // Where none goes over its plot, its curves named where they are drawn, where the layout
        // without the key's row holds a label for each: its row goes to the plots, the title kept.
        [](QCustomPlot *plot) { return labelCurves(plot, false); },
        // Where none goes over its plot and the page cannot hold the key, its curves named where
        // they are drawn, where the room left holds a label for each.
        {[](QCustomPlot *plot) { return labelCurves(plot, true); }, StepGives::Keys},
        // Where the key stays, its curves named where they hold a label, the rest left in it.
        labelSomeCurves,
        {dropKeysIfOverflowing, StepGives::Keys},
        // Last, so that a figure that fits before keeps its labels whole, and a label wrapped on
        // axes others squeezed keeps its words: "distance |j − i| between key …" in one line, not
        // two, then set along its ticks where that now fits.
        axisLabelsInOneLine,
        // On the room the texts left, panels that gave an axis's labels to their neighbour's give
        // its margin to their plots, where their labels may now go along their ticks.
        giveBackMargins,
        // Panel titles shortened to one line on the room they had then, on the room they have now
        // (wrapped to two, "concat: X" over "…", they took a line from the plots).
        [](QCustomPlot *plot) { return shortenPanelTitles(plot, 1); },
        [](QCustomPlot *plot) {
            const bool across = labelsAlongTicks(plot, Qt::Horizontal);
            return labelsAlongTicks(plot, Qt::Vertical) || across;
        },
        // Panels' right sides tightened again to the tick labels they now draw: a label set along
        // its ticks blanks the end label that held it (sandwich-bias's "750", 15 units of a
        // 6 x 4 cm page's 227).
        tightenRightSides,
        // Panels closed up whose end tick labels meet move apart by as much.
        separateTickLabels,
        // Last, on the rows the panels' names keep: a y axis's or a colour bar's label across
        // above its axis, beside the name, its column given to the plots.
        labelsAbove,
        // Then the end tick labels over a panel's top stand half in the row of its name, clear of it,
        // a colour bar's under its label above it.
        endLabelsIntoNames,
        barsBelowTheirLabels,
        // Then a colour bar down the side, its column given to the plots, across in the key's row.
        barsBesideKeys,
        // Last, where nothing before fitted, the figure's primary panel alone (where it marked one),
        // and the steps that place labels and keys again on the room the others left.
        {keepPrimaryAlone, StepGives::Panels},
        [](QCustomPlot *plot) {
            const bool across = labelsAlongTicks(plot, Qt::Horizontal);
            return labelsAlongTicks(plot, Qt::Vertical) || across;
        },
        // A key cut for its row in its figure's shorter forms in a corner rather than cut, one no
        // corner holds as it is in them.
        legendsInsideInShorterForms,
        legendsInside,
        legendsOverData,
        legendsOverHeadroom,
        [](QCustomPlot *plot) { return labelCurves(plot, false); },
        {[](QCustomPlot *plot) { return labelCurves(plot, true); }, StepGives::Keys},
        labelSomeCurves,
        tightenRightSides,
        separateTickLabels,
        labelsAbove,
        endLabelsIntoNames,
        barsBelowTheirLabels,
    };
    return steps;
}

} // namespace

void setDispensable(QCPLayoutElement *panel, int order)
{
    panel->setProperty(kDispensableProperty, order > 0 ? QVariant(order) : QVariant());
}

void setTextWhenAlone(QCPTextElement *text, const QString &alone)
{
    text->setProperty(kAloneTextProperty, alone.isEmpty() ? QVariant() : QVariant(alone));
}

void setPrimary(QCPAxisRect *panel)
{
    panel->setProperty(kPrimaryProperty, true);
}

void setRole(QCPLayoutElement *element, TextRole role)
{
    element->setProperty(kRoleProperty, static_cast<int>(role));
}

TextRole roleOf(const QCPLayoutElement *element)
{
    const QVariant role = element->property(kRoleProperty);
    if (role.isValid())
        return static_cast<TextRole>(role.toInt());
    if (qobject_cast<const QCPLegend *>(element))
        return TextRole::Key;
    // Row 0 of the figure's layout is its title (PlotStyle::resetWithTitle); any other text a
    // figure did not name is a caption.
    return titleOf(*element->parentPlot()) == element ? TextRole::Title : TextRole::Caption;
}

QCPAxisRect *panelNamedBy(const QCPLayoutElement *title)
{
    const auto firstPanelIn = [](QCPLayoutElement *element) -> QCPAxisRect * {
        if (auto *rect = qobject_cast<QCPAxisRect *>(element))
            return rect;
        if (const auto *layout = qobject_cast<QCPLayout *>(element))
            for (QCPLayoutElement *inner : layout->elements(true))
                if (auto *rect = qobject_cast<QCPAxisRect *>(inner))
                    return rect;
        return nullptr;
    };
    for (const QCPLayoutElement *at = title; at;) {
        const auto *grid = qobject_cast<const QCPLayoutGrid *>(at->layout());
        if (!grid)
            return nullptr;
        int row = -1, column = -1;
        for (int i = 0; i < grid->elementCount(); ++i)
            if (grid->elementAt(i) == at)
                grid->indexToRowCol(i, row, column);
        for (int r = row + 1; row >= 0 && r < grid->rowCount(); ++r)
            if (QCPAxisRect *rect = firstPanelIn(grid->element(r, column)))
                return rect;
        at = grid;
    }
    return nullptr;
}

QList<QCPAxisRect *> panelsNamedIn(QCPLayoutElement *element)
{
    QList<QCPLayoutElement *> within {element};
    if (const auto *layout = qobject_cast<QCPLayout *>(element))
        within += layout->elements(true);
    QList<QCPAxisRect *> rects;
    for (QCPLayoutElement *inner : within)
        if (QCPAxisRect *rect = inner && roleOf(inner) == TextRole::PanelTitle ? panelNamedBy(inner) : nullptr)
            rects.append(rect);
    return rects;
}

int steps()
{
    return static_cast<int>(ladder().size());
}

StepGives stepGives(int step)
{
    return step >= 1 && step <= steps() ? ladder()[static_cast<std::size_t>(step - 1)].gives : StepGives::Room;
}

bool giveUp(QCustomPlot *plot, int step)
{
    if (step < 1 || step > steps())
        return false;
    return ladder()[static_cast<std::size_t>(step - 1)].giveUp(plot);
}

void restore(QCustomPlot *plot)
{
    if (Changes *changes = Changes::find(*plot)) {
        changes->undo();
        delete changes;
    }
}

bool tidy(QCustomPlot *plot)
{
    return Steps::hideCutLabels(plot);
}

bool keepScalesReadable(QCustomPlot *plot)
{
    Changes *changes = Changes::find(*plot);
    return changes && changes->unfoldUnreadable();
}

double plotShare(const QCustomPlot &plot)
{
    const QRect viewport = plot.viewport();
    double area = 0.0;
    for (QCPAxisRect *rect : plot.axisRects())
        if (rect->realVisibility() && !dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            area += double(rect->width()) * rect->height();
    return viewport.isEmpty() ? 0.0 : area / (double(viewport.width()) * viewport.height());
}

bool leastWithin(const QCustomPlot &plot)
{
    const QSize least = plot.plotLayout()->minimumOuterSizeHint();
    return least.width() <= plot.viewport().width() && least.height() <= plot.viewport().height();
}

bool labelsWithin(const QCustomPlot &plot)
{
    for (QCPAxisRect *rect : plot.axisRects()) {
        if (!rect->realVisibility() || dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            continue;
        // As FigureFit wraps a label: centred on its axis, reaching into the margins beside it.
        for (QCPAxis *axis : axesInOrder(*rect)) {
            if (!axis->visible() || axis->label().isEmpty())
                continue;
            const double length = FigureFit::labelLength(axis);
            for (const QString &line : axis->label().split(u'\n'))
                if (MeasuredText::advance(axis->labelFont(), line) > length + 1.0)
                    return false;
        }
    }
    return true;
}

namespace {

// The ink of `text` drawn in `font` with its line box's top at `top`, across [left, right]: where
// a reader sees it (a line's ascent and descent leave room that no ink takes).
QRectF inkOf(const QString &text, const QFont &font, double top, double left, double right, double ascent)
{
    const QRectF tight = MeasuredText::tightBoundingRect(font, text);
    const double baseline = top + ascent;
    return QRectF(QPointF(left, baseline + tight.top()), QPointF(right, baseline + tight.bottom()));
}

} // namespace

bool ticksClearOfTexts(const QCustomPlot &plot)
{
    // Each text's last line's ink (a title's lines are centred in its rect).
    QList<QRectF> texts;
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true)) {
        auto *text = qobject_cast<QCPTextElement *>(element);
        if (!text || text->text().isEmpty() || !text->realVisibility() || Changes::isHidden(text))
            continue;
        // Laid out by QPainter::drawText centred in its rect, in whole units.
        const QRect rect = text->rect();
        const QStringList lines = text->text().split(u'\n');
        const QFontMetrics metrics(text->font());
        const int top = rect.top() + (rect.height() - metrics.height() * int(lines.size())) / 2
            + metrics.height() * int(lines.size() - 1);
        texts.append(inkOf(lines.constLast(), text->font(), top, rect.left(), rect.right(), metrics.ascent()));
    }
    for (QCPAxisRect *rect : plot.axisRects()) {
        if (!rect->realVisibility() || Changes::isHidden(rect) || dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            continue;
        const QRect inner = rect->rect(), outer = rect->outerRect();
        for (QCPAxis *axis : {rect->axis(QCPAxis::atLeft), rect->axis(QCPAxis::atRight)}) {
            if (!axis || !axis->visible() || !axis->tickLabels())
                continue;
            const double half = QFontMetricsF(axis->tickLabelFont()).height() / 2.0;
            const QVector<double> ticks = axis->tickVector();
            const QVector<QString> labels = axis->tickVectorLabels();
            const bool left = axis->axisType() == QCPAxis::atLeft;
            for (qsizetype i = 0; i < std::min(ticks.size(), labels.size()); ++i) {
                if (!axis->range().contains(ticks[i]))
                    continue;
                const double at = axis->coordToPixel(ticks[i]);
                // Only a label past its rect's margins can meet a text beside the rect.
                if (at - half >= outer.top() && at + half <= outer.bottom())
                    continue;
                const QRectF ink
                    = inkOf(labels[i], axis->tickLabelFont(), at - half, left ? outer.left() : inner.right(),
                            left ? inner.left() : outer.right(), QFontMetricsF(axis->tickLabelFont()).ascent());
                for (const QRectF &text : texts)
                    if (ink.adjusted(0.5, 0.5, -0.5, -0.5).intersects(text))
                        return false;
            }
        }
    }
    return true;
}

bool tickLabelsApart(const QCustomPlot &plot)
{
    return Steps::meetingTickLabels(plot).isEmpty();
}

bool within(const QCustomPlot &plot)
{
    return leastWithin(plot) && labelsWithin(plot) && ticksClearOfTexts(plot) && tickLabelsApart(plot)
        && labelsAboveClear(plot) && barTicksClearOfTexts(plot) && DirectLabels::clear(plot)
        && ShadeLabels::clear(plot);
}

bool shortOfRoom(const QCustomPlot &plot, double points)
{
    // The viewport's layout units are the screen's logical pixels, as the texts are measured.
    const double size = points * FigureSize::unitsPerInch() / 72.0;
    const QRect viewport = plot.viewport();
    return double(viewport.width()) * viewport.height() < kShortRoom * size * size;
}

bool fits(const QCustomPlot &plot, double points)
{
    return within(plot) && (!shortOfRoom(plot, points) || plotShare(plot) >= kMinPlotShare);
}

QString shownLabel(const QCPAxis *axis)
{
    const QVariant folded = axis->property(kFoldedProperty);
    return folded.isValid() ? folded.toString() : FigureFit::unwrappedLabel(axis);
}

QString fullTitle(const QCustomPlot &plot)
{
    QCPTextElement *title = titleOf(plot);
    if (!title)
        return {};
    const Changes *changes = Changes::find(plot);
    const std::optional<QString> original = changes ? changes->originalOf(title) : std::nullopt;
    return original.value_or(FigureFit::unwrapped(title)).replace(u'\n', kSeparator);
}

PanelsKept panelsKept(const QCustomPlot &plot)
{
    PanelsKept kept;
    for (QCPAxisRect *rect : plot.axisRects()) {
        if (dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            continue;
        bool givenUp = false;
        for (const QCPLayoutElement *at = rect; at && !givenUp; at = at->layout())
            givenUp = Changes::isHidden(at);
        // A panel its figure hides itself (a view it does not draw here) is none of the figure's.
        if (!givenUp && !rect->realVisibility())
            continue;
        ++kept.panels;
        kept.givenUp += givenUp ? 1 : 0;
    }
    return kept;
}

QStringList setAside(const QCustomPlot &plot)
{
    const Changes *changes = Changes::find(plot);
    return changes ? changes->setAside(titleOf(plot)) : QStringList();
}

} // namespace posenc::FigureRoom
