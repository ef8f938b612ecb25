#include "DirectLabelPlaces.h"

#include "DirectLabelCurves.h"
#include "DirectLabelLeader.h"
#include "MeasuredText.h"

#include <QFontMetrics>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace posenc::DirectLabels {

namespace {

constexpr double kInset = 1.0; // between a label and its plot's edges
constexpr double kStep = 3.0; // between the places tried along a curve
constexpr int kMostPlaces = 400; // places tried along a curve, from its end
constexpr qsizetype kChoices = 48; // of them, those a search for labels kept apart tries
constexpr int kMostTries = 200000; // places the search tries in all
constexpr std::size_t kMostPairsKept = 1024; // choices in all whose pairs' apartness a search keeps
constexpr int kTriesUnkept = 1000; // places a search tries before it keeps them
// A label off its curve: its anchors every kLeaderAnchors-th place along the curve, at most
// kMostAnchors of them, its box kLeaderReach units off its anchor in each of eight directions.
constexpr qsizetype kLeaderAnchors = 2;
constexpr qsizetype kMostAnchors = 80;
constexpr double kLeaderReach[] = {6.0, 11.0, 17.0, 24.0, 32.0, 42.0};
constexpr double kAnchorClear = 3.0; // between a leader's point and any other curve

std::atomic<quint64> g_placementsKept {0};
std::atomic<quint64> g_placesSought {0};

} // namespace

namespace {

// Whether the leader `line` keeps off every text of `scene` and all that `othersMeet` (a box, a
// pad) finds: a point every unit along it.
template<typename OthersMeet> bool clearAlong(const Scene &scene, const QLineF &line, OthersMeet &&othersMeet)
{
    const double length = line.length();
    for (double at = 0.0; at <= length + 0.5; at += 1.0) {
        const QPointF p = line.pointAt(std::min(at, length) / length);
        const QRectF dot(p.x() - 0.75, p.y() - 0.75, 1.5, 1.5);
        if (othersMeet(QRectF(p, QSizeF(0.0, 0.0)), 0.75) || scene.meetsText(dot))
            return false;
    }
    return true;
}

} // namespace

bool leaderClear(const Scene &scene, const QLineF &line, const QList<const QCPAbstractPlottable *> &own)
{
    return clearAlong(scene, line, [&](const QRectF &box, double pad) { return scene.othersMeet(box, own, pad); });
}

namespace {

// The places off a curve for a label of `size` joined to it by a leader from one of `anchors` (its
// points from its end, every kStep along it), the shortest leaders first: the box clear of every
// curve, its own too, by kGap and of every text, within the plot, its leader clear of the other
// curves and the texts.
QList<Spot> leaderSpots(const Scene &scene, const QList<const QCPAbstractPlottable *> &own, const OthersCells &others,
                        const QList<QPointF> &anchors, QSizeF size)
{
    const auto othersMeet = [&](const QRectF &box, double pad) { return others.meet(box, pad); };
    const QRectF room = QRectF(scene.rect).adjusted(kInset, kInset, -kInset, -kInset);
    const double w = size.width(), h = size.height();
    const double slant = std::sqrt(0.5);
    std::vector<std::pair<double, Spot>> found;
    for (qsizetype k = 0, taken = 0; k < anchors.size() && taken < kMostAnchors; k += kLeaderAnchors, ++taken) {
        const QPointF p = anchors[k];
        // Not where another curve or line meets its own: a leader there would name either.
        if (others.meet(QRectF(p, QSizeF(0.0, 0.0)), kAnchorClear))
            continue;
        for (const double d : kLeaderReach) {
            const double s = d * slant;
            for (const QRectF &box :
                 {QRectF(p.x() + d, p.y() - h / 2.0, w, h), QRectF(p.x() - d - w, p.y() - h / 2.0, w, h),
                  QRectF(p.x() - w / 2.0, p.y() - d - h, w, h), QRectF(p.x() - w / 2.0, p.y() + d, w, h),
                  QRectF(p.x() + s, p.y() - s - h, w, h), QRectF(p.x() - s - w, p.y() - s - h, w, h),
                  QRectF(p.x() + s, p.y() + s, w, h), QRectF(p.x() - s - w, p.y() + s, w, h)}) {
                if (!room.contains(box) || scene.meetsText(box) || scene.ownMeets(box, own, kGap)
                    || others.meet(box, kGap))
                    continue;
                const QLineF line = leaderOf(box, p);
                if (line.isNull() || !clearAlong(scene, line, othersMeet))
                    continue;
                found.push_back({line.length() + 0.25 * double(k), {box, false, p}});
            }
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    QList<Spot> spots;
    for (const auto &[length, spot] : found)
        spots.append(spot);
    return spots;
}

// The points along `plottable` a label may stand beside, every kStep units from its last point
// within the plot (marks alone: their points; curves named together: along each of them too,
// beside the lowest of two lines, under both, where the highest has no room above it; a band:
// along its edges, the upper's first), each seen: no curve but those `own` names hides it there.
QList<QPointF> anchorsOf(const Scene &scene, const QCPAbstractPlottable *plottable,
                         const QList<const QCPAbstractPlottable *> &own)
{
    const auto kept = pointsAt(plottable);
    const QList<QPointF> &points = *kept;
    const bool band = isBand(plottable);
    QList<QPointF> anchors;
    const auto add = [&](const QPointF &p, const QCPAbstractPlottable *curve) {
        if (scene.rect.contains(p.toPoint()) && !(curve && scene.hidden(p, curve, own)))
            anchors.append(p);
    };
    if (!joined(plottable) && !band) {
        for (qsizetype k = points.size() - 1; k >= 0 && anchors.size() < kMostPlaces; --k)
            add(points[k], plottable);
        return anchors;
    }
    std::vector<std::pair<std::shared_ptr<const QList<QPointF>>, const QCPAbstractPlottable *>> edges {
        {kept, plottable}};
    if (band)
        edges = {{kept, nullptr}, {pointsAt(static_cast<const QCPGraph *>(plottable)->channelFillGraph()), nullptr}};
    for (const QCPAbstractPlottable *other : own)
        if (other != plottable && joined(other))
            edges.push_back({pointsAt(other), other});
    for (const auto &[edge, curve] : edges) {
        const QList<QPointF> &along = *edge;
        const qsizetype most = anchors.size() + kMostPlaces;
        double next = 0.0; // along the curve to the next anchor
        for (qsizetype k = along.size() - 1; k >= 0 && anchors.size() < most; --k) {
            if (k == along.size() - 1) {
                add(along[k], curve);
                next = kStep;
                continue;
            }
            const QPointF a = along[k + 1], b = along[k];
            const double length = std::hypot(b.x() - a.x(), b.y() - a.y());
            double at = next;
            for (; at <= length && anchors.size() < most; at += kStep)
                add(a + (b - a) * (at / length), curve);
            next = at - length;
        }
    }
    return anchors;
}

// The places along `plottable` from its end where a label of `size` stands clear of the rest of
// `scene`, the best first: beside the curve where it is seen (above or below it, ending at or
// centred on a point of it, or level with a point, before or after it; not at a point another
// curve hides: buckets' "T5 causal" stood beside its run under "T5 key before"); a band's beside
// its fill. With `leaders`, the places off it for a label joined to it by a leader instead
// (leaderSpots); with `grounds`, over it, centred on a point, on a white ground, which hides the
// run it covers (buckets' "T5 key after" stood so with room beside its curve).
QList<Spot> spotsFor(const Scene &scene, const QCPAbstractPlottable *plottable,
                     const QList<const QCPAbstractPlottable *> &own, QSizeF size, bool leaders = false,
                     bool grounds = false)
{
    const QList<QPointF> anchors = anchorsOf(scene, plottable, own);
    const OthersCells others(scene, own);
    if (leaders)
        return leaderSpots(scene, own, others, anchors, size);
    const double w = size.width(), h = size.height();
    if (grounds) {
        // Over one line alone, centred on a point of it: a ground over curves named together hides
        // where each of them goes; over marks or a band it would hide what it names.
        QList<Spot> over;
        const QRectF room = QRectF(scene.rect).adjusted(kInset, kInset, -kInset, -kInset);
        for (const QPointF &p : anchors)
            if (const QRectF centred(p.x() - w / 2.0, p.y() - h / 2.0, w, h);
                room.contains(centred) && !others.meet(centred, 1.0) && !scene.meetsText(centred))
                over.append({centred, true, std::nullopt});
        return over;
    }
    const QRectF room = QRectF(scene.rect).adjusted(kInset, kInset, -kInset, -kInset);
    const auto clearBeside = [&](const QRectF &box) {
        return room.contains(box) && !scene.ownMeets(box, own, 0.5) && !others.meet(box, kGap - kNearer)
            && !scene.meetsText(box);
    };
    // Marks alone: a label kGap off a mark's edge; a line kGap off it, a thick one a unit off its ink.
    const double gap = gapOf(plottable);
    QList<Spot> beside;
    for (const QPointF &p : anchors)
        for (const QRectF &box :
             {QRectF(p.x() - w, p.y() - gap - h, w, h), QRectF(p.x() - w, p.y() + gap, w, h),
              QRectF(p.x() - w / 2.0, p.y() - gap - h, w, h), QRectF(p.x() - w / 2.0, p.y() + gap, w, h),
              QRectF(p.x(), p.y() - gap - h, w, h), QRectF(p.x(), p.y() + gap, w, h),
              QRectF(p.x() + gap, p.y() - h / 2.0, w, h), QRectF(p.x() - gap - w, p.y() - h / 2.0, w, h)})
            if (clearBeside(box))
                beside.append({box, false, std::nullopt});
    return beside;
}

// A label's places: beside its curve, then, for a label of one line naming one curve drawn as a
// line, with `leaders` off it with a leader, and with `grounds` over it on a white ground. Each kind
// is sought once a scene for the curves and the size (kept in Scene::spotsKept, its flags the
// kind's: beside neither, off it with a leader `leaders` alone, over it `grounds` alone): the passes
// of DirectLabels::place ask for the places beside the curve again with the leaders', and for both
// again with the grounds'.
QList<Spot> spotsOf(const Scene &scene, const Wanted &label, QSizeF size, bool leaders, bool grounds)
{
    QList<const QCPAbstractPlottable *> curves = label.own();
    curves.prepend(label.plottable); // the curve its places run along, then those it names
    const auto kind = [&](bool off, bool over) -> const QList<Spot> & {
        const auto key = std::tuple(curves, size.width(), size.height(), off, over);
        if (const auto kept = scene.spotsKept.find(key); kept != scene.spotsKept.end())
            return kept->second;
        g_placesSought.fetch_add(1, std::memory_order_relaxed);
        return scene.spotsKept.emplace(key, spotsFor(scene, label.plottable, label.own(), size, off, over))
            .first->second;
    };
    QList<Spot> spots = kind(false, false);
    const bool line = label.curves.size() == 1 && joined(label.plottable) && !isBand(label.plottable);
    if (leaders && line)
        spots += kind(true, false);
    if (grounds && line)
        spots += kind(false, true);
    return spots;
}

} // namespace

bool apartSpots(const Spot &a, const Spot &b)
{
    if (a.box.adjusted(-kApart, -kApart, kApart, kApart).intersects(b.box))
        return false;
    const QLineF first = a.anchor ? leaderOf(a.box, *a.anchor) : QLineF();
    const QLineF second = b.anchor ? leaderOf(b.box, *b.anchor) : QLineF();
    const auto grown = [](const QRectF &box) { return box.adjusted(-1.0, -1.0, 1.0, 1.0); };
    return !meets(first, grown(b.box)) && !meets(second, grown(a.box))
        && (first.isNull() || second.isNull() || first.intersects(second) != QLineF::BoundedIntersection);
}

// Between a label beside its curve and the points it stands beside: kGap off a mark's edge where
// marks are drawn (a line with marks at every point, Llama 3.1's wavelengths, had no place kGap
// off its line that its marks did not meet), else off the line, and a unit off a thick line's ink.
double gapOf(const QCPAbstractPlottable *plottable)
{
    if (isBand(plottable))
        return kGap;
    return std::max(kGap + markerOf(plottable) / 2.0, inkOf(plottable) + 1.0);
}

QSizeF sizeOf(const QFont &font, const QString &text)
{
    // As QCPItemText lays its text out, each line measured once a thread (shaped anew at every
    // layout of a fitting, it took a tenth of a second of the window's GUI thread).
    const auto one = [&](const QString &line) { return QSizeF(MeasuredText::centredSize(font, line)); };
    if (!text.contains(u'\n'))
        return one(text);
    QSizeF size(0.0, -kLead);
    for (const QString &line : text.split(u'\n')) {
        const QSizeF each = one(line);
        size = QSizeF(std::max(size.width(), each.width()), size.height() + each.height() + kLead);
    }
    return size;
}

namespace {

// placeAll's search on `scenes`, each label's plot's made: `chosen` once each label took a spot.
bool searchAll(QList<Wanted> &wanted, const QFont &font, Scenes &scenes, bool leaders, bool grounds, bool &chosen)
{
    chosen = false;
    // Each its longest form that has a place, alone (each asked: mergeClosest reads which have none).
    bool each = true;
    for (Wanted &label : wanted) {
        const Scene &scene = scenes.at(label.plottable->keyAxis()->axisRect());
        label.spots.clear();
        for (const QString &form : label.forms) {
            label.spots = spotsOf(scene, label, sizeOf(font, form), leaders, grounds);
            label.text = form;
            if (!label.spots.isEmpty())
                break;
        }
        each = each && !label.spots.isEmpty();
    }
    if (!each)
        return false;
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
                                                     : spotsOf(scenes.at(label->plottable->keyAxis()->axisRect()),
                                                               *label, sizeOf(font, label->forms[f]), leaders, grounds);
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
        // Whether two choices stand apart, each asked once a search: the search backtracks over
        // the same pairs again and again (apartSpots was half of a fitting's time on rope-scalings'
        // nine curves at a column). By each label's first choice's index among all.
        std::vector<qsizetype> firstChoice(std::size_t(order.size()) + 1, 0);
        for (qsizetype i = 0; i < order.size(); ++i)
            firstChoice[std::size_t(i) + 1] = firstChoice[std::size_t(i)] + choices[i].size();
        // Kept once a search has tried a few places, where the choices are few enough.
        const std::size_t all = std::size_t(firstChoice.back());
        std::vector<std::int8_t> asked;
        const auto apartAt = [&](qsizetype j, qsizetype i, qsizetype k) {
            if (asked.empty() && tries >= kTriesUnkept && all <= kMostPairsKept)
                asked.assign(all * all, -1);
            if (asked.empty())
                return apartSpots(choices[j][at[j]], choices[i][k]);
            std::int8_t &known = asked[std::size_t(firstChoice[std::size_t(j)] + at[j]) * all
                                       + std::size_t(firstChoice[std::size_t(i)] + k)];
            if (known < 0)
                known = apartSpots(choices[j][at[j]], choices[i][k]) ? 1 : 0;
            return known == 1;
        };
        // Each label's plot, read once a search, not at each of its tries.
        std::vector<const QCPAxisRect *> rects;
        for (const Wanted *label : order)
            rects.push_back(label->plottable->keyAxis()->axisRect());
        // Depth first: label i at choice at[i] + 1 on.
        for (qsizetype i = 0; i >= 0 && i < order.size() && tries < kMostTries;) {
            const QCPAxisRect *rect = rects[std::size_t(i)];
            qsizetype k = at[i] + 1;
            for (; k < choices[i].size(); ++k, ++tries) {
                bool apart = true;
                for (qsizetype j = 0; j < i && apart; ++j)
                    apart = rects[std::size_t(j)] != rect || apartAt(j, i, k);
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
            chosen = true;
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

// A search of placeAll kept: what it was asked (each label's curves and forms, the font, the
// plots' scenes, leaders and grounds) and what it found (each label's spots, form and spot).
struct SearchKept
{
    quint64 fitting = 0;
    QList<QPointer<QCPAbstractPlottable>> curves; // each label's curve, then those it names
    QList<std::tuple<QStringList, QList<QStringList>, qsizetype>> forms;
    QFont font;
    Scenes scenes; // of the labels' plots, as they were before the search
    bool leaders = false, grounds = false;
    bool placed = false, chosen = false;
    QList<Wanted> found;
};

std::atomic<quint64> g_searchesKept {0};

} // namespace

// Each wanted label's form and spot, the labels with the fewest places first, none meeting another; false
// where one finds none. `reuse`: the scenes a call before made for this layout and `placing`, kept.
bool placeAll(QList<Wanted> &wanted, const QFont &font, const QList<const QCPItemText *> &placing, Scenes *reuse,
              bool leaders, bool grounds)
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
    bool chosen = false;
    const quint64 fitting = fittingNow();
    if (fitting == 0)
        return searchAll(wanted, font, scenes, leaders, grounds, chosen);
    // Within a fitting, the search made before for the same labels on the same scenes is taken as
    // it found (makeSome's and make's at each climb of the room ladder over the same layouts).
    SearchKept key {fitting, {}, {}, font, {}, leaders, grounds, false, false, {}};
    for (const Wanted &label : wanted) {
        key.curves.append(const_cast<QCPAbstractPlottable *>(label.plottable));
        for (QCPAbstractPlottable *curve : label.curves)
            key.curves.append(curve);
        key.forms.append({label.forms, label.curveForms, label.rows});
        QCPAxisRect *rect = label.plottable->keyAxis()->axisRect();
        if (key.scenes.find(rect) != key.scenes.end())
            continue;
        // What it holds, not what was asked of it before (its kept places and distances).
        Scene &held = key.scenes.emplace(rect, scenes.at(rect)).first->second;
        held.apartKept.clear();
        held.spotsKept.clear();
    }
    constexpr std::size_t kMostKept = 32;
    thread_local std::vector<SearchKept> kept;
    std::erase_if(kept, [&](const SearchKept &one) { return one.fitting != fitting; });
    for (const SearchKept &one : kept)
        if (one.curves == key.curves && one.forms == key.forms && one.font == font && one.leaders == leaders
            && one.grounds == grounds
            && std::equal(
                one.scenes.begin(), one.scenes.end(), key.scenes.begin(), key.scenes.end(),
                [](const auto &a, const auto &b) { return a.first == b.first && sameScene(a.second, b.second); })) {
            g_searchesKept.fetch_add(1, std::memory_order_relaxed);
            for (qsizetype i = 0; i < wanted.size(); ++i) {
                wanted[i].spots = one.found[i].spots;
                wanted[i].text = one.found[i].text;
                if (one.chosen)
                    wanted[i].at = one.found[i].at;
            }
            return one.placed;
        }
    key.placed = searchAll(wanted, font, scenes, leaders, grounds, chosen);
    key.chosen = chosen;
    key.found = wanted;
    if (kept.size() >= kMostKept)
        kept.erase(kept.begin());
    kept.push_back(std::move(key));
    return kept.back().placed;
}

quint64 searchesKept()
{
    return g_searchesKept.load(std::memory_order_relaxed);
}

Placement placeKept(const QList<LabelKey> &labels, const QFont &font, Scenes &scenes,
                    const std::function<Placement()> &find)
{
    struct Kept
    {
        quint64 fitting = 0;
        QList<LabelKey> labels;
        QFont font;
        Scenes scenes; // as they were before the search: their cells held, so none is drawn anew at their address
        Placement placement;
    };
    // The last few, of the fitting the thread is in.
    constexpr std::size_t kMostKept = 16;
    thread_local std::vector<Kept> kept;
    const quint64 fitting = fittingNow();
    std::erase_if(kept, [&](const Kept &one) { return one.fitting != fitting; });
    if (fitting == 0)
        return find();
    const auto same = [&](const Scenes &a) {
        return std::equal(a.begin(), a.end(), scenes.begin(), scenes.end(), [](const auto &one, const auto &other) {
            return one.first == other.first && sameScene(one.second, other.second);
        });
    };
    for (const Kept &one : kept)
        if (one.labels == labels && one.font == font && same(one.scenes)) {
            g_placementsKept.fetch_add(1, std::memory_order_relaxed);
            return one.placement;
        }
    Kept found {fitting, labels, font, scenes, {}};
    found.placement = find();
    if (kept.size() >= kMostKept)
        kept.erase(kept.begin());
    kept.push_back(std::move(found));
    return kept.back().placement;
}

quint64 placesSought()
{
    return g_placesSought.load(std::memory_order_relaxed);
}

quint64 placementsKept()
{
    return g_placementsKept.load(std::memory_order_relaxed);
}

// The closest two labels of one plot whose curves are drawn too close for a label each (nowhere
// farther apart than a label's height and a gap each side: none stands between them) named
// together, as an author names coinciding curves with one label ("linear, proportional"); false
// where no two are. Bands are named alone.
bool mergeClosest(QList<Wanted> &wanted, const QFont &font, Scenes &scenes)
{
    const double most = sizeOf(font, QStringLiteral("Xg")).height() + 2.0 * kGap;
    double best = most;
    qsizetype first = -1, second = -1;
    // A label with no place alone with its closest curve first (placeAll asked each alone): curves
    // that each hold a label alone but not all together are named together only after.
    const bool needy = std::any_of(wanted.begin(), wanted.end(), [](const Wanted &label) { return label.spots.isEmpty(); });
    for (qsizetype i = 0; i < wanted.size(); ++i)
        for (qsizetype j = i + 1; j < wanted.size(); ++j) {
            QCPAxisRect *rect = wanted[i].plottable->keyAxis()->axisRect();
            if (wanted[j].plottable->keyAxis()->axisRect() != rect
                || (needy && !wanted[i].spots.isEmpty() && !wanted[j].spots.isEmpty()))
                continue;
            auto scene = scenes.find(rect);
            if (scene == scenes.end())
                scene = scenes.emplace(rect, sceneOf(rect, {})).first;
            for (const QCPAbstractPlottable *a : wanted[i].curves)
                for (const QCPAbstractPlottable *b : wanted[j].curves)
                    if (!isBand(a) && !isBand(b))
                        if (const double d = apart(scene->second, a, b, most); d < best) {
                            best = d;
                            first = i;
                            second = j;
                        }
        }
    if (first < 0)
        return false;
    // Named from the highest drawn down (their mean height in the plot), as a column reads them.
    Wanted both = wanted[first].with(wanted[second]);
    QList<qsizetype> order(both.curves.size());
    std::iota(order.begin(), order.end(), 0);
    const auto height = [&](qsizetype i) {
        const QList<QPointF> &points = *pointsAt(both.curves[i]);
        double sum = 0.0;
        for (const QPointF &p : points)
            sum += p.y();
        return points.isEmpty() ? 0.0 : sum / double(points.size());
    };
    std::stable_sort(order.begin(), order.end(), [&](qsizetype a, qsizetype b) { return height(a) < height(b); });
    Wanted ordered = Wanted::of(both.curves[order[0]], both.curveForms[order[0]]);
    for (qsizetype k = 1; k < order.size(); ++k)
        ordered = ordered.with(Wanted::of(both.curves[order[k]], both.curveForms[order[k]]));
    wanted[first] = ordered;
    wanted.removeAt(second);
    return true;
}

// placeAll, and where it finds no places, again with the closest curves named together, until
// it does or no two are close enough.
bool placeMerging(QList<Wanted> &wanted, const QFont &font, Scenes &scenes)
{
    // Beside their curves first; only where that fails, a label of one line over it on a ground.
    const QList<Wanted> alone = wanted;
    for (const bool grounds : {false, true}) {
        wanted = alone;
        bool placed = false;
        while (!(placed = placeAll(wanted, font, {}, &scenes, false, grounds)))
            if (!mergeClosest(wanted, font, scenes))
                break;
        if (placed)
            return true;
    }
    return false;
}

} // namespace posenc::DirectLabels
