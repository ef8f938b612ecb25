#include "DirectLabels.h"

#include "DirectLabelCurves.h"
#include "DirectLabelLeader.h"
#include "KeyAside.h"
#include "DirectLabelPlaces.h"
#include "DirectLabelScene.h"
#include "FigureRoomChanges.h"
#include "LegendPlacement.h"

#include <QFontMetrics>
#include <QPointer>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace posenc::DirectLabels {

namespace {

// The property of a key's entry that stands for a curve drawn elsewhere: that curve.
constexpr char kStandsForProperty[] = "posencStandsFor";
// The property of a label: its entry's forms, longest first, of which it shows the first that finds a place.
constexpr char kFormsProperty[] = "posencLabelForms";
// The property of a label whose entry left its key (makeSome): its curve is named by it alone.
constexpr char kOutOfKeyProperty[] = "posencLabelOutOfKey";
// The property of each of the labels that name curves drawn too close to label apart, together: those
// curves, from the highest drawn down (a list of QObject pointers).
constexpr char kGroupProperty[] = "posencLabelGroup";

using FigureRoom::Changes;

void put(QCPItemText *text, const QCPAbstractPlottable *plottable, const Spot &spot)
{
    QCPAxis *key = plottable->keyAxis();
    QCPAxis *value = plottable->valueAxis();
    const QPointF centre = spot.box.center();
    const bool across = key->orientation() == Qt::Horizontal;
    text->position->setAxes(key, value);
    text->position->setType(QCPItemPosition::ptPlotCoords);
    text->position->setCoords(key->pixelToCoord(across ? centre.x() : centre.y()),
                              value->pixelToCoord(across ? centre.y() : centre.x()));
    text->setBrush(spot.over ? QBrush(Qt::white) : QBrush(Qt::NoBrush));
    // A label off its curve: its leader runs to the point of the curve, which follows the plot as the label does.
    if (auto *leader = dynamic_cast<LeaderText *>(text)) {
        leader->leads = spot.anchor.has_value();
        const QPointF to = spot.anchor.value_or(centre);
        leader->anchor->setAxes(key, value);
        leader->anchor->setType(QCPItemPosition::ptPlotCoords);
        leader->anchor->setCoords(key->pixelToCoord(across ? to.x() : to.y()),
                                  value->pixelToCoord(across ? to.y() : to.x()));
    }
}

// `texts`, the labels of `label`'s curves in their order, given its form taken and, where it
// found a place, put there: one curve's alone, or curves named together across its place, in a
// row each its name's width and a space apart, or in a column a line each, as the form was measured.
void putAll(const QList<QCPItemText *> &texts, const Wanted &label, const QFont &font)
{
    const qsizetype form = std::max<qsizetype>(label.forms.indexOf(label.text), 0);
    const QStringList pieces = label.pieces(form);
    const QFontMetricsF metrics(font);
    QPointF at = label.at ? label.at->box.topLeft() : QPointF();
    for (qsizetype i = 0; i < std::min(texts.size(), pieces.size()); ++i) {
        texts[i]->setText(pieces[i]);
        if (!label.at)
            continue;
        if (texts.size() == 1) {
            put(texts[i], label.curves[i], *label.at);
            continue;
        }
        const QSizeF size = sizeOf(font, pieces[i]);
        const double top = label.stacked(form) ? at.y() : label.at->box.center().y() - size.height() / 2.0;
        put(texts[i], label.curves[i], {QRectF(QPointF(at.x(), top), size), label.at->over, std::nullopt});
        if (label.stacked(form))
            at.ry() += size.height() + kLead;
        else
            at.rx() += metrics.horizontalAdvance(pieces[i] + u' ');
    }
}

// The labels drawn, or with `unplaced` those of plots drawn too that found no place.
QList<QCPItemText *> labelsOf(const QCustomPlot &plot, bool unplaced = false)
{
    QList<QCPItemText *> labels;
    for (int i = 0; i < plot.itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(plot.item(i));
        if (!text || !named(text) || Changes::isHidden(text))
            continue;
        if (shown(text) || (unplaced && !text->visible() && shown(text->clipAxisRect())))
            labels.append(text);
    }
    return labels;
}

// `labels` by the curves they name together: one list each (a label naming one curve alone, a
// label of each curve named together), in their first label's order.
QList<QList<QCPItemText *>> groupsOf(const QList<QCPItemText *> &labels)
{
    QList<QList<QCPItemText *>> groups;
    QList<QVariantList> keys;
    for (QCPItemText *text : labels) {
        const QVariantList group = text->property(kGroupProperty).toList();
        const qsizetype found = group.isEmpty() ? -1 : keys.indexOf(group);
        if (found >= 0) {
            groups[found].append(text);
            continue;
        }
        groups.append({text});
        keys.append(group);
    }
    return groups;
}

// The label `group` makes: its curves and forms its texts'.
Wanted wantedOf(const QList<QCPItemText *> &group)
{
    Wanted label = Wanted::of(named(group.constFirst()), group.constFirst()->property(kFormsProperty).toStringList());
    for (qsizetype i = 1; i < group.size(); ++i)
        label = label.with(Wanted::of(named(group[i]), group[i]->property(kFormsProperty).toStringList()));
    return label;
}

// The labels of `wanted` made for the plot of `legend`, in its font, each in its curve's colour:
// drawn where placed, else undrawn for DirectLabels::place.
QList<QCPItemText *> textsFor(QCPLegend *legend, const QList<Wanted> &wanted, bool placed)
{
    QCustomPlot *plot = legend->parentPlot();
    QList<QCPItemText *> texts;
    for (const Wanted &label : wanted) {
        QVariantList group;
        for (QCPAbstractPlottable *curve : label.curves)
            group.append(QVariant::fromValue(QPointer<QObject>(curve)));
        QList<QCPItemText *> own;
        for (qsizetype i = 0; i < label.curves.size(); ++i) {
            auto *text = new LeaderText(plot);
            // Drawn while its plot is: an item is the child of the axis rect it is clipped to.
            text->setClipAxisRect(label.plottable->keyAxis()->axisRect());
            text->setClipToAxisRect(true);
            text->setPositionAlignment(Qt::AlignCenter);
            text->setTextAlignment(Qt::AlignCenter);
            text->setPadding(QMargins());
            text->setFont(legend->font());
            text->setColor(colourOf(label.curves[i]));
            // Held weakly: a figure that clears its plottables for new data leaves its items, and a
            // label must not name a curve that is gone.
            text->setProperty(kNamesProperty, QVariant::fromValue(QPointer<QObject>(label.curves[i])));
            text->setProperty(kFormsProperty, label.curveForms[i]);
            if (label.curves.size() > 1)
                text->setProperty(kGroupProperty, group);
            text->setVisible(placed);
            own.append(text);
        }
        Wanted at = label;
        if (!placed)
            at.at.reset();
        putAll(own, at, legend->font());
        texts += own;
    }
    return texts;
}

} // namespace

void setStandsFor(QCPAbstractPlottable *entry, QCPAbstractPlottable *drawn)
{
    entry->setProperty(kStandsForProperty, QVariant::fromValue(QPointer<QObject>(drawn)));
}

QCPAbstractPlottable *drawnFor(QCPAbstractPlottable *entry)
{
    if (!entry)
        return nullptr;
    auto *drawn = qobject_cast<QCPAbstractPlottable *>(
        entry->property(kStandsForProperty).value<QPointer<QObject>>().data());
    return drawn ? drawn : entry;
}

bool labelable(QCPAbstractLegendItem *item)
{
    auto *entry = qobject_cast<QCPPlottableLegendItem *>(item);
    QCPAbstractPlottable *plottable = entry ? drawnFor(entry->plottable()) : nullptr;
    return plottable && (qobject_cast<QCPGraph *>(plottable) || qobject_cast<QCPCurve *>(plottable)) && shown(plottable)
        && shown(plottable->keyAxis()->axisRect()) && hasPoint(plottable) && !plottable->name().isEmpty()
        && (joined(plottable) || markerOf(plottable) > 0.0 || isBand(plottable));
}

bool labelable(const QCPLegend *legend)
{
    bool any = false;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (legend->item(i) && !labelable(legend->item(i)))
            return false;
        any = any || legend->item(i) != nullptr;
    }
    return any;
}

QList<QCPItemText *> make(QCPLegend *legend, const QList<QStringList> &forms, bool unplaced)
{
    QList<Wanted> wanted;
    for (int i = 0, entry = 0; i < legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)); item && entry < forms.size())
            wanted.append(Wanted::of(drawnFor(item->plottable()), forms[entry++]));
    if (wanted.isEmpty())
        return {};
    // Placed on the layout the plots will have without the key's row: the key laid out as if it
    // took none of it, for now.
    bool placed = false;
    {
        const KeyAside aside(legend);
        Scenes scenes;
        placed = placeMerging(wanted, legend->font(), scenes);
    }
    return !placed && !unplaced ? QList<QCPItemText *>() : textsFor(legend, wanted, placed);
}

QList<QCPItemText *> makeSome(QCPLegend *legend, const QList<QCPPlottableLegendItem *> &entries,
                              const QList<QStringList> &forms)
{
    // Placed on the layout the plots will have with the key holding the other entries only (the
    // key of them all squeezed buckets' plot to 22 x 13 units), for now: first without every
    // entry that may go, then without those whose labels found places.
    const QList<QCPAbstractLegendItem *> order = LegendPlacement::entriesOf(legend);
    const auto without = [&](const QList<QCPAbstractPlottable *> &out) {
        for (QCPAbstractLegendItem *item : order)
            if (legend->hasItem(item))
                legend->take(item);
        legend->simplify();
        for (QCPAbstractLegendItem *item : order) {
            auto *entry = qobject_cast<QCPPlottableLegendItem *>(item);
            if (!entry || !out.contains(drawnFor(entry->plottable())))
                legend->addItem(item);
        }
        KeyAside::layOut(legend->parentPlot());
    };
    QList<QCPAbstractPlottable *> out;
    for (QCPPlottableLegendItem *entry : entries)
        out.append(drawnFor(entry->plottable()));
    without(out);
    QList<Wanted> wanted;
    Scenes laidOut; // each curve's cells drawn once a layout, not once a try (240 ms after a resize)
    QList<Wanted> failed;
    for (qsizetype i = 0; i < std::min(entries.size(), forms.size()); ++i) { // those whose curves hold a label alone
        QList<Wanted> alone {Wanted::of(drawnFor(entries[i]->plottable()), forms[i])};
        (placeAll(alone, legend->font(), {}, &laidOut, false, true) ? wanted : failed).append(alone);
    }
    // A curve that holds none alone, with the closest curves drawn too near it to label apart (those
    // that hold a label alone or not) named together, where they hold one so.
    for (const Wanted &curve : failed) {
        if (std::any_of(wanted.begin(), wanted.end(),
                        [&](const Wanted &label) { return label.curves.contains(curve.plottable); }))
            continue;
        QList<Wanted> near = wanted + failed;
        near.removeIf([&](const Wanted &label) { return label.plottable == curve.plottable; });
        near.prepend(curve);
        while (mergeClosest(near, legend->font(), laidOut)) {
            const auto together = std::find_if(near.begin(), near.end(), [&](const Wanted &label) {
                return label.curves.contains(curve.plottable);
            });
            QList<Wanted> alone {*together};
            if (!placeAll(alone, legend->font(), {}, &laidOut, false, true))
                continue;
            // It stands for those it names.
            wanted.removeIf([&](const Wanted &label) {
                return std::any_of(label.curves.begin(), label.curves.end(),
                                   [&](QCPAbstractPlottable *named) { return alone.constFirst().curves.contains(named); });
            });
            wanted.append(alone);
            break;
        }
    }
    // Then, where they do not all stand apart, the one with the fewest places left to the key, in
    // turn; again on the layout that leaves the others in it, until it holds them all.
    bool placed = false;
    for (qsizetype count = -1; !wanted.isEmpty() && count != wanted.size();) {
        count = wanted.size();
        out.clear();
        for (const Wanted &label : wanted)
            out += label.curves;
        without(out);
        laidOut.clear();
        placed = placeAll(wanted, legend->font(), {}, &laidOut, false, true);
        while (!placed && wanted.size() > 1) {
            wanted.erase(std::min_element(wanted.begin(), wanted.end(), [](const Wanted &a, const Wanted &b) {
                return a.spots.size() < b.spots.size();
            }));
            placed = placeAll(wanted, legend->font(), {}, &laidOut, false, true);
        }
    }
    without({});
    QList<QCPItemText *> texts = placed ? textsFor(legend, wanted, true) : QList<QCPItemText *>();
    for (QCPItemText *text : texts)
        text->setProperty(kOutOfKeyProperty, true);
    return texts;
}

QCPAbstractPlottable *named(const QCPItemText *text)
{
    return qobject_cast<QCPAbstractPlottable *>(text->property(kNamesProperty).value<QPointer<QObject>>().data());
}

bool place(QCustomPlot *plot)
{
    // A label whose curve the figure has since cleared is no longer drawn (hidden, not deleted:
    // the room's changes may still hold it).
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(plot->item(i));
        if (text && text->property(kNamesProperty).isValid() && !named(text))
            text->setVisible(false);
    }
    const QList<QCPItemText *> labels = labelsOf(*plot, true);
    const bool allShown = std::all_of(labels.begin(), labels.end(), [](QCPItemText *text) { return text->visible(); });
    // A label on a ground (placed so on a layout that left it no other place) is placed again.
    const bool grounded = std::any_of(labels.begin(), labels.end(),
                                      [](QCPItemText *text) { return text->brush().style() != Qt::NoBrush; });
    if (labels.isEmpty() || (allShown && !grounded && clear(*plot)))
        return false;
    const QList<QList<QCPItemText *>> groups = groupsOf(labels);
    QList<Wanted> grouped;
    for (const QList<QCPItemText *> &group : groups)
        grouped.append(wantedOf(group));
    const QList<const QCPItemText *> placing(labels.begin(), labels.end());
    // All of them, or none: a key is named whole or not at all. Curves that the layout now draws
    // too close to label apart are named together (coinciding curves whose labels stood apart on
    // the layout they were made for: scale-compare's ‖PE‖ and √(d/2) once its panels went).
    const QFont font = labels.constFirst()->font();
    // The scenes of the labels' plots, as each pass would make them; the labels as they ask for them.
    Scenes scenes;
    QList<LabelKey> asked;
    for (QCPItemText *text : labels) {
        QCPAxisRect *rect = named(text)->keyAxis()->axisRect();
        if (scenes.find(rect) == scenes.end())
            scenes.emplace(rect, sceneOf(rect, placing));
        asked.append({text->property(kNamesProperty).value<QPointer<QObject>>(),
                      text->property(kFormsProperty).toStringList(), text->property(kGroupProperty)});
    }
    const auto [placed, wanted] = placeKept(asked, font, scenes, [&] {
        // Where no merging places them all beside their curves, again from each curve's label
        // alone, a label that finds no place beside its curve standing off it, joined to it by a
        // leader: rather than none of them drawn (a key given up for labels the page's layouts
        // left no place).
        QList<Wanted> alone;
        for (QCPItemText *text : labels)
            alone.append(wantedOf({text}));
        // Last, a label of one line that finds no place beside its curve nor off it stands over it
        // on a white ground, which hides the run of it the label covers (buckets' "T5 key after"
        // stood so where a place beside its curve was free).
        Placement found;
        for (const auto &[leaders, grounds] : {std::pair {false, false}, {true, false}, {true, true}}) {
            found.wanted = leaders ? alone : grouped;
            found.placed = placeAll(found.wanted, font, placing, &scenes, leaders, grounds);
            while (!found.placed && mergeClosest(found.wanted, font, scenes))
                found.placed = placeAll(found.wanted, font, placing, &scenes, leaders, grounds);
            if (found.placed)
                break;
        }
        return found;
    });
    if (!placed) {
        for (QCPItemText *text : labels)
            text->setVisible(false);
        return true;
    }
    for (const Wanted &label : wanted) {
        QVariantList group;
        QList<QCPItemText *> texts;
        for (QCPAbstractPlottable *curve : label.curves) {
            group.append(QVariant::fromValue(QPointer<QObject>(curve)));
            texts.append(*std::find_if(labels.begin(), labels.end(),
                                       [&](const QCPItemText *text) { return named(text) == curve; }));
        }
        for (QCPItemText *text : texts) {
            text->setProperty(kGroupProperty, label.curves.size() > 1 ? QVariant(group) : QVariant());
            text->setVisible(true);
        }
        putAll(texts, label, font);
    }
    return true;
}

QStringList unnamed(const QCustomPlot &plot)
{
    QList<const QCPAbstractPlottable *> labelled;
    for (const QCPItemText *text : labelsOf(plot))
        labelled.append(named(text));
    QStringList names;
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true)) {
        auto *legend = qobject_cast<QCPLegend *>(element);
        // Given up by a step of room: a key its figure hides itself (a view not drawn) is none.
        if (!legend || !Changes::isHidden(legend))
            continue;
        for (int i = 0; i < legend->itemCount(); ++i) {
            auto *entry = qobject_cast<QCPPlottableLegendItem *>(legend->item(i));
            QCPAbstractPlottable *curve = entry ? drawnFor(entry->plottable()) : nullptr;
            bool drawn = curve && shown(curve);
            for (const QCPLayoutElement *at = drawn ? curve->keyAxis()->axisRect() : nullptr; at && drawn;
                 at = at->layout())
                drawn = at->realVisibility() && !Changes::isHidden(at);
            if (drawn && !labelled.contains(curve)
                && !entry->plottable()->name().isEmpty())
                names.append(Changes::find(plot) ? Changes::find(plot)->originalName(entry->plottable())
                                                 : entry->plottable()->name());
        }
    }
    names.removeDuplicates();
    return names;
}

bool clear(const QCustomPlot &plot)
{
    // A label whose entry left its key names its curve only where it is drawn.
    const QList<QCPItemText *> wanted = labelsOf(plot, true);
    if (std::any_of(wanted.begin(), wanted.end(), [](const QCPItemText *text) {
            return !text->visible() && text->property(kOutOfKeyProperty).toBool();
        }))
        return false;
    const QList<QCPItemText *> labels = labelsOf(plot);
    // Each plot's scene is made once, without the labels: a label's others are texts it keeps off
    // as sceneOf would have counted them (a scene a label, its curves' cells drawn again for each,
    // was most of a settled layout's time on a figure of long curves).
    const QList<const QCPItemText *> all(labels.begin(), labels.end());
    std::map<QCPAxisRect *, Scene> scenes;
    // Each label's box and leader, laid out once: a text's box is its text shaped anew (QCPItemText
    // measures it at each anchor asked), and each label asked every other's, most of a settled
    // layout's asking on a plot of a few labels.
    struct Laid
    {
        QRectF box;
        QLineF leader;
    };
    std::map<const QCPItemText *, Laid> laid;
    for (const QCPItemText *text : labels) {
        const QRectF box = boxOf(text);
        const auto *leading = dynamic_cast<const LeaderText *>(text);
        laid.emplace(text, Laid {box, leading ? leading->leaderWithin(box) : QLineF()});
    }
    // Curves named together are asked as one label across the row of their names.
    for (const QList<QCPItemText *> &group : groupsOf(labels)) {
        QList<const QCPAbstractPlottable *> own;
        QRectF box;
        for (const QCPItemText *text : group) {
            own.append(named(text));
            box = box.united(laid.at(text).box);
        }
        if (own.contains(nullptr))
            return false;
        const QCPAbstractPlottable *plottable = own.constFirst();
        const QCPItemText *text = group.constFirst();
        QCPAxisRect *rect = plottable->keyAxis()->axisRect();
        auto found = scenes.find(rect);
        if (found == scenes.end())
            found = scenes.emplace(rect, sceneOf(rect, all)).first;
        const Scene &scene = found->second;
        const QRectF inner = box.adjusted(1, 1, -1, -1);
        const QRectF grown = inner.adjusted(-kApart, -kApart, kApart, kApart);
        // A label off its curve: its leader, which no other label meets, nor another's leader crosses.
        const auto *leading = group.size() == 1 ? dynamic_cast<const LeaderText *>(text) : nullptr;
        const QLineF leader = leading ? laid.at(text).leader : QLineF();
        if (leading && leading->leads && leader.isNull())
            return false;
        const bool meetsLabel = std::any_of(labels.begin(), labels.end(), [&](const QCPItemText *other) {
            if (group.contains(other) || !other->clipToAxisRect() || other->clipAxisRect() != rect
                || other->text().isEmpty())
                return false;
            const auto &[theirBox, theirs] = laid.at(other);
            return theirBox.intersects(grown) || meets(leader, theirBox.adjusted(-1, -1, 1, 1))
                || (!leader.isNull() && !theirs.isNull() && leader.intersects(theirs) == QLineF::BoundedIntersection);
        });
        const bool over = text->brush().style() != Qt::NoBrush;
        // As spotsFor placed it: a label beside its curve keeps kGap - kNearer off the others (it
        // found its place so; measured a unit off them, a label beside two curves drawn on top of
        // each other stood clear when placed and not when asked again), one over it a unit.
        const double off = over ? 1.0 : kGap - kNearer;
        const QRectF room = QRectF(scene.rect).adjusted(0.5, 0.5, -0.5, -0.5);
        // Placed in its data's coordinates, a label a plot grown since moved off its curve stands
        // clear of nothing it names: it is within kGap of its own curve's ink, or over it.
        // A line with marks: its label stands kGap off the marks, half a mark off the line.
        const double reach = kGap + 1.0 + (joined(plottable) ? gapOf(plottable) - kGap : 0.0);
        if (!leader.isNull()) {
            // Its leader's far end on its own curve, the leader off every other curve and text.
            const QPointF at = leading->anchor->pixelPosition();
            const double near = kLeaderOff + 1.0;
            if (!room.contains(box) || meetsLabel || scene.meetsText(inner) || scene.othersMeet(box, own, off)
                || scene.ownMeets(box, own) || !scene.ownMeets(QRectF(at, QSizeF(0.0, 0.0)), own, near)
                || !leaderClear(scene, leader, own))
                return false;
            continue;
        }
        if (!room.contains(box) || meetsLabel || scene.meetsText(inner) || scene.othersMeet(box, own, off)
            || (!over && scene.ownMeets(box, own)) || !scene.ownMeets(box, own, reach))
            return false;
    }
    return true;
}

} // namespace posenc::DirectLabels
