#pragma once

#include "DirectLabelCells.h"
#include "QCustomPlot.h"

#include <QList>
#include <QPointF>
#include <QRect>
#include <QRectF>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

// What a plot draws that its direct labels must keep off (DirectLabels), made once a layout: each
// curve's cells are kept between layouts for the geometry they were drawn at (`cellsOf`; within a
// fitting for its last few, Fitting), so that a settled layout asked again, or a trial that moved
// no plot, draws no curve again.
namespace posenc::DirectLabels {

inline constexpr double kApart = 2.0; // between two labels, or a label and another text

// Where a label may stand: its box, and whether it stands over its own line (on a white ground,
// where it finds no other place); for a label that stands off its curve, the point of its curve its
// leader runs to (DirectLabelLeader.h).
struct Spot
{
    QRectF box;
    bool over = false;
    std::optional<QPointF> anchor;
};

struct Scene
{
    QRect rect;
    std::map<const QCPAbstractPlottable *, std::shared_ptr<const Cells>> curves;
    // A band's fill: only its own label keeps off it.
    std::map<const QCPAbstractPlottable *, std::shared_ptr<const Cells>> bands;
    // How far each curve's line inks past its centre cells (inkOf), and, of those drawn with a solid
    // pen, where each is drawn among the others (its layer's, then its place in the layer): such a
    // curve drawn later hides the thinner ones under it (a dashed one leaves them seen between dashes).
    std::map<const QCPAbstractPlottable *, double> inks;
    std::map<const QCPAbstractPlottable *, std::pair<int, qsizetype>> drawOrder, solid;
    std::optional<Cells> lines; // the lines of the items over the plot
    QList<QRectF> texts; // the texts and keys over it, but for the labels being placed
    bool covered = false; // a colour map or bars: no room for a label anywhere
    // How far apart two of its curves are (apart), kept for the scene: the closest two of a plot
    // are sought again after every two named together, over every pair left.
    mutable std::map<std::tuple<const void *, const void *, double>, double> apartKept;
    // The places a label may take (DirectLabelPlaces' spotsOf), by the curve they run along and
    // the curves it names in their order, its size and their kind (beside the curves: neither flag;
    // off them with a leader: the first; over them on a ground: the second), kept for the scene:
    // makeSome asks placeAll again on one layout for the same labels, one fewer each time, and each
    // asked every place; DirectLabels::place asks the kinds before again with each kind it adds.
    mutable std::map<std::tuple<QList<const QCPAbstractPlottable *>, double, double, bool, bool>, QList<Spot>>
        spotsKept;

    // `box` grown by `pad`, or by the ink `curve`'s line draws past its centre cells where that is
    // more: what meets it comes within `pad` of the line's ink, or meets it.
    QRectF inked(const QRectF &box, const QCPAbstractPlottable *curve, double pad) const
    {
        const auto ink = inks.find(curve);
        const double r = std::max(pad, ink == inks.end() ? 0.0 : ink->second);
        return box.adjusted(-r, -r, r, r);
    }
    // Whether `box`, grown by `pad` (by a thick line's ink where more), meets a curve other than
    // `own` (the curves one label names), or `box` grown by `pad` a line.
    bool othersMeet(const QRectF &box, const QList<const QCPAbstractPlottable *> &own, double pad = 0.0) const
    {
        if (lines && lines->meets(box.adjusted(-pad, -pad, pad, pad)))
            return true;
        return std::any_of(curves.begin(), curves.end(), [&](const auto &curve) {
            return !own.contains(curve.first) && curve.second->meets(inked(box, curve.first, pad));
        });
    }
    // Whether `box`, grown so, meets `own`'s lines, marks or fill.
    bool ownMeets(const QRectF &box, const QList<const QCPAbstractPlottable *> &own, double pad = 0.0) const
    {
        return std::any_of(own.begin(), own.end(), [&](const QCPAbstractPlottable *curve) {
            const auto it = curves.find(curve);
            const auto band = bands.find(curve);
            return (it != curves.end() && it->second->meets(inked(box, curve, pad)))
                || (band != bands.end() && band->second->meets(box.adjusted(-pad, -pad, pad, pad)));
        });
    }
    // Whether the point `p` of `curve` is hidden: a curve drawn over it with a solid pen at least as
    // wide, not one of `own`, inks all of its line's width there.
    bool hidden(const QPointF &p, const QCPAbstractPlottable *curve,
                const QList<const QCPAbstractPlottable *> &own) const
    {
        const auto mine = drawOrder.find(curve);
        if (mine == drawOrder.end())
            return false;
        const double width = inks.at(curve);
        return std::any_of(solid.begin(), solid.end(), [&](const auto &other) {
            const double over = inks.at(other.first) - width; // how far past its ink theirs reaches
            const QRectF dot(p.x() - 0.5 - over, p.y() - 0.5 - over, 1.0 + 2.0 * over, 1.0 + 2.0 * over);
            return over >= 0.0 && other.second > mine->second && other.first != curve && !own.contains(other.first)
                && curves.at(other.first)->meets(dot);
        });
    }
    bool meetsText(const QRectF &box) const
    {
        const QRectF grown = box.adjusted(-kApart, -kApart, kApart, kApart);
        return std::any_of(texts.begin(), texts.end(), [&](const QRectF &text) { return text.intersects(grown); });
    }
};

// What a label naming `own` keeps off in `scene` as Scene::othersMeet asks it, for each pad asked
// the lines and the other curves whose ink reaches no farther than the pad in one set of cells
// (Cells::unite; a box grown by the pad meets them where it meets one of them), the thicker ones
// each alone: a label's places off its curve ask it at every unit of every leader tried, and each
// curve's cells read in turn there were a quarter of the direct labels' work in a change of DeBERTa's
// window.
class OthersCells
{
public:
    OthersCells(const Scene &scene, const QList<const QCPAbstractPlottable *> &own)
        : m_scene(scene)
        , m_own(own)
    { }
    // scene.othersMeet(box, own, pad).
    bool meet(const QRectF &box, double pad) const
    {
        const Group &group = groupFor(pad);
        if (group.united && group.united->meets(box.adjusted(-pad, -pad, pad, pad)))
            return true;
        return std::any_of(group.alone.begin(), group.alone.end(), [&](const auto &curve) {
            return curve.second->meets(m_scene.inked(box, curve.first, pad));
        });
    }

private:
    struct Group
    {
        double pad = 0.0;
        std::optional<Cells> united; // the lines', and the thin curves' (othersMeet grows a box by the pad for each)
        std::vector<std::pair<const QCPAbstractPlottable *, const Cells *>> alone; // grown by their ink
    };
    const Group &groupFor(double pad) const
    {
        for (const Group &group : m_groups)
            if (group.pad == pad)
                return group;
        Group group {pad, m_scene.lines, {}};
        for (const auto &[curve, cells] : m_scene.curves) {
            if (m_own.contains(curve))
                continue;
            const auto ink = m_scene.inks.find(curve);
            // Scene::inked grows its box by max(pad, ink): by the pad itself where the ink is no more.
            const bool thin = pad >= 0.0 && (ink == m_scene.inks.end() || ink->second <= pad);
            if (thin && !group.united)
                group.united = *cells;
            else if (thin && group.united->sameRect(*cells))
                group.united->unite(*cells);
            else
                group.alone.emplace_back(curve, cells.get());
        }
        return m_groups.emplace_back(std::move(group));
    }

    const Scene &m_scene;
    QList<const QCPAbstractPlottable *> m_own;
    mutable std::deque<Group> m_groups; // a deque: the groups handed out stay where they are
};

// The scene of `rect`, the texts of `placing` left out of it.
Scene sceneOf(QCPAxisRect *rect, const QList<const QCPItemText *> &placing);
// Whether two scenes hold the same: a plot's rect, its curves' cells as kept (the same object:
// a curve drawn at one geometry within a fitting), their inks and order, its lines, texts and cover.
bool sameScene(const Scene &a, const Scene &b);

// The points of `plottable` in layout units, for its plot as it is laid out now (kept with its
// cells: a label's places along a curve read them for each of its forms).
std::shared_ptr<const QList<QPointF>> pointsAt(const QCPAbstractPlottable *plottable);

// Whether `plottable` has a point drawn (finite key and value), without mapping any.
bool hasPoint(const QCPAbstractPlottable *plottable);

QRectF boxOf(const QCPItemText *text);

// How far apart two curves of one plot are drawn, in layout units: the farthest that a point along
// either (every two units) stands from the other's nearest cell, up to `most`. Curves the same
// within a line width are a unit or two apart; curves that part somewhere are as far as they part.
// Measured once a scene for each two curves and `most`, and within a fitting once for the two as drawn.
double apart(const Scene &scene, const QCPAbstractPlottable *a, const QCPAbstractPlottable *b, double most);

// A fitting of a figure to its room on the calling thread while it lives (FigureLayoutLoop): each
// curve's points and cells are kept for the last few geometries it was drawn at, not its last
// alone, and how far apart two curves are drawn for the two as drawn; once it ends, each curve's
// last geometry is kept, as outside one. The trial layouts of a key that lets go of its curves'
// entries (makeSome) and the layouts settled between them come back to geometries drawn before.
class Fitting
{
public:
    Fitting();
    ~Fitting();
    Fitting(const Fitting &) = delete;
    Fitting &operator=(const Fitting &) = delete;
};

// The fitting (Fitting) the calling thread is in, a number none before on it had; 0 outside one.
quint64 fittingNow();

// The points of curves drawn into cells so far (each point of a line, marks or band's edge), on
// any thread: a curve is drawn once for each geometry it is asked at, within a fitting once for
// each of its last few.
quint64 pointsDrawn();

// The points of curves mapped through their axes' ranges and scales so far, on any thread: a
// curve's points are mapped once for each range its axes are asked at (within a fitting, each of
// its last few), whatever size and place its plot is laid out at.
quint64 pointsMapped();

} // namespace posenc::DirectLabels
