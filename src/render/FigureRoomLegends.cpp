#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include "DirectLabels.h"
#include "LegendPlacement.h"
#include "ShadeLabels.h"
#include "ShorterLabels.h"
#include "SwatchLegend.h"

#include <algorithm>
#include <cmath>
#include <functional>

using namespace Qt::StringLiterals;

// Keys moved into their plots on little room (docs/ARCHITECTURE.md, "Figures at any size"): into
// a corner they hide nothing of, or, on a page short of room, where they hide the least.
namespace posenc::FigureRoom::Steps {

namespace {

QList<QCPLegend *> keysOf(const QCustomPlot &plot)
{
    QList<QCPLegend *> found;
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
        if (auto *legend = qobject_cast<QCPLegend *>(element); legend && !Changes::isHidden(legend))
            found.append(legend);
    return found;
}

// The axis rects whose plottables `legend` names, in the order of its entries. A key of swatches
// names no plottable: it names the figure's one panel drawn, where it draws one (head-map's kinds
// of columns), and no panel where it draws several.
QList<QCPAxisRect *> rectsNamedBy(const QCPLegend *legend)
{
    QList<QCPAxisRect *> rects;
    bool plottables = false;
    for (int i = 0; i < legend->itemCount(); ++i) {
        auto *entry = qobject_cast<QCPPlottableLegendItem *>(legend->item(i));
        if (!entry || !entry->plottable())
            continue;
        plottables = true;
        if (QCPAxisRect *own = entry->plottable()->keyAxis()->axisRect(); !rects.contains(own))
            rects.append(own);
    }
    if (plottables || legend->itemCount() == 0)
        return rects;
    for (QCPAxisRect *rect : legend->parentPlot()->axisRects())
        if (rect->realVisibility() && !Changes::isHidden(rect) && !dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect))
            rects.append(rect);
    return rects.size() == 1 ? rects : QList<QCPAxisRect *>();
}

QCPAbstractPlottable *plottableOf(QCPAbstractLegendItem *item)
{
    auto *entry = qobject_cast<QCPPlottableLegendItem *>(item);
    return entry ? entry->plottable() : nullptr;
}

QString entryTextOf(QCPAbstractLegendItem *item)
{
    QCPAbstractPlottable *plottable = plottableOf(item);
    return plottable ? plottable->name() : SwatchLegend::label(item);
}

// An entry's text for now, measured where it goes (a form tried): no change of room.
void setEntryTextOf(QCPAbstractLegendItem *item, const QString &text)
{
    if (QCPAbstractPlottable *plottable = plottableOf(item))
        plottable->setName(text);
    else
        SwatchLegend::setLabel(item, text);
}

// Whether `move` moved a key of `items` with its entries in one level of the shorter forms its
// figure gives them (ShorterLabels::setEntry), the longest first: its entries then in those forms
// as a step of room gives them (undone with the rest); else as they were.
bool movedInForms(QCustomPlot *plot, const QList<QCPAbstractLegendItem *> &items, const std::function<bool()> &move)
{
    QList<QStringList> forms;
    QStringList shown;
    qsizetype levels = 0;
    for (QCPAbstractLegendItem *item : items) {
        QCPAbstractPlottable *plottable = plottableOf(item);
        forms.append(plottable ? ShorterLabels::ofEntry(plottable) : ShorterLabels::ofEntry(item));
        levels = std::max(levels, forms.constLast().size());
        shown.append(entryTextOf(item));
    }
    for (qsizetype level = 0; level < levels; ++level) {
        QStringList formed;
        for (qsizetype i = 0; i < items.size(); ++i) {
            formed.append(forms[i].isEmpty() ? shown[i] : forms[i][std::min(level, forms[i].size() - 1)]);
            setEntryTextOf(items[i], formed[i]);
        }
        const bool in = move();
        for (qsizetype i = 0; i < items.size(); ++i)
            setEntryTextOf(items[i], shown[i]);
        if (!in)
            continue;
        for (qsizetype i = 0; i < items.size(); ++i)
            if (QCPAbstractPlottable *plottable = plottableOf(items[i]))
                Changes::of(plot).renameEntry(plottable, formed[i]);
            else
                Changes::of(plot).relabelSwatch(items[i], formed[i]);
        return true;
    }
    return false;
}

using Place = std::function<std::optional<Qt::Alignment>(QCPAxisRect *, QSize, int)>;

// Each key in a row of its own moved to the place `placeOf` finds in the plot it names, in as
// many columns as that place holds: a legend a row wide below its axes fits no corner, stacked it may.
bool moveKeys(QCustomPlot *plot, const Place &placeOf, bool inForms = false)
{
    bool changed = false;
    for (QCPLegend *legend : keysOf(*plot)) {
        const QList<QCPAxisRect *> rects = rectsNamedBy(legend);
        if (roleOf(legend) != TextRole::Key || !legend->visible() || rects.isEmpty()
            || std::any_of(rects.begin(), rects.end(), [](QCPAxisRect *rect) { return Changes::isHidden(rect); })
            || !qobject_cast<QCPLayoutGrid *>(legend->layout()) || LegendPlacement::entriesOf(legend).isEmpty())
            continue;
        // The row it leaves goes to the panels it names, shared where they are several (stacked,
        // each grows by its part at least; side by side, each by all of it): the least counted.
        const int grownBy = legend->outerRect().height() / static_cast<int>(rects.size());
        // A key of several panels goes into a corner of one of them, the first with room, as an
        // author puts the figure's one key in the panel with room (matplotlib's
        // axes[0].legend(handles=...) of every line): position-effect's under its score and its
        // difference, magnitudes' under its norms and its columns.
        const auto moveInto = [&](QCPAxisRect *rect) {
            for (int columns = LegendPlacement::columnsOf(legend); columns >= 1; --columns) {
                const int wrap = LegendPlacement::wrapFor(legend, columns);
                const QSize size = LegendPlacement::stackedSize(legend, wrap);
                // Small enough that FigureFit keeps it inside (a legend over 40 % of its axes moves below).
                if (size.width() > rect->width() - 8 || size.height() > 0.4 * (rect->height() + grownBy))
                    continue;
                if (const auto corner = placeOf(rect, size, grownBy)) {
                    Changes::of(plot).moveInside(legend, rect, *corner, wrap);
                    return true;
                }
            }
            return false;
        };
        // Not into a panel little room may give up (FigureRoom::setDispensable), with the key of the others.
        const auto moved = [&] {
            return std::any_of(rects.begin(), rects.end(), [&](QCPAxisRect *rect) {
                return (rects.size() == 1 || !rect->property(kDispensableProperty).isValid()) && moveInto(rect);
            });
        };
        // With `inForms`, in the shorter forms its figure gives its entries (ShorterLabels::setEntry),
        // the longest that lets it in, rather than cut, else as it is: head-map's key at 6 x 4 cm,
        // cut for its row ("passes unr…", "turns at fre…") once its colour bar lay across in a row
        // of its own, kept the cut in the corner its wider plot then gave it.
        const QList<QCPAbstractLegendItem *> items = LegendPlacement::entriesOf(legend);
        const bool cut = std::any_of(items.begin(), items.end(),
                                     [](QCPAbstractLegendItem *item) { return entryTextOf(item).endsWith(u'…'); });
        if (inForms && cut && movedInForms(plot, items, moved))
            changed = true;
        else if (moved())
            changed = true;
        else if (inForms && !cut)
            changed |= movedInForms(plot, items, moved);
    }
    return changed;
}

} // namespace

bool legendsInside(QCustomPlot *plot)
{
    return moveKeys(plot, LegendPlacement::freeCorner);
}

bool legendsInsideInShorterForms(QCustomPlot *plot)
{
    return moveKeys(plot, LegendPlacement::freeCorner, true);
}

bool legendsOverData(QCustomPlot *plot)
{
    const QList<QCPLegend *> keys = keysOf(*plot);
    if (keys.isEmpty() || !shortOfRoom(*plot, keys.constFirst()->font().pointSizeF()))
        return false;
    return moveKeys(plot, [](QCPAxisRect *rect, QSize size, int grownBy) {
        return LegendPlacement::leastCovered(rect, size, grownBy, kMostHidden);
    });
}

namespace {

// The one value axis of what `rect` plots, upward and not reversed; none where its plottables
// use several, or it is not its left or right axis.
QCPAxis *valueAxisOf(QCPAxisRect *rect)
{
    QCPAxis *found = nullptr;
    for (QCPAbstractPlottable *plottable : rect->plottables()) {
        QCPAxis *axis = plottable->valueAxis();
        if (!plottable->realVisibility() || !axis)
            continue;
        if (found && axis != found)
            return nullptr;
        found = axis;
    }
    if (!found || found->orientation() != Qt::Vertical || found->rangeReversed())
        return nullptr;
    return found;
}

// `range` grown at its upper end so that what it held takes the lower 1 − `share` of the axis,
// on the axis's scale (a log axis's decades).
QCPRange withHeadroom(const QCPRange &range, double share, bool log)
{
    if (log) {
        const double lower = std::log10(range.lower), upper = std::log10(range.upper);
        return {range.lower, std::pow(10.0, lower + (upper - lower) / (1.0 - share))};
    }
    return {range.lower, range.lower + (range.upper - range.lower) / (1.0 - share)};
}

} // namespace

bool legendsOverHeadroom(QCustomPlot *plot)
{
    const QList<QCPLegend *> keys = keysOf(*plot);
    if (keys.isEmpty() || !shortOfRoom(*plot, keys.constFirst()->font().pointSizeF()))
        return false;
    return moveKeys(plot, [plot](QCPAxisRect *rect, QSize size, int grownBy) -> std::optional<Qt::Alignment> {
        QCPAxis *axis = valueAxisOf(rect);
        if (!axis)
            return std::nullopt;
        // The key's share of the plot's height as it will be, as LegendPlacement boxes it (a few
        // units of air), taken at most up to a third: the data keep two thirds of their axis.
        const double share = (size.height() + 6.0) / std::max(rect->height() + grownBy, 1);
        if (share > kMostHeadroom)
            return std::nullopt;
        const QCPRange given = axis->range();
        const bool log = axis->scaleType() == QCPAxis::stLogarithmic;
        if (log && given.lower <= 0.0)
            return std::nullopt;
        const QCPRange grown = withHeadroom(given, share, log);
        {
            const QSignalBlocker quiet(axis);
            axis->setRange(grown);
        }
        // Only along the top, over the headroom: elsewhere the data were as they are.
        std::optional<Qt::Alignment> place = LegendPlacement::freeCorner(rect, size, grownBy);
        if (place && !(*place & Qt::AlignTop))
            place.reset();
        {
            const QSignalBlocker quiet(axis);
            axis->setRange(given);
        }
        if (place)
            Changes::of(plot).growRange(axis, grown);
        return place;
    });
}

namespace {

// Each of `entries`' names as its figure gave it, its first part, its shorter forms, and as it is
// shown now (cut, at worst), longest first; none that another entry shows too: two labels that
// read alike name no curve.
QList<QStringList> formsOf(const Changes &changes, const QList<QCPPlottableLegendItem *> &entries)
{
    // Not at " = ": "p = 511" names its curve whole (shortenEntries' parts).
    static const QStringList separators {u"  "_s, u": "_s, u" ("_s, u", "_s};
    QList<QStringList> forms;
    for (QCPPlottableLegendItem *entry : entries) {
        const QString whole = changes.originalName(entry->plottable());
        QStringList own {whole, firstPart(whole, separators)};
        own += ShorterLabels::ofEntry(entry->plottable());
        own.append(entry->plottable()->name());
        own.removeDuplicates();
        own.removeAll(QString());
        forms.append(own);
    }
    // Against every entry's forms as given, not as this loop left them: "σ 1" (of "σ 1, s √d")
    // went from the first entry's forms for the second's and then stayed the second's.
    const QList<QStringList> given = forms;
    for (qsizetype i = 0; i < forms.size(); ++i)
        for (qsizetype j = 0; j < forms.size(); ++j)
            if (i != j)
                for (const QString &form : given[j])
                    if (forms[i].size() > 1 && form != forms[i].constFirst())
                        forms[i].removeAll(form);
    return forms;
}

QList<QCPPlottableLegendItem *> plottableEntries(const QCPLegend *legend)
{
    QList<QCPPlottableLegendItem *> entries;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto *entry = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)))
            entries.append(entry);
    return entries;
}

// Labels for the swatches of `legend` within the shades they name, in their forms as given and
// shorter (ShadeLabels::formsOf, the swatch's label whole kept for the export's metadata).
QList<QCPItemText *> nameShades(const Changes &changes, QCPLegend *legend, bool unplaced)
{
    QList<QStringList> forms;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem *item = legend->item(i); item && ShadeLabels::nameable(item))
            forms.append(ShadeLabels::formsOf(changes.originalLabel(item)));
    return ShadeLabels::make(legend, forms, unplaced);
}

bool keyInItsRow(const QCPLegend *legend)
{
    return roleOf(legend) == TextRole::Key && legend->visible() && qobject_cast<QCPLayoutGrid *>(legend->layout());
}

} // namespace

bool labelCurves(QCustomPlot *plot, bool overflowing)
{
    const QList<QCPLegend *> keys = keysOf(*plot);
    if (keys.isEmpty() || !shortOfRoom(*plot, keys.constFirst()->font().pointSizeF()))
        return false;
    Changes &changes = Changes::of(plot);
    if (overflowing && leastWithin(*plot) && labelsWithin(*plot))
        return false;
    bool changed = false;
    for (QCPLegend *legend : keys) {
        const bool shades = keyInItsRow(legend) && ShadeLabels::labelable(legend);
        if (!keyInItsRow(legend) || (!shades && !DirectLabels::labelable(legend)))
            continue;
        // A key of curves and shades: the shades named within them first, the curves' labels
        // keeping off those names (ShadeLabels), each where it has a place now: a key of marks and
        // shades that would go for labels the room left found none (mrope-positions at 6 x 4 cm)
        // holds a place over its data instead.
        const QList<QCPItemText *> named = shades ? nameShades(changes, legend, false) : QList<QCPItemText *>();
        if (shades && named.isEmpty())
            continue;
        // A key the page cannot hold would go (dropKeysIfOverflowing): its labels then stand where
        // the room the steps after give leaves them a place. Else only where they have one now.
        const QList<QCPItemText *> texts
            = DirectLabels::make(legend, formsOf(changes, plottableEntries(legend)), overflowing && !shades);
        if (!texts.isEmpty())
            changed |= changes.labelDirectly(legend, texts + named);
        else
            for (QCPItemText *text : named)
                plot->removeItem(text);
    }
    return changed;
}

bool labelSomeCurves(QCustomPlot *plot)
{
    const QList<QCPLegend *> keys = keysOf(*plot);
    if (keys.isEmpty() || !shortOfRoom(*plot, keys.constFirst()->font().pointSizeF()))
        return false;
    Changes &changes = Changes::of(plot);
    bool changed = false;
    for (QCPLegend *legend : keys) {
        if (!keyInItsRow(legend))
            continue;
        QList<QCPPlottableLegendItem *> entries = plottableEntries(legend);
        entries.removeIf([](QCPPlottableLegendItem *entry) { return !DirectLabels::labelable(entry); });
        // A key of one entry left is no smaller for a label on its curve.
        if (entries.isEmpty() || LegendPlacement::entriesOf(legend).size() < 2)
            continue;
        const QList<QCPItemText *> texts = DirectLabels::makeSome(legend, entries, formsOf(changes, entries));
        QList<QCPAbstractLegendItem *> named;
        for (QCPPlottableLegendItem *entry : entries)
            if (std::any_of(texts.begin(), texts.end(), [&](const QCPItemText *text) {
                    return DirectLabels::named(text) == DirectLabels::drawnFor(entry->plottable());
                }))
                named.append(entry);
        // Every entry named on its curve: the key goes whole, as labelCurves gives it up.
        if (named.size() == LegendPlacement::entriesOf(legend).size())
            changed |= changes.labelDirectly(legend, texts);
        else if (!named.isEmpty())
            changed |= changes.labelSome(legend, named, texts);
    }
    return changed;
}

} // namespace posenc::FigureRoom::Steps
