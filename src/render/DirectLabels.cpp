#include "DirectLabels.h"

#include "DirectLabelCurves.h"
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

constexpr double kGap = 2.0; // layout units between a label and its curve
constexpr double kNearer = 1.5; // no other curve nearer than its own by this much (one along it may be as near)
constexpr double kInset = 1.0; // between a label and its plot's edges
constexpr double kStep = 3.0; // between the places tried along a curve
constexpr int kMostPlaces = 400; // places tried along a curve, from its end
constexpr qsizetype kChoices = 48; // of them, those a search for labels kept apart tries
constexpr int kMostTries = 200000; // places the search tries in all
// The property of a key's entry that stands for a curve drawn elsewhere: that curve.
constexpr char kStandsForProperty[] = "posencStandsFor";
// The property of a label: its entry's forms, longest first, of which it shows the first that finds a place.
constexpr char kFormsProperty[] = "posencLabelForms";
// The property of a label whose entry left its key (makeSome): its curve is named by it alone.
constexpr char kOutOfKeyProperty[] = "posencLabelOutOfKey";

using FigureRoom::Changes;

// Between a label beside its curve and the points it stands beside: kGap off a mark's edge where
// marks are drawn (a line with marks at every point, Llama 3.1's wavelengths, had no place kGap
// off its line that its marks did not meet), else off the line.
double gapOf(const QCPAbstractPlottable *plottable)
{
    return kGap + (isBand(plottable) ? 0.0 : markerOf(plottable) / 2.0);
}

QSizeF sizeOf(const QFont &font, const QString &text)
{
    // As QCPItemText lays its text out.
    return QFontMetrics(font).boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignCenter, text).size();
}

// Where a label may stand: its box, and whether it stands over its own line (on a white ground).
struct Spot
{
    QRectF box;
    bool over = false;
};

// The places along `plottable` from its end where a label of `size` stands clear of the rest of
// `scene`, the best first: beside the curve (above or below it, ending at or centred on a point of
// it), else over it, on a white ground; a band's on its middle.
QList<Spot> spotsFor(const Scene &scene, const QCPAbstractPlottable *plottable, QSizeF size)
{
    const auto kept = pointsAt(plottable);
    const QList<QPointF> &points = *kept;
    // A band's label stands beside its fill: anchors along its edges, each from its end, the
    // upper's first and the lower's after them (matched by their order along each edge).
    const bool band = isBand(plottable);
    const auto lower = band ? pointsAt(static_cast<const QCPGraph *>(plottable)->channelFillGraph())
                            : std::make_shared<const QList<QPointF>>();
    const QRectF room = QRectF(scene.rect).adjusted(kInset, kInset, -kInset, -kInset);
    // The anchors, every kStep units along the curve from its last point within the plot; marks
    // alone are their points only (between two marks nothing is drawn to name).
    QList<QPointF> anchors;
    if (!joined(plottable) && !band)
        for (qsizetype k = points.size() - 1; k >= 0 && anchors.size() < kMostPlaces; --k)
            if (scene.rect.contains(points[k].toPoint()))
                anchors.append(points[k]);
    for (const QList<QPointF> *edge : {&points, lower.get()}) {
        if (!joined(plottable) && !band)
            break;
        const QList<QPointF> &along = *edge;
        const qsizetype most = anchors.size() + kMostPlaces;
        double next = 0.0; // along the curve to the next anchor
        for (qsizetype k = along.size() - 1; k >= 0 && anchors.size() < most; --k) {
            if (k == along.size() - 1) {
                if (scene.rect.contains(along[k].toPoint()))
                    anchors.append(along[k]);
                next = kStep;
                continue;
            }
            const QPointF a = along[k + 1], b = along[k];
            const double length = std::hypot(b.x() - a.x(), b.y() - a.y());
            double at = next;
            for (; at <= length && anchors.size() < most; at += kStep)
                if (const QPointF p = a + (b - a) * (at / length); scene.rect.contains(p.toPoint()))
                    anchors.append(p);
            next = at - length;
        }
    }
    const double w = size.width(), h = size.height();
    const auto clearBeside = [&](const QRectF &box) {
        return room.contains(box) && !scene.ownMeets(box.adjusted(-0.5, -0.5, 0.5, 0.5), plottable)
            && !scene.othersMeet(box.adjusted(-kGap + kNearer, -kGap + kNearer, kGap - kNearer, kGap - kNearer), plottable)
            && !scene.meetsText(box);
    };
    const auto clearOver = [&](const QRectF &box) {
        return room.contains(box) && !scene.othersMeet(box.adjusted(-1.0, -1.0, 1.0, 1.0), plottable)
            && !scene.meetsText(box);
    };
    // Marks alone: a label kGap off a mark's edge, never over it (a white ground would hide it).
    const bool marks = !joined(plottable) && !band;
    const double gap = gapOf(plottable);
    QList<Spot> beside, over;
    for (const QPointF &p : anchors) {
        for (const QRectF &box :
             {QRectF(p.x() - w, p.y() - gap - h, w, h), QRectF(p.x() - w, p.y() + gap, w, h),
              QRectF(p.x() - w / 2.0, p.y() - gap - h, w, h), QRectF(p.x() - w / 2.0, p.y() + gap, w, h),
              QRectF(p.x(), p.y() - gap - h, w, h), QRectF(p.x(), p.y() + gap, w, h)})
            if (clearBeside(box))
                beside.append({box, false});
        const QRectF centred(p.x() - w / 2.0, p.y() - h / 2.0, w, h);
        if (!band && !marks && clearOver(centred))
            over.append({centred, true});
    }
    return beside + over;
}

struct Wanted
{
    QCPAbstractPlottable *plottable = nullptr;
    QStringList forms;
    QString text; // the form taken
    QList<Spot> spots; // where it may stand
    std::optional<Spot> at;
};

using Scenes = std::map<QCPAxisRect *, Scene>;
// Each wanted label's form and spot, the labels with the fewest places first, none meeting another; false
// where one finds none. `reuse`: the scenes a call before made for this layout and `placing`, kept.
bool placeAll(QList<Wanted> &wanted, const QFont &font, const QList<const QCPItemText *> &placing,
              Scenes *reuse = nullptr)
{
    Scenes own;
    Scenes &scenes = reuse ? *reuse : own;
    for (Wanted &label : wanted) {
        QCPAxisRect *rect = label.plottable->keyAxis()->axisRect();
        auto scene = scenes.find(rect);
        if (scene == scenes.end())
            scene = scenes.emplace(rect, sceneOf(rect, placing)).first;
        if (scene->second.covered)
            return false;
    }
    // Each its longest form that has a place, alone.
    for (Wanted &label : wanted) {
        const Scene &scene = scenes.at(label.plottable->keyAxis()->axisRect());
        label.spots.clear();
        for (const QString &form : label.forms) {
            label.spots = spotsFor(scene, label.plottable, sizeOf(font, form));
            label.text = form;
            if (!label.spots.isEmpty())
                break;
        }
        if (label.spots.isEmpty())
            return false;
    }
    // The labels with the fewest places first, each in the first of its places (its curve's end
    // first) that keeps apart from those placed, backtracking over a few of its places spread
    // along its curve; then, where none does, each a form shorter.
    QList<Wanted *> order;
    for (Wanted &label : wanted)
        order.append(&label);
    std::stable_sort(order.begin(), order.end(),
                     [](const Wanted *a, const Wanted *b) { return a->spots.size() < b->spots.size(); });
    QList<qsizetype> firsts;
    for (const Wanted *label : order)
        firsts.append(label->forms.indexOf(label->text));
    for (qsizetype shorter = 0;; ++shorter) {
        bool more = false;
        QList<QList<Spot>> choices;
        for (qsizetype i = 0; i < order.size(); ++i) {
            Wanted *label = order[i];
            const qsizetype f = std::min(firsts[i] + shorter, label->forms.size() - 1);
            more |= firsts[i] + shorter < label->forms.size() - 1;
            const QList<Spot> spots = f == firsts[i] ? label->spots
                                                     : spotsFor(scenes.at(label->plottable->keyAxis()->axisRect()),
                                                                label->plottable, sizeOf(font, label->forms[f]));
            label->text = label->forms[f];
            // At most kChoices of them, spread from its end on.
            QList<Spot> few;
            const qsizetype step = std::max<qsizetype>(1, spots.size() / kChoices);
            for (qsizetype k = 0; k < spots.size(); k += step)
                few.append(spots[k]);
            choices.append(few);
        }
        QList<qsizetype> at(order.size(), -1);
        int tries = 0;
        // Depth first: label i at choice at[i] + 1 on.
        for (qsizetype i = 0; i >= 0 && i < order.size() && tries < kMostTries;) {
            const QCPAxisRect *rect = order[i]->plottable->keyAxis()->axisRect();
            qsizetype k = at[i] + 1;
            for (; k < choices[i].size(); ++k, ++tries) {
                const QRectF box = choices[i][k].box.adjusted(-kApart, -kApart, kApart, kApart);
                bool apart = true;
                for (qsizetype j = 0; j < i && apart; ++j)
                    apart
                        = order[j]->plottable->keyAxis()->axisRect() != rect || !choices[j][at[j]].box.intersects(box);
                if (apart)
                    break;
            }
            if (k < choices[i].size()) {
                at[i] = k;
                ++i;
            } else {
                at[i] = -1;
                --i;
            }
        }
        if (!at.isEmpty() && at.constLast() >= 0) {
            for (qsizetype i = 0; i < order.size(); ++i)
                order[i]->at = choices[i][at[i]];
            break;
        }
        if (!more)
            return false;
    }
    // Two labels that read alike name no curve.
    for (qsizetype i = 0; i < wanted.size(); ++i)
        for (qsizetype j = i + 1; j < wanted.size(); ++j)
            if (wanted[i].text == wanted[j].text)
                return false;
    return true;
}

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

void layOutPlot(QCPLegend *legend)
{
    for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        legend->parentPlot()->plotLayout()->update(phase);
}

// The labels of `wanted` made for the plot of `legend`, in its font, each in its curve's colour:
// drawn where placed, else undrawn for DirectLabels::place.
QList<QCPItemText *> textsFor(QCPLegend *legend, const QList<Wanted> &wanted, bool placed)
{
    QCustomPlot *plot = legend->parentPlot();
    QList<QCPItemText *> texts;
    for (const Wanted &label : wanted) {
        auto *text = new QCPItemText(plot);
        // Drawn while its plot is: an item is the child of the axis rect it is clipped to.
        text->setClipAxisRect(label.plottable->keyAxis()->axisRect());
        text->setClipToAxisRect(true);
        text->setPositionAlignment(Qt::AlignCenter);
        text->setTextAlignment(Qt::AlignCenter);
        text->setPadding(QMargins());
        text->setFont(legend->font());
        text->setColor(colourOf(label.plottable));
        text->setText(label.text);
        // Held weakly: a figure that clears its plottables for new data leaves its items, and a
        // label must not name a curve that is gone.
        text->setProperty(kNamesProperty, QVariant::fromValue(QPointer<QObject>(label.plottable)));
        text->setProperty(kFormsProperty, label.forms);
        if (placed)
            put(text, label.plottable, *label.at);
        text->setVisible(placed);
        texts.append(text);
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
            wanted.append({drawnFor(item->plottable()), forms[entry++], {}, {}, {}});
    if (wanted.isEmpty())
        return {};
    // Placed on the layout the plots will have without the key's row: the key laid out as if it
    // took none of it, for now.
    const QSize least = legend->minimumSize(), most = legend->maximumSize();
    const QMargins margins = legend->margins();
    const QCP::MarginSides sides = legend->autoMargins();
    legend->setAutoMargins(QCP::msNone);
    legend->setMargins(QMargins());
    legend->setMinimumSize(1, 1);
    legend->setMaximumSize(legend->maximumSize().width(), 1);
    layOutPlot(legend);
    const bool placed = placeAll(wanted, legend->font(), {});
    legend->setMinimumSize(least);
    legend->setMaximumSize(most);
    legend->setMargins(margins);
    legend->setAutoMargins(sides);
    layOutPlot(legend);
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
        layOutPlot(legend);
    };
    QList<QCPAbstractPlottable *> out;
    for (QCPPlottableLegendItem *entry : entries)
        out.append(drawnFor(entry->plottable()));
    without(out);
    QList<Wanted> wanted;
    Scenes laidOut; // each curve's cells drawn once a layout, not once a try (240 ms after a resize)
    for (qsizetype i = 0; i < std::min(entries.size(), forms.size()); ++i) { // those whose curves hold a label alone
        QList<Wanted> alone {{drawnFor(entries[i]->plottable()), forms[i], {}, {}, {}}};
        if (placeAll(alone, legend->font(), {}, &laidOut))
            wanted.append(alone);
    }
    // Then, where they do not all stand apart, the one with the fewest places left to the key, in
    // turn; again on the layout that leaves the others in it, until it holds them all.
    bool placed = false;
    for (qsizetype count = -1; !wanted.isEmpty() && count != wanted.size();) {
        count = wanted.size();
        out.clear();
        for (const Wanted &label : wanted)
            out.append(label.plottable);
        without(out);
        laidOut.clear();
        placed = placeAll(wanted, legend->font(), {}, &laidOut);
        while (!placed && wanted.size() > 1) {
            wanted.erase(std::min_element(wanted.begin(), wanted.end(), [](const Wanted &a, const Wanted &b) {
                return a.spots.size() < b.spots.size();
            }));
            placed = placeAll(wanted, legend->font(), {}, &laidOut);
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
    if (labels.isEmpty() || (allShown && clear(*plot)))
        return false;
    QList<Wanted> wanted;
    QList<const QCPItemText *> placing;
    for (QCPItemText *text : labels) {
        wanted.append({named(text), text->property(kFormsProperty).toStringList(), {}, {}, {}});
        placing.append(text);
    }
    // All of them, or none: a key is named whole or not at all.
    const bool placed = placeAll(wanted, labels.constFirst()->font(), placing);
    for (qsizetype i = 0; i < labels.size(); ++i) {
        if (placed) {
            labels[i]->setText(wanted[i].text);
            put(labels[i], wanted[i].plottable, *wanted[i].at);
        }
        labels[i]->setVisible(placed);
    }
    return true;
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
    for (QCPItemText *text : labels) {
        QCPAbstractPlottable *plottable = named(text);
        if (!plottable)
            return false;
        QCPAxisRect *rect = plottable->keyAxis()->axisRect();
        auto found = scenes.find(rect);
        if (found == scenes.end())
            found = scenes.emplace(rect, sceneOf(rect, all)).first;
        const Scene &scene = found->second;
        const QRectF box = boxOf(text);
        const QRectF inner = box.adjusted(1, 1, -1, -1);
        const QRectF grown = inner.adjusted(-kApart, -kApart, kApart, kApart);
        const bool meetsLabel = std::any_of(labels.begin(), labels.end(), [&](const QCPItemText *other) {
            return other != text && other->clipToAxisRect() && other->clipAxisRect() == rect
                && !other->text().isEmpty() && boxOf(other).intersects(grown);
        });
        const bool over = text->brush().style() != Qt::NoBrush;
        // As spotsFor placed it: a label beside its curve keeps kGap - kNearer off the others (it
        // found its place so; measured a unit off them, a label beside two curves drawn on top of
        // each other stood clear when placed and not when asked again), one over it a unit.
        const double off = over ? 1.0 : kGap - kNearer;
        // Placed in its data's coordinates, a label a plot grown since moved off its curve stands
        // clear of nothing it names: it is within kGap of its own curve, or over it.
        // A line with marks: its label stands kGap off the marks, half a mark off the line.
        const double reach = kGap + 1.0 + (joined(plottable) ? gapOf(plottable) - kGap : 0.0);
        if (!QRectF(scene.rect).adjusted(0.5, 0.5, -0.5, -0.5).contains(box)
            || meetsLabel || scene.meetsText(inner)
            || scene.othersMeet(box.adjusted(-off, -off, off, off), plottable)
            || (!over && scene.ownMeets(box, plottable))
            || !scene.ownMeets(box.adjusted(-reach, -reach, reach, reach), plottable))
            return false;
    }
    return true;
}

} // namespace posenc::DirectLabels
