#include "DirectLabelPlaces.h"

#include "DirectLabelCurves.h"
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

// The places along `plottable` from its end where a label of `size` stands clear of the rest of
// `scene`, the best first: beside the curve (above or below it, ending at or centred on a point of
// it), else over it, on a white ground; a band's on its middle.
QList<Spot> spotsFor(const Scene &scene, const QCPAbstractPlottable *plottable,
                     const QList<const QCPAbstractPlottable *> &own, QSizeF size)
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
    // Curves named together: anchors along each of them too (beside the lowest of two lines, under
    // both, where the highest has no room above it).
    std::vector<std::shared_ptr<const QList<QPointF>>> edges {kept, lower};
    for (const QCPAbstractPlottable *other : own)
        if (other != plottable && joined(other))
            edges.push_back(pointsAt(other));
    for (const auto &edge : edges) {
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
        return room.contains(box) && !scene.ownMeets(box.adjusted(-0.5, -0.5, 0.5, 0.5), own)
            && !scene.othersMeet(box.adjusted(-kGap + kNearer, -kGap + kNearer, kGap - kNearer, kGap - kNearer), own)
            && !scene.meetsText(box);
    };
    const auto clearOver = [&](const QRectF &box) {
        return room.contains(box) && !scene.othersMeet(box.adjusted(-1.0, -1.0, 1.0, 1.0), own)
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

} // namespace

// Between a label beside its curve and the points it stands beside: kGap off a mark's edge where
// marks are drawn (a line with marks at every point, Llama 3.1's wavelengths, had no place kGap
// off its line that its marks did not meet), else off the line.
double gapOf(const QCPAbstractPlottable *plottable)
{
    return kGap + (isBand(plottable) ? 0.0 : markerOf(plottable) / 2.0);
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
bool placeAll(QList<Wanted> &wanted, const QFont &font, const QList<const QCPItemText *> &placing,
              Scenes *reuse)
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
            label.spots = spotsFor(scene, label.plottable, label.own(), sizeOf(font, form));
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
                                                     : spotsFor(scenes.at(label->plottable->keyAxis()->axisRect()),
                                                                label->plottable, label->own(), sizeOf(font, label->forms[f]));
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
    while (!placeAll(wanted, font, {}, &scenes))
        if (!mergeClosest(wanted, font, scenes))
            return false;
    return true;
}

} // namespace posenc::DirectLabels
