#include "DirectLabelPlaces.h"

#include "DirectLabelCurves.h"
#include "DirectLabelLeader.h"
#include "MeasuredText.h"

#include <QFontMetrics>

#include <cmath>
#include <numeric>
#include <vector>

namespace posenc::DirectLabels {

namespace {

constexpr double kInset = 1.0; // between a label and its plot's edges
constexpr double kStep = 3.0; // between the places tried along a curve
constexpr int kMostPlaces = 400; // places tried along a curve, from its end
constexpr qsizetype kChoices = 48; // of them, those a search for labels kept apart tries
constexpr int kMostTries = 200000; // places the search tries in all
// A label off its curve: its anchors every kLeaderAnchors-th place along the curve, at most
// kMostAnchors of them, its box kLeaderReach units off its anchor in each of eight directions.
constexpr qsizetype kLeaderAnchors = 2;
constexpr qsizetype kMostAnchors = 80;
constexpr double kLeaderReach[] = {6.0, 11.0, 17.0, 24.0, 32.0, 42.0};
constexpr double kAnchorClear = 3.0; // between a leader's point and any other curve

} // namespace

bool leaderClear(const Scene &scene, const QLineF &line, const QList<const QCPAbstractPlottable *> &own)
{
    const double length = line.length();
    for (double at = 0.0; at <= length + 0.5; at += 1.0) {
        const QPointF p = line.pointAt(std::min(at, length) / length);
        const QRectF dot(p.x() - 0.75, p.y() - 0.75, 1.5, 1.5);
        if (scene.othersMeet(QRectF(p, QSizeF(0.0, 0.0)), own, 0.75) || scene.meetsText(dot))
            return false;
    }
    return true;
}

namespace {

// The places off a curve for a label of `size` joined to it by a leader from one of `anchors` (its
// points from its end, every kStep along it), the shortest leaders first: the box clear of every
// curve, its own too, by kGap and of every text, within the plot, its leader clear of the other
// curves and the texts.
QList<Spot> leaderSpots(const Scene &scene, const QList<const QCPAbstractPlottable *> &own,
                        const QList<QPointF> &anchors, QSizeF size)
{
    const QRectF room = QRectF(scene.rect).adjusted(kInset, kInset, -kInset, -kInset);
    const double w = size.width(), h = size.height();
    const double slant = std::sqrt(0.5);
    std::vector<std::pair<double, Spot>> found;
    for (qsizetype k = 0, taken = 0; k < anchors.size() && taken < kMostAnchors; k += kLeaderAnchors, ++taken) {
        const QPointF p = anchors[k];
        // Not where another curve or line meets its own: a leader there would name either.
        if (scene.othersMeet(QRectF(p, QSizeF(0.0, 0.0)), own, kAnchorClear))
            continue;
        for (const double d : kLeaderReach) {
            const double s = d * slant;
            for (const QRectF &box :
                 {QRectF(p.x() + d, p.y() - h / 2.0, w, h), QRectF(p.x() - d - w, p.y() - h / 2.0, w, h),
                  QRectF(p.x() - w / 2.0, p.y() - d - h, w, h), QRectF(p.x() - w / 2.0, p.y() + d, w, h),
                  QRectF(p.x() + s, p.y() - s - h, w, h), QRectF(p.x() - s - w, p.y() - s - h, w, h),
                  QRectF(p.x() + s, p.y() + s, w, h), QRectF(p.x() - s - w, p.y() + s, w, h)}) {
                if (!room.contains(box) || scene.meetsText(box) || scene.ownMeets(box, own, kGap)
                    || scene.othersMeet(box, own, kGap))
                    continue;
                const QLineF line = leaderOf(box, p);
                if (line.isNull() || !leaderClear(scene, line, own))
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
    if (leaders)
        return leaderSpots(scene, own, anchors, size);
    const double w = size.width(), h = size.height();
    if (grounds) {
        // Over one line alone, centred on a point of it: a ground over curves named together hides
        // where each of them goes; over marks or a band it would hide what it names.
        QList<Spot> over;
        const QRectF room = QRectF(scene.rect).adjusted(kInset, kInset, -kInset, -kInset);
        for (const QPointF &p : anchors)
            if (const QRectF centred(p.x() - w / 2.0, p.y() - h / 2.0, w, h);
                room.contains(centred) && !scene.othersMeet(centred, own, 1.0) && !scene.meetsText(centred))
                over.append({centred, true, std::nullopt});
        return over;
    }
    const QRectF room = QRectF(scene.rect).adjusted(kInset, kInset, -kInset, -kInset);
    const auto clearBeside = [&](const QRectF &box) {
        return room.contains(box) && !scene.ownMeets(box, own, 0.5) && !scene.othersMeet(box, own, kGap - kNearer)
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
// line, with `leaders` off it with a leader, and with `grounds` over it on a white ground.
QList<Spot> spotsOf(const Scene &scene, const Wanted &label, QSizeF size, bool leaders, bool grounds)
{
    QList<const QCPAbstractPlottable *> curves = label.own();
    curves.prepend(label.plottable); // the curve its places run along, then those it names
    const auto key = std::tuple(curves, size.width(), size.height(), leaders, grounds);
    if (const auto kept = scene.spotsKept.find(key); kept != scene.spotsKept.end())
        return kept->second;
    QList<Spot> spots = spotsFor(scene, label.plottable, label.own(), size);
    const bool line = label.curves.size() == 1 && joined(label.plottable) && !isBand(label.plottable);
    if (leaders && line)
        spots += spotsFor(scene, label.plottable, label.own(), size, true);
    if (grounds && line)
        spots += spotsFor(scene, label.plottable, label.own(), size, false, true);
    scene.spotsKept.emplace(key, spots);
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
        // Depth first: label i at choice at[i] + 1 on.
        for (qsizetype i = 0; i >= 0 && i < order.size() && tries < kMostTries;) {
            const QCPAxisRect *rect = order[i]->plottable->keyAxis()->axisRect();
            qsizetype k = at[i] + 1;
            for (; k < choices[i].size(); ++k, ++tries) {
                bool apart = true;
                for (qsizetype j = 0; j < i && apart; ++j)
                    apart = order[j]->plottable->keyAxis()->axisRect() != rect
                        || apartSpots(choices[j][at[j]], choices[i][k]);
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
