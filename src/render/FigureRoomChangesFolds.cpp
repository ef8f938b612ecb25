#include "FigureRoomChanges.h"

#include "FigureFit.h"
#include "KeepClearTicker.h"
#include "MeasuredText.h"
#include "ShorterLabels.h"
#include "SwatchLegend.h"

#include <algorithm>
#include <optional>
#include <typeinfo>

// The labels the steps of FigureRoom fold elsewhere than their axes draw them: a colour bar's
// under its bar, an axis's in the row of its tick labels.
namespace posenc::FigureRoom {

namespace {

// The property of an entry taken out of its legend: its plottable, weakly (Changes::takeOut).
constexpr char kTakenPlottableProperty[] = "posencTakenPlottable";

// A plain ticker's ticks from one that keeps clear, set on the axis in its place until undone.
QSharedPointer<KeepClearTicker> standInFor(QCPAxis *axis, const QCPAxisTicker &own)
{
    QSharedPointer<KeepClearTicker> plain(new KeepClearTicker);
    plain->setTickCount(own.tickCount());
    plain->setTickOrigin(own.tickOrigin());
    plain->setTickStepStrategy(own.tickStepStrategy());
    axis->setTicker(plain);
    return plain;
}

// Whether `axis`, a panel's bottom axis whose label stands along its tick labels, gains its panel
// nothing so: a panel in its margin group below draws its own label of one line under its tick
// labels, so the group's margin holds a row of label under the tick labels' row anyway, and the
// label set back under the axis takes none more (dropout-on-sum's lower heatmaps read "0  5  column j"
// beside the first's "0 5 10 15 20" over "column j" on a 14-pt slide).
bool gainsNothing(const QCustomPlot &plot, const QCPAxis *axis)
{
    QCPAxisRect *rect = axis->axisRect();
    QCPMarginGroup *group = axis->axisType() == QCPAxis::atBottom ? marginGroupOf(*rect, QCP::msBottom) : nullptr;
    if (!group)
        return false;
    for (QCPAxisRect *other : plot.axisRects()) {
        if (other == rect || !other->realVisibility() || Changes::isHidden(other)
            || marginGroupOf(*other, QCP::msBottom) != group)
            continue;
        const QCPAxis *below = other->axis(QCPAxis::atBottom);
        if (below && below->visible() && below->tickLabels() && !below->label().isEmpty()
            && !below->label().contains(u'\n') && below->labelFont() == axis->labelFont()
            && below->tickLabelFont() == axis->tickLabelFont())
            return true;
    }
    return false;
}

} // namespace

bool Changes::foldLabel(QCPColorScale *scale, QCPItemText *text)
{
    m_folded.push_back({scale, text});
    scale->axis()->setProperty(kFoldedProperty, FigureFit::unwrappedLabel(scale->axis()));
    setAxisLabel(scale->axis(), QString());
    return true;
}

bool Changes::foldAlongTicks(QCPAxis *axis, QCPItemText *text, double pixels)
{
    const QSharedPointer<QCPAxisTicker> own = axis->ticker();
    QSharedPointer<QCPAxisTicker> standIn;
    auto *clearing = dynamic_cast<KeepsClear *>(own.data());
    if (!clearing) {
        const QSharedPointer<KeepClearTicker> plain = standInFor(axis, *own);
        clearing = plain.data();
        standIn = plain;
    }
    clearing->keepClear(axis, pixels);
    m_along.push_back({axis, text, own, standIn, false, pixels});
    axis->setProperty(kFoldedProperty, FigureFit::unwrappedLabel(axis));
    setAxisLabel(axis, QString());
    return true;
}

bool Changes::unfoldUnreadable()
{
    bool changed = false;
    for (Along &along : m_along) {
        // A label above its axis (foldAbove) has no ticker of its own and blanks nothing.
        if (along.undone || !along.axis || !along.text || !along.ticker || !along.axis->axisRect()->realVisibility()
            || isHidden(along.axis->axisRect()))
            continue;
        auto *clearing = dynamic_cast<KeepsClear *>(along.axis->ticker().data());
        if (!clearing)
            continue;
        // A label in the place of more numbers than its axis's end one, or leaving it fewer than
        // three, with the ticks as they end, takes the first shorter form (its figure's, then the
        // symbol its words name) that some step of ticks leaves them: the layout on which a step
        // set it along ticked otherwise (similarity's "position q" at a column stood in the place
        // of 400, 600 and 800). Where no form leaves three, one that keeps the tick row's rule, two
        // numbers and the end one's place at most, where the label breaks it (dropout-anatomy's
        // "X, the dropout's input" over the place of 0.5 and 1 as "X").
        const QStringList forms = ShorterLabels::of(along.axis) + ShorterLabels::symbolForms(along.text->text());
        bool shortened = false;
        for (const int least : {3, 2}) {
            if (shortened || clearing->takesEndAtMost(false, least))
                break;
            for (const QString &form : forms) {
                const double advance = MeasuredText::advance(along.text->font(), form);
                const double length = extentAlong(along.axis, along.text->font(), advance);
                if (length < along.pixels && FigureFit::keepClearTakingEndAtMost(along.axis, length, least)) {
                    along.text->setText(form);
                    if (holdsUpright(along.axis, advance))
                        setUpright(along.text, along.axis);
                    along.pixels = length;
                    changed = shortened = true;
                    break;
                }
            }
        }
        if (clearing->leavesScale() && !gainsNothing(*m_plot, along.axis))
            continue;
        // The ticker stays (its numbers may be written short, shortenNumbers); undo() gives back the axis's own.
        clearing->keepClear(nullptr, 0.0);
        m_plot->removeItem(along.text);
        const QString label = along.axis->property(kFoldedProperty).toString();
        along.axis->setProperty(kFoldedProperty, QVariant());
        setAxisLabel(along.axis, label);
        along.undone = changed = true;
    }
    return changed;
}

bool Changes::unfolded(const QCPAxis *axis) const
{
    return std::any_of(m_along.begin(), m_along.end(),
                       [axis](const Along &along) { return along.undone && along.axis == axis; });
}

QList<std::pair<QCPAxis *, QCPItemText *>> Changes::labelsAlong() const
{
    QList<std::pair<QCPAxis *, QCPItemText *>> labels;
    for (const Along &along : m_along)
        if (!along.undone && along.axis && along.text && along.ticker && along.axis->axisRect()->realVisibility()
            && !isHidden(along.axis->axisRect()) && !isHidden(along.text))
            labels.append({along.axis, along.text});
    return labels;
}

bool Changes::standsAlong(const QCPAxis *axis) const
{
    const auto along = labelsAlong();
    return std::any_of(along.begin(), along.end(), [axis](const auto &entry) { return entry.first == axis; });
}

bool Changes::setAlong(QCPAxis *axis, bool alongTicks)
{
    for (Along &along : m_along) {
        if (along.axis != axis || !along.text || !along.ticker || along.undone == !alongTicks)
            continue;
        auto *clearing = dynamic_cast<KeepsClear *>(axis->ticker().data());
        if (!clearing)
            return false;
        if (alongTicks) {
            clearing->keepClear(axis, along.pixels);
            along.text->setVisible(true);
            axis->setProperty(kFoldedProperty, FigureFit::unwrappedLabel(axis));
            setAxisLabel(axis, QString());
        } else {
            clearing->keepClear(nullptr, 0.0);
            along.text->setVisible(false);
            const QString label = axis->property(kFoldedProperty).toString();
            axis->setProperty(kFoldedProperty, QVariant());
            setAxisLabel(axis, label);
        }
        along.undone = !alongTicks;
        return true;
    }
    return false;
}

void Changes::dropUnfolded()
{
    for (Along &along : m_along)
        if (along.undone && along.text && !along.text->visible()) {
            m_plot->removeItem(along.text);
            along.text = nullptr;
        }
}

bool Changes::foldedAbove(const QCPAxis *axis) const
{
    return std::any_of(m_along.begin(), m_along.end(), [axis](const Along &along) {
        return along.axis == axis && along.text && !along.ticker && !along.undone;
    });
}

bool Changes::foldAbove(QCPAxis *axis, QCPItemText *text)
{
    // Kept with the labels along their ticks, with no ticker of its own to give back.
    m_along.push_back({axis, text, {}, {}});
    axis->setProperty(kFoldedProperty, FigureFit::unwrappedLabel(axis));
    setAxisLabel(axis, QString());
    return true;
}

namespace {

// `axis`'s ticker that keeps clear: its own where it is one, else a plain one standing in for its
// own plain QCPAxisTicker (standInFor, set on the axis); none for a ticker of another kind (text).
struct Clearing
{
    KeepsClear *ticker = nullptr;
    QSharedPointer<QCPAxisTicker> own;
    QSharedPointer<QCPAxisTicker> standIn; // set only where one stands in
};

std::optional<Clearing> clearingOf(QCPAxis *axis)
{
    Clearing clearing {nullptr, axis->ticker(), {}};
    if (!clearing.own)
        return std::nullopt;
    clearing.ticker = dynamic_cast<KeepsClear *>(clearing.own.data());
    if (clearing.ticker)
        return clearing;
    const QCPAxisTicker &ownTicker = *clearing.own;
    if (typeid(ownTicker) != typeid(QCPAxisTicker))
        return std::nullopt;
    const QSharedPointer<KeepClearTicker> plain = standInFor(axis, *clearing.own);
    clearing.ticker = plain.data();
    clearing.standIn = plain;
    return clearing;
}

} // namespace

bool Changes::shortenNumbers(QCPAxis *axis)
{
    const std::optional<Clearing> clearing = clearingOf(axis);
    // Its own ticker that writes them short already is left as it is.
    if (!clearing || (!clearing->standIn && clearing->ticker->shortNumbers()))
        return false;
    clearing->ticker->setShortNumbers(true);
    m_short.push_back({axis, clearing->own, clearing->standIn});
    return true;
}

bool Changes::keepCornerClear(QCPAxis *axis, Qt::Edge side, double beyond)
{
    const std::optional<Clearing> clearing = clearingOf(axis);
    if (!clearing || (!clearing->standIn && clearing->ticker->keepsCornerClear()))
        return false;
    clearing->ticker->keepCornerClear(axis, side, beyond);
    m_corners.push_back({axis, clearing->own, clearing->standIn});
    return true;
}

bool Changes::labelDirectly(QCPLegend *legend, const QList<QCPItemText *> &texts)
{
    QList<QPointer<QCPItemText>> kept;
    for (QCPItemText *text : texts)
        kept.append(text);
    m_labelled.push_back({legend, kept});
    legend->setProperty(kLabelledProperty, true);
    hide({legend});
    return true;
}

bool Changes::labelSome(QCPLegend *legend, const QList<QCPAbstractLegendItem *> &items,
                        const QList<QCPItemText *> &texts)
{
    Taken taken {legend, {}, {}};
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem *item = legend->item(i)) {
            taken.order.append(item);
            if (items.contains(item))
                taken.taken.append(item);
        }
    if (taken.taken.isEmpty())
        return false;
    for (const QPointer<QCPAbstractLegendItem> &item : std::as_const(taken.taken)) {
        takeOut(legend, item);
        item->setProperty(kLabelledProperty, true);
    }
    legend->setFillOrder(legend->fillOrder(), true); // closes the gaps
    m_taken.push_back(taken);
    QList<QPointer<QCPItemText>> kept;
    for (QCPItemText *text : texts)
        kept.append(text);
    m_labelled.push_back({legend, kept});
    return true;
}

void Changes::takeOut(QCPLegend *legend, QCPAbstractLegendItem *item)
{
    legend->take(item);
    item->setVisible(false);
    if (auto *entry = qobject_cast<QCPPlottableLegendItem *>(item))
        item->setProperty(kTakenPlottableProperty, QVariant::fromValue(QPointer<QObject>(entry->plottable())));
}

bool Changes::namesNothing(const QCPAbstractLegendItem *item)
{
    const QVariant plottable = item->property(kTakenPlottableProperty);
    return plottable.isValid() && !plottable.value<QPointer<QObject>>();
}

QString Changes::originalName(const QCPAbstractPlottable *plottable) const
{
    for (const Entry &entry : m_entries)
        if (entry.plottable == plottable && plottable->name() == entry.shown)
            return entry.name;
    return plottable->name();
}

QString Changes::originalLabel(const QCPAbstractLegendItem *item) const
{
    for (const Swatch &swatch : m_swatches)
        if (swatch.item == item && SwatchLegend::label(item) == swatch.shown)
            return swatch.label;
    return SwatchLegend::label(item);
}

void Changes::hideFoldsOfHidden()
{
    // A colour bar's label folded under it goes with it, an axis's in its tick labels' row with its panel.
    for (const auto &[scale, text] : m_folded)
        if (scale && text && !scale->realVisibility() && !isHidden(text))
            hideItem(text);
    for (const Along &along : m_along)
        if (along.axis && along.text && !along.axis->axisRect()->realVisibility() && !isHidden(along.text))
            hideItem(along.text);
}

void Changes::undoFolds()
{
    // Latest of the steps: its bar back down the side before the margins and groups it kept.
    undoStrips();
    undoMarks();
    for (auto kept = m_corners.rbegin(); kept != m_corners.rend(); ++kept) {
        if (!kept->axis)
            continue;
        const QSharedPointer<QCPAxisTicker> now = kept->axis->ticker();
        for (const QSharedPointer<QCPAxisTicker> &ticker : {kept->ticker, kept->standIn})
            if (auto *clearing = dynamic_cast<KeepsClear *>(ticker.data()))
                clearing->keepCornerClear(nullptr, Qt::BottomEdge, 0.0);
        if (kept->ticker && kept->standIn && now == kept->standIn) {
            kept->ticker->setTickCount(now->tickCount());
            kept->axis->setTicker(kept->ticker);
        }
    }
    m_corners.clear();
    for (auto kept = m_short.rbegin(); kept != m_short.rend(); ++kept) {
        if (!kept->axis)
            continue;
        const QSharedPointer<QCPAxisTicker> now = kept->axis->ticker();
        if (auto *clearing = dynamic_cast<KeepsClear *>(kept->ticker.data()))
            clearing->setShortNumbers(false);
        if (auto *clearing = dynamic_cast<KeepsClear *>(kept->standIn.data()))
            clearing->setShortNumbers(false);
        // The axis's own ticker back, at the tick count thinned since; one the figure set since stays.
        if (kept->ticker && kept->standIn && now == kept->standIn) {
            kept->ticker->setTickCount(now->tickCount());
            kept->axis->setTicker(kept->ticker);
        }
    }
    for (const auto &[legend, texts] : m_labelled) {
        if (legend)
            legend->setProperty(kLabelledProperty, QVariant());
        for (const QPointer<QCPItemText> &text : texts)
            if (text)
                m_plot->removeItem(text);
    }
    for (const auto &[scale, text] : m_folded) {
        if (scale)
            scale->axis()->setProperty(kFoldedProperty, QVariant());
        if (text)
            m_plot->removeItem(text);
    }
    for (const Along &along : m_along) {
        if (along.text)
            m_plot->removeItem(along.text);
        if (!along.axis)
            continue;
        along.axis->setProperty(kFoldedProperty, QVariant());
        const QSharedPointer<QCPAxisTicker> now = along.axis->ticker();
        if (auto *clearing = dynamic_cast<KeepsClear *>(now.data()))
            clearing->keepClear(nullptr, 0.0);
        // The axis's own ticker back, at the tick count thinned since (FigureFit reads it); one
        // the figure set since stays.
        if (along.ticker && along.standIn && now == along.standIn) {
            along.ticker->setTickCount(now->tickCount());
            along.axis->setTicker(along.ticker);
        }
    }
}

} // namespace posenc::FigureRoom
