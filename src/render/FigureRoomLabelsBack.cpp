#include "FigureRoom.h"

#include "AxesInOrder.h"
#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include <QPointer>

#include <algorithm>
#include <functional>

using namespace Qt::StringLiterals;

// FigureRoom::labelsBackWhereRoom: once a figure fits, its axis labels standing along their tick
// labels tried back under their axes (beside them, up a y axis's side), row by row
// (docs/ARCHITECTURE.md, "Figures at any size").
namespace posenc::FigureRoom {

namespace {

// What a reader reads of the figure that a label back under its axis must not cost: the tick labels
// each axis drawn shows, the keys shown, the texts in its plots (labels on curves and shades, a
// mark's caption) but those `ignored`, and whether the plots keep half of the page.
struct Reading
{
    QList<qsizetype> ticks;
    qsizetype keys = 0;
    qsizetype texts = 0;
    qsizetype corners = 0; // where two axes' tick labels meet (Steps::cornersMeeting)
    bool half = false;
};

Reading readingOf(const QCustomPlot &plot, const QList<const QCPItemText *> &ignored)
{
    Reading reading;
    for (QCPAxisRect *rect : plot.axisRects())
        for (QCPAxis *axis : axesInOrder(*rect))
            reading.ticks.append(rect->realVisibility() && !Changes::isHidden(rect) && axis->visible()
                                         && axis->tickLabels()
                                     ? tickLabelBoxes(axis).size()
                                     : 0);
    const auto shown
        = [](const QCPLayerable *layerable) { return layerable->realVisibility() && !Changes::isHidden(layerable); };
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
        reading.keys += qobject_cast<QCPLegend *>(element) && shown(element);
    for (QCPAxisRect *rect : plot.axisRects())
        for (QCPLayoutElement *element : rect->insetLayout()->elements(false))
            reading.keys += qobject_cast<QCPLegend *>(element) && shown(element);
    for (int i = 0; i < plot.itemCount(); ++i) {
        const auto *text = qobject_cast<const QCPItemText *>(plot.item(i));
        reading.texts += text && !ignored.contains(text) && shown(text) && !text->text().isEmpty()
            && (!text->clipAxisRect() || shown(text->clipAxisRect()));
    }
    reading.corners = Steps::cornersMeeting(plot);
    reading.half = plotShare(plot) >= kMinPlotShare;
    return reading;
}

// Whether `after` reads all `before` did: no axis fewer tick labels, none more meeting at a corner
// (where one axis's end labels would go, Steps::pruneCornerTicks: buckets' map lost its rows' 500
// on a 14-pt slide), no key or text fewer, the plots still half of the page where they were.
bool readsAll(const Reading &before, const Reading &after)
{
    if (before.ticks.size() != after.ticks.size() || after.keys < before.keys || after.texts < before.texts
        || after.corners > before.corners || (before.half && !after.half))
        return false;
    for (qsizetype i = 0; i < before.ticks.size(); ++i)
        if (after.ticks[i] < before.ticks[i])
            return false;
    return true;
}

} // namespace

namespace {

// A label along its tick labels named by its panel's place in the figure, its axis and its text:
// what a later fitting at the same size finds along them again (LabelsBack).
QString alongName(const QCustomPlot &plot, const QCPAxis *axis, const QCPItemText *text)
{
    return u"%1 %2 %3"_s.arg(plot.axisRects().indexOf(axis->axisRect())).arg(int(axis->axisType())).arg(text->text());
}

using Along = QList<std::pair<QCPAxis *, QCPItemText *>>;

// The labels along their tick labels by row: those of panels whose margins on that side are one
// group (a row of panels aligned) go back under their axes together or stay together, so that a
// row reads alike (families' "offset k" under one panel and along the ticks of its neighbour).
QList<Along> alongByRow(const Along &along)
{
    QList<Along> rows;
    QList<std::pair<QCPMarginGroup *, QCPAxis::AxisType>> keys;
    for (const auto &entry : along) {
        QCPAxisRect *rect = entry.first->axisRect();
        const auto side = entry.first->orientation() == Qt::Horizontal ? QCP::msBottom : QCP::msLeft;
        QCPMarginGroup *group = rect ? marginGroupOf(*rect, side) : nullptr;
        const qsizetype at = group ? keys.indexOf(std::pair {group, entry.first->axisType()}) : -1;
        if (at >= 0) {
            rows[at].append(entry);
        } else {
            keys.append({group, entry.first->axisType()});
            rows.append({entry});
        }
    }
    return rows;
}

// What a layout of the figure at its size reads, but for its geometry: the page's size, each axis's
// range, scale and label, the texts in its plots and its plottables' names (its keys' entries). Two
// figures alike in all of it lay out alike, and a trial's verdict for one holds for the other.
QString layoutInputs(const QCustomPlot &plot)
{
    QStringList parts {u"%1x%2"_s.arg(plot.width()).arg(plot.height())};
    for (QCPAxisRect *rect : plot.axisRects()) {
        parts.append(rect->realVisibility() && !Changes::isHidden(rect) ? u"rect"_s : u"hidden"_s);
        for (QCPAxis *axis : rect->axes())
            parts.append(u"%1 %2 %3 %4 %5"_s.arg(int(axis->axisType()))
                             .arg(axis->range().lower, 0, 'g', 17)
                             .arg(axis->range().upper, 0, 'g', 17)
                             .arg(int(axis->scaleType()))
                             .arg(axis->visible() ? axis->label() : QString()));
    }
    for (int i = 0; i < plot.itemCount(); ++i)
        if (const auto *text = qobject_cast<const QCPItemText *>(plot.item(i)))
            parts.append(text->visible() ? text->text() : QString());
    for (int i = 0; i < plot.plottableCount(); ++i)
        parts.append(const_cast<QCustomPlot &>(plot).plottable(i)->name());
    return parts.join(u'\n');
}

} // namespace

bool labelsBackWhereRoom(QCustomPlot *plot, const std::function<bool()> &layOut, LabelsBack *known)
{
    Changes *changes = Changes::find(*plot);
    if (!changes)
        return false;
    // Nothing to try where no label stands along its tick labels: no layout.
    if (changes->labelsAlong().isEmpty()) {
        changes->dropUnfolded();
        return false;
    }
    // Found for a figure that lays out alike: only those that went back are tried again.
    const QString inputs = known ? layoutInputs(*plot) : QString();
    const auto same = [&inputs](const LabelsBack::Found &one) { return one.inputs == inputs; };
    const qsizetype at
        = known ? std::find_if(known->found.cbegin(), known->found.cend(), same) - known->found.cbegin() : -1;
    const bool found = known && at < known->found.size();
    const QStringList wentBack = found ? known->found.at(at).back : QStringList();
    QStringList back;
    // Again while one goes back: the row one takes under its panel may hold its neighbours' too
    // (sum-vs-concat's two "column j" side by side, the second's row taken first).
    bool again = true;
    while (again) {
        again = false;
        for (const Along &row : alongByRow(changes->labelsAlong())) {
            QStringList names;
            QList<const QCPItemText *> texts;
            for (const auto &[axis, text] : row) {
                names.append(alongName(*plot, axis, text));
                texts.append(text);
            }
            if (found && std::none_of(names.cbegin(), names.cend(), [&](const QString &name) {
                    return wentBack.contains(name);
                }))
                continue;
            // The least margins as they are: a trial's layout may set its tick labels apart
            // (Steps::separateTickLabels), which the label back along its ticks does not need.
            QList<std::pair<QPointer<QCPLayoutElement>, QMargins>> margins;
            for (QCPLayoutElement *element : plot->plotLayout()->elements(true))
                if (element)
                    margins.append({element, element->minimumMargins()});
            // Read with the ticks the layout as it is draws: QCustomPlot makes an axis's ticks
            // (QCPAxis::setupTickVectors) before it lays its rect out, for the rect it had, and a
            // layout that moved it draws them anew (rope-frequencies' y axis at a column kept two
            // numbers in the trial's first layout, and drew one).
            plot->plotLayout()->update(QCPLayoutElement::upPreparation);
            const Reading before = readingOf(*plot, texts);
            QList<QCPAxis *> moved;
            for (const auto &[axis, text] : row)
                if (changes->setAlong(axis, false))
                    moved.append(axis);
            if (moved.isEmpty())
                continue;
            const bool fitted = layOut();
            plot->plotLayout()->update(QCPLayoutElement::upPreparation);
            if (fitted && readsAll(before, readingOf(*plot, texts))) {
                back += names;
                again = true;
                continue;
            }
            for (QCPAxis *axis : moved)
                changes->setAlong(axis, true);
            for (const auto &[element, least] : margins)
                if (element)
                    element->setMinimumMargins(least);
            layOut();
        }
    }
    changes->dropUnfolded();
    if (known && !found) {
        if (known->found.size() >= LabelsBack::kFiguresKept)
            known->found.removeLast();
        known->found.prepend({inputs, back});
    }
    return !back.isEmpty();
}

} // namespace posenc::FigureRoom
