#include "FigureRoomSteps.h"

#include "AxesInOrder.h"
#include "FigureFit.h"
#include "FigureRoomChanges.h"
#include "LegendPlacement.h"
#include "MeasuredText.h"
#include "ShorterLabels.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::FigureRoom::Steps {

namespace {

constexpr int kTightPadding = 2; // layout units between an axis and its tick labels, and its label
constexpr int kTightSpacing = 4; // layout units between the panels of a grid
constexpr int kNarrowBar = 7; // a colour bar's width (layout units): 1.9 mm, as wide as a line is high

QCPTextElement *titleOf(const QCustomPlot &plot)
{
    const QCPLayoutGrid *layout = plot.plotLayout();
    return layout->elementCount() > 0 ? qobject_cast<QCPTextElement *>(layout->elementAt(0)) : nullptr;
}

template<typename T> QList<T *> elementsOf(const QCustomPlot &plot)
{
    QList<T *> found;
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
        if (auto *typed = qobject_cast<T *>(element); typed && !Changes::isHidden(typed))
            found.append(typed);
    return found;
}

QList<QCPAxis *> shownAxes(const QCustomPlot &plot)
{
    QList<QCPAxis *> axes;
    for (QCPAxisRect *rect : plot.axisRects())
        if (!Changes::isHidden(rect))
            for (QCPAxis *axis : axesInOrder(*rect))
                if (axis->visible())
                    axes.append(axis);
    return axes;
}

bool shorten(QCustomPlot *plot, QCPTextElement *element, int lines)
{
    if (!element || element->text().isEmpty())
        return false;
    Changes &changes = Changes::of(plot);
    const double width = FigureFit::roomFor(element, plot->viewport().width() - 8.0);
    return changes.setText(
        element,
        shortened(changes.originalText(element), element->font(), width, lines, ShorterLabels::ofText(element)));
}

QList<QCPTextElement *> textsOf(const QCustomPlot &plot, TextRole role)
{
    QList<QCPTextElement *> texts;
    for (QCPTextElement *text : elementsOf<QCPTextElement>(plot))
        if (roleOf(text) == role)
            texts.append(text);
    return texts;
}

// How far the tick labels at the ends of the axes of `rect` reach past it on `side`: half a label
// centred on the last tick, which QCustomPlot's margins do not count (its rects keep 15 units).
int overhang(QCPAxisRect *rect, QCP::MarginSide side)
{
    double reach = 0.0;
    const QRect r = rect->rect();
    for (QCPAxis *axis : axesInOrder(*rect)) {
        if (!axis->visible() || !axis->tickLabels())
            continue;
        const QFont font = axis->tickLabelFont();
        const double height = QFontMetricsF(font).height();
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        const bool across = axis->orientation() == Qt::Horizontal;
        for (qsizetype i = 0; i < std::min(ticks.size(), labels.size()); ++i) {
            const double at = axis->coordToPixel(ticks[i]);
            if (across ? at < r.left() - 0.5 || at > r.right() + 1.5 : at < r.top() - 0.5 || at > r.bottom() + 1.5)
                continue;
            const double half = (across ? MeasuredText::advance(font, labels[i]) : height) / 2.0;
            if (across && side == QCP::msLeft)
                reach = std::max(reach, r.left() - (at - half));
            else if (across && side == QCP::msRight)
                reach = std::max(reach, at + half - r.right());
            else if (!across && side == QCP::msTop)
                reach = std::max(reach, r.top() - (at - half));
            else if (!across && side == QCP::msBottom)
                reach = std::max(reach, at + half - r.bottom());
        }
    }
    return static_cast<int>(std::ceil(reach));
}

QMargins least(const QMargins &a, const QMargins &b)
{
    return {std::min(a.left(), b.left()), std::min(a.top(), b.top()), std::min(a.right(), b.right()),
            std::min(a.bottom(), b.bottom())};
}

QMargins most(const QMargins &a, const QMargins &b)
{
    return {std::max(a.left(), b.left()), std::max(a.top(), b.top()), std::max(a.right(), b.right()),
            std::max(a.bottom(), b.bottom())};
}

// How far an end tick label may reach past a panel's side (`side` -1 left, 1 right) into its grid's
// column spacing: half of it where a column is drawn beyond, so that two panels' labels, each within
// its half, stay apart (FigureRoom::tickLabelsApart checks them), as matplotlib's stand in the space
// between subplots (wspace); none at the grid's edge, past which is the page or another grid's room.
int spacingToward(const QCPAxisRect *rect, int column, int side)
{
    auto *grid = qobject_cast<QCPLayoutGrid *>(rect->layout());
    const int beyond = column + side;
    if (!grid || column < 0 || beyond < 0 || beyond >= grid->columnCount())
        return 0;
    for (int r = 0; r < grid->rowCount(); ++r)
        if (const QCPLayoutElement *element = grid->hasElement(r, beyond) ? grid->element(r, beyond) : nullptr;
            element && element->realVisibility() && !Changes::isHidden(element))
            return grid->columnSpacing() / 2;
    return 0;
}

// Each shown panel's least margins on `sides` lowered to the farthest its tick labels, and those
// of the panels in line with it, reach past its plot: panels side by side in a grid tighten their
// tops and bottoms alike, stacked their sides, so that panels made as high or wide stay so. A
// panel given up holds no room for its labels, nor for its neighbours'. With `which`, only the
// panels of a column (stacked) of which one at least it takes.
bool tightenMargins(QCustomPlot *plot, QCP::MarginSides sides, bool (*which)(const QCPAxisRect *) = nullptr)
{
    Changes &changes = Changes::of(plot);
    bool changed = false;
    const auto cell = [](QCPAxisRect *rect) -> std::pair<int, int> {
        if (auto *grid = qobject_cast<QCPLayoutGrid *>(rect->layout()))
            for (int i = 0; i < grid->elementCount(); ++i)
                if (grid->elementAt(i) == rect) {
                    int row = 0, column = 0;
                    grid->indexToRowCol(i, row, column);
                    return {row, column};
                }
        return {-1, -1};
    };
    // Keyed by the grid and its row (tops and bottoms) or column (sides); a rect alone by itself.
    QHash<std::pair<const void *, int>, QMargins> rows, columns;
    const auto keys = [&cell](QCPAxisRect *rect) {
        const auto [row, column] = cell(rect);
        const void *grid = row < 0 ? static_cast<const void *>(rect) : rect->layout();
        return std::pair {std::pair {grid, row}, std::pair {grid, -2 - column}};
    };
    for (QCPAxisRect *rect : plot->axisRects()) {
        if (Changes::isHidden(rect))
            continue;
        const int at = cell(rect).second;
        const QMargins ends(std::max(overhang(rect, QCP::msLeft) - spacingToward(rect, at, -1), kTightPadding),
                            std::max(overhang(rect, QCP::msTop), kTightPadding),
                            std::max(overhang(rect, QCP::msRight) - spacingToward(rect, at, 1), kTightPadding),
                            std::max(overhang(rect, QCP::msBottom), kTightPadding));
        const auto [row, column] = keys(rect);
        rows.insert(row, most(rows.value(row), ends));
        columns.insert(column, most(columns.value(column), ends));
    }
    // The columns of panels (stacked ones align their sides) of which one at least `which` takes.
    QSet<std::pair<const void *, int>> taken;
    for (QCPAxisRect *rect : plot->axisRects())
        if (!Changes::isHidden(rect) && (!which || which(rect)))
            taken.insert(keys(rect).second);
    for (QCPAxisRect *rect : plot->axisRects()) {
        if (Changes::isHidden(rect) || !taken.contains(keys(rect).second))
            continue;
        const auto [row, column] = keys(rect);
        const QMargins across = rows.value(row), down = columns.value(column);
        const QMargins now = rect->minimumMargins();
        const QMargins ends(sides.testFlag(QCP::msLeft) ? down.left() : now.left(),
                            sides.testFlag(QCP::msTop) ? across.top() : now.top(),
                            sides.testFlag(QCP::msRight) ? down.right() : now.right(),
                            sides.testFlag(QCP::msBottom) ? across.bottom() : now.bottom());
        const QMargins tight = least(now, ends);
        if (tight == rect->minimumMargins())
            continue;
        changes.keepMargins(rect);
        rect->setMinimumMargins(tight);
        changed = true;
    }
    return changed;
}

} // namespace

bool tightenAxes(QCustomPlot *plot)
{
    Changes &changes = Changes::of(plot);
    bool changed = false;
    for (QCPAxis *axis : shownAxes(*plot)) {
        if (axis->tickLabelPadding() <= kTightPadding && axis->labelPadding() <= kTightPadding
            && axis->padding() <= kTightPadding)
            continue;
        changes.keepAxis(axis);
        axis->setTickLabelPadding(std::min(axis->tickLabelPadding(), kTightPadding));
        axis->setLabelPadding(std::min(axis->labelPadding(), kTightPadding));
        axis->setPadding(std::min(axis->padding(), kTightPadding));
        changed = true;
    }
    changed |= tightenMargins(plot, QCP::msAll);
    // A colorbar's axis as close to its bar, and its end labels reach half a line past its ends.
    for (QCPColorScale *scale : elementsOf<QCPColorScale>(*plot)) {
        QCPAxis *axis = scale->axis();
        if (axis->tickLabelPadding() > kTightPadding || axis->labelPadding() > kTightPadding
            || axis->padding() > kTightPadding) {
            changes.keepAxis(axis);
            axis->setTickLabelPadding(std::min(axis->tickLabelPadding(), kTightPadding));
            axis->setLabelPadding(std::min(axis->labelPadding(), kTightPadding));
            axis->setPadding(std::min(axis->padding(), kTightPadding));
            changed = true;
        }
        const int half = static_cast<int>(std::ceil(QFontMetricsF(scale->axis()->tickLabelFont()).height() / 2.0));
        const QMargins tight = least(scale->minimumMargins(), QMargins(kTightPadding, half, kTightPadding, half));
        if (tight != scale->minimumMargins()) {
            changes.keepMargins(scale);
            scale->setMinimumMargins(tight);
            changed = true;
        }
    }
    return changed;
}

bool tightenRightSides(QCustomPlot *plot)
{
    // Only where the x axis's label stands along its tick labels, in the place of those it blanks
    // at the axis's right end: an end label blanked because the page cut it (hideCutLabels) keeps
    // the room that may show it again.
    return tightenMargins(plot, QCP::msRight, [](const QCPAxisRect *rect) {
        const QCPAxis *axis = rect->axis(QCPAxis::atBottom);
        return axis && !axis->rangeReversed() && axis->property(kFoldedProperty).isValid();
    });
}

bool tightenGrids(QCustomPlot *plot)
{
    Changes &changes = Changes::of(plot);
    bool changed = false;
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        auto *grid = qobject_cast<QCPLayoutGrid *>(element);
        // A legend's spacing is unfoldLegends'.
        if (grid && !qobject_cast<QCPLegend *>(grid) && !Changes::isHidden(grid))
            changed |= changes.setSpacing(grid, std::min(grid->rowSpacing(), kTightSpacing),
                                          std::min(grid->columnSpacing(), kTightSpacing));
    }
    for (QCPColorScale *scale : elementsOf<QCPColorScale>(*plot))
        changed |= changes.narrowBar(scale, kNarrowBar);
    return changed;
}

namespace {

// Whether a label under `scale`'s bar would stand beside a panel of a row below the bar's, where it
// reads as that panel's once the rows between close up (captions given up, axes shared):
// sum-vs-concat's "X" stood beside its statistics panel's 10⁰.
bool besidePanelBelow(const QCustomPlot &plot, const QCPColorScale *scale)
{
    const QRect bar = scale->rect(), outer = scale->outerRect();
    for (QCPAxisRect *rect : plot.axisRects()) {
        if (rect == scale->axis()->axisRect() || Changes::isHidden(rect) || !rect->realVisibility()
            || dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            continue;
        if (rect->top() > bar.bottom() && (rect->right() < bar.left() || rect->left() > outer.right()))
            return true;
    }
    return false;
}

} // namespace

bool foldBarLabels(QCustomPlot *plot)
{
    bool changed = false;
    for (QCPColorScale *scale : elementsOf<QCPColorScale>(*plot)) {
        QCPAxis *axis = scale->axis();
        const QString label = FigureFit::unwrappedLabel(axis);
        if (!scale->realVisibility() || scale->type() != QCPAxis::atRight || label.isEmpty() || !axis->tickLabels()
            || label.contains(u'\n'))
            continue;
        const QFontMetricsF metrics(axis->labelFont());
        const double half = std::ceil(QFontMetricsF(axis->tickLabelFont()).height() / 2.0) + kTightPadding;
        // The bar's column without the label along it: from the bar's left edge to the column's end.
        const QRect outer = scale->outerRect(), bar = scale->rect();
        const double room = outer.right() - bar.left() - metrics.height() - axis->labelPadding();
        if (metrics.horizontalAdvance(label) > room || outer.bottom() - bar.bottom() < half + metrics.height()
            || besidePanelBelow(*plot, scale))
            continue;
        auto *text = new QCPItemText(plot);
        // Drawn while its bar is: an item's parent is the axis rect it was last clipped to.
        text->setClipAxisRect(axis->axisRect());
        text->setClipToAxisRect(false);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setAxisRect(axis->axisRect());
        text->position->setCoords(0.0, 1.0);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setPadding(QMargins(0, int(half), 0, 0));
        text->setFont(axis->labelFont());
        text->setColor(axis->labelColor());
        text->setText(label);
        // The tick labels then end the column: a unit more past them, for the tenths of a unit a
        // file's glyphs may run past the whole widths they were laid out with.
        Changes &changes = Changes::of(plot);
        changes.keepAxis(axis);
        axis->setPadding(axis->padding() + 1);
        changed |= changes.foldLabel(scale, text);
    }
    return changed;
}

bool unfoldLegends(QCustomPlot *plot)
{
    bool changed = false;
    for (QCPLegend *legend : elementsOf<QCPLegend>(*plot))
        changed |= Changes::of(plot).unfold(legend);
    return changed;
}

bool hideCutLabels(QCustomPlot *plot)
{
    Changes &changes = Changes::of(plot);
    bool changed = false;
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(plot->item(i));
        if (!text || !text->realVisibility())
            continue;
        const QRectF box = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
        const QRectF room = text->clipToAxisRect() && text->clipAxisRect() ? QRectF(text->clipAxisRect()->rect())
                                                                           : QRectF(plot->viewport());
        if (!room.adjusted(-0.5, -0.5, 0.5, 0.5).contains(box))
            changed |= changes.hideItem(text);
    }
    return changed;
}

bool dropCaptions(QCustomPlot *plot)
{
    Changes &changes = Changes::of(plot);
    bool changed = false;
    // A caption showing a one-line form its figure gave (captionsInShorterForms) goes later
    // (dropCaptionForms).
    for (QCPTextElement *text : textsOf(*plot, TextRole::Caption))
        if (!ShorterLabels::ofText(text).contains(FigureFit::unwrapped(text)))
            changed |= changes.dropText(text);
    QList<QCPLayoutElement *> notes;
    for (QCPLegend *legend : elementsOf<QCPLegend>(*plot))
        if (roleOf(legend) == TextRole::Caption && legend->visible())
            notes.append(legend);
    return changes.hide(notes) || changed;
}

bool shareAxes(QCustomPlot *plot)
{
    QList<QCPAxisRect *> rects;
    for (QCPAxisRect *rect : plot->axisRects())
        if (rect->realVisibility() && !Changes::isHidden(rect))
            rects.append(rect);
    // The same range, scale and label, or the giver unlabelled; no giver whose label went along its ticks.
    const auto same = [](QCPAxis *giver, QCPAxis *keeper) {
        const QString label = FigureFit::unwrappedLabel(giver);
        return giver->visible() && keeper->visible() && keeper->tickLabels() && giver->range() == keeper->range()
            && giver->scaleType() == keeper->scaleType() && !giver->property(kFoldedProperty).isValid()
            && (label.isEmpty() || label == FigureFit::unwrappedLabel(keeper));
    };
    Changes &changes = Changes::of(plot);
    bool changed = false;
    for (QCPAxisRect *a : rects) {
        for (QCPAxisRect *b : rects) {
            const QRect ra = a->rect(), rb = b->rect();
            // b under a, as wide: a's bottom axis gives its labels to b's.
            if (a != b && std::abs(ra.left() - rb.left()) <= 2 && std::abs(ra.width() - rb.width()) <= 2
                && ra.bottom() < rb.top() && same(a->axis(QCPAxis::atBottom), b->axis(QCPAxis::atBottom)))
                changed |= changes.share(a->axis(QCPAxis::atBottom), b->axis(QCPAxis::atBottom));
            // b right of a, as high: b's left axis gives its labels to a's.
            if (a != b && std::abs(ra.top() - rb.top()) <= 2 && std::abs(ra.height() - rb.height()) <= 2
                && ra.right() < rb.left() && same(b->axis(QCPAxis::atLeft), a->axis(QCPAxis::atLeft)))
                changed |= changes.share(b->axis(QCPAxis::atLeft), a->axis(QCPAxis::atLeft));
        }
    }
    return changed;
}

bool shortenTitle(QCustomPlot *plot, int lines)
{
    QCPTextElement *title = titleOf(*plot);
    QStringList model = title ? ShorterLabels::ofModelParts(title) : QStringList();
    model.removeAll(QString());
    if (lines > 1 || model.isEmpty() || title->text().isEmpty())
        return shorten(plot, title, lines);
    // In one line a title keeps what names its model (its numbers) before its words: where its first
    // parts cannot hold them, the model's parts alone, as many as hold ("llama3, factor 8  ·  Llama 3.1
    // 8B", not "RoPE wavelengths", which its axes say).
    Changes &changes = Changes::of(plot);
    const double width = FigureFit::roomFor(title, plot->viewport().width() - 8.0);
    const QString kept = shortened(changes.originalText(title), title->font(), width, 1, ShorterLabels::ofText(title));
    if (std::all_of(model.begin(), model.end(), [&kept](const QString &part) { return kept.contains(part); }))
        return changes.setText(title, kept);
    const QString named = shortened(model.join(u"  ·  "_s), title->font(), width, 1);
    return changes.setText(title, named.isEmpty() ? kept : named);
}

bool shortenTitleKeepingModel(QCustomPlot *plot)
{
    QCPTextElement *title = titleOf(*plot);
    if (!title || title->text().isEmpty())
        return false;
    Changes &changes = Changes::of(plot);
    const QString kept
        = shortened(changes.originalText(title), title->font(),
                    FigureFit::roomFor(title, plot->viewport().width() - 8.0), 1, ShorterLabels::ofText(title));
    const QStringList model = ShorterLabels::ofModelParts(title);
    if (std::any_of(model.begin(), model.end(),
                    [&kept](const QString &part) { return !part.isEmpty() && !kept.contains(part); }))
        return false;
    return changes.setText(title, kept);
}

bool shortenPanelTitles(QCustomPlot *plot, int lines)
{
    bool changed = false;
    const QList<QCPTextElement *> titles = textsOf(*plot, TextRole::PanelTitle);
    for (QCPTextElement *text : titles)
        changed |= shorten(plot, text, lines);
    // Titles of a row that give as many shorter forms show the same one, the shortest any of them
    // took, where it holds: dropout-compare's row read "lost: 10.2 %" beside "lost: 10 %", as if of
    // two precisions. A title's level: 0 as its figure set it or its first parts, k its k-th form.
    Changes &changes = Changes::of(plot);
    const auto level = [](const QCPTextElement *t) { return ShorterLabels::ofText(t).indexOf(t->text()) + 1; };
    const auto alike = [](const QCPTextElement *a, const QCPTextElement *b) {
        const qsizetype forms = ShorterLabels::ofText(a).size();
        return forms > 0 && ShorterLabels::ofText(b).size() == forms
            && std::abs(a->outerRect().top() - b->outerRect().top()) <= 2;
    };
    for (QCPTextElement *text : titles) {
        qsizetype most = level(text);
        for (const QCPTextElement *other : titles)
            if (alike(text, other))
                most = std::max(most, level(other));
        if (most <= level(text))
            continue;
        const QString form = ShorterLabels::ofText(text).at(most - 1);
        if (shortened(form, text->font(), FigureFit::roomFor(text, plot->viewport().width() - 8.0), lines) == form)
            changed |= changes.setText(text, form);
    }
    return changed;
}

bool shortenAxisLabels(QCustomPlot *plot)
{
    static const QStringList separators {u" ("_s, u" = "_s, u": "_s, u", "_s};
    bool changed = false;
    for (QCPAxis *axis : shownAxes(*plot)) {
        if (!axis->label().contains(u'\n'))
            continue;
        const QString shown = shortestTrue(axis, separators);
        if (shown != FigureFit::unwrappedLabel(axis))
            changed |= Changes::of(plot).setAxisLabel(axis, shown);
    }
    return changed;
}

bool dropTitle(QCustomPlot *plot)
{
    return Changes::of(plot).dropText(titleOf(*plot));
}

namespace {

// `panels` given up, with the panel titles that name a panel given up (in them, or `panels`
// themselves), each axis that gave its labels to one of them showing its own again.
bool hidePanels(QCustomPlot *plot, QList<QCPLayoutElement *> panels)
{
    // Whether `rect` goes: it, or what holds it, is given up.
    const auto givenUp = [&panels](const QCPLayoutElement *rect) {
        for (const QCPLayoutElement *at = rect; at; at = at->layout())
            if (panels.contains(at) || Changes::isHidden(at))
                return true;
        return false;
    };
    QList<QCPLayoutElement *> names;
    for (QCPTextElement *text : textsOf(*plot, TextRole::PanelTitle))
        if (const QCPAxisRect *rect = panelNamedBy(text); rect && givenUp(rect))
            names.append(text);
    Changes &changes = Changes::of(plot);
    if (!changes.hide(panels + names))
        return false;
    // An axis that gave its labels to one now hidden shows them again; the panels left share theirs anew.
    changes.unshareHidden();
    shareAxes(plot);
    // The panels' titles shortened beside those now hidden take the room they left.
    for (QCPTextElement *text : textsOf(*plot, TextRole::PanelTitle))
        if (changes.originalOf(text))
            shorten(plot, text, 1);
    sayAlone(plot);
    return true;
}

} // namespace

bool hideDispensable(QCustomPlot *plot, int order)
{
    // A panel's name goes with its panel and only with it, whatever the figure marked it: what it
    // marked that names a panel (a title, a grid holding one) goes where the panels it names go.
    QList<QCPLayoutElement *> marked, panels;
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true))
        if (element && element->property(kDispensableProperty).toInt() == order)
            (panelsNamedIn(element).isEmpty() ? panels : marked).append(element);
    // Whether `rect` goes: it, or what holds it, is given up (or is `with`).
    const auto givenUp = [&panels](const QCPLayoutElement *rect, const QCPLayoutElement *with = nullptr) {
        for (const QCPLayoutElement *at = rect; at; at = at->layout())
            if (at == with || panels.contains(at) || Changes::isHidden(at))
                return true;
        return false;
    };
    for (QCPLayoutElement *element : marked) {
        const QList<QCPAxisRect *> rects = panelsNamedIn(element);
        if (std::all_of(rects.begin(), rects.end(), [&](QCPAxisRect *rect) { return givenUp(rect, element); }))
            panels.append(element);
    }
    return hidePanels(plot, panels);
}

bool keepPrimaryAlone(QCustomPlot *plot)
{
    // Only past the title, and where the plots are still short of the page's half: a figure that
    // reads with its panels at a column keeps them there.
    if (const QCPTextElement *title = titleOf(*plot); (title && !FigureFit::unwrapped(title).isEmpty())
        || plotShare(*plot) >= kMinPlotShare)
        return false;
    // Only on a page short of room (kShortRoom), the only one whose plots must hold kMinPlotShare:
    // a larger page that fits its texts keeps every panel, whatever share its plots have.
    QList<QCPLayoutElement *> others;
    bool primary = false;
    for (QCPAxisRect *rect : plot->axisRects()) {
        if (dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect) || !rect->realVisibility() || Changes::isHidden(rect))
            continue;
        if (rect->property(kPrimaryProperty).toBool()) {
            if (!shortOfRoom(*plot, rect->axis(QCPAxis::atBottom)->labelFont().pointSizeF()))
                return false;
            primary = true;
        }
        else
            others.append(rect);
    }
    if (!primary || others.isEmpty() || !hidePanels(plot, others))
        return false;
    // A panel drawn alone keeps its first name only (scale-compare's convention, not its ratio
    // under it): the figure's names beyond the first go, kept in the file's metadata.
    QSet<const QCPAxisRect *> named;
    for (QCPTextElement *text : textsOf(*plot, TextRole::PanelTitle)) {
        const QCPAxisRect *rect = panelNamedBy(text);
        if (!rect || FigureFit::unwrapped(text).isEmpty())
            continue;
        if (named.contains(rect))
            Changes::of(plot).dropText(text);
        named.insert(rect);
    }
    return true;
}

bool dropUnnamingTitles(QCustomPlot *plot)
{
    bool changed = false;
    for (QCPTextElement *text : textsOf(*plot, TextRole::PanelTitle))
        if (!panelNamedBy(text))
            changed |= Changes::of(plot).dropText(text);
    return changed;
}

} // namespace posenc::FigureRoom::Steps
