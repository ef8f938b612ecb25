#pragma once

#include "DirectLabelCells.h"
#include "QCustomPlot.h"

#include <QList>
#include <QPointF>
#include <QRect>
#include <QRectF>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

// What a plot draws that its direct labels must keep off (DirectLabels), made once a layout: each
// curve's cells are kept between layouts for the geometry they were drawn at (`cellsOf`; within a
// fitting for its last few, Fitting), so that a settled layout asked again, or a trial that moved
// no plot, draws no curve again.
namespace posenc::DirectLabels {

inline constexpr double kApart = 2.0; // between two labels, or a label and another text

// Where a label may stand: its box, and whether it stands over its own line (on a white ground);
// for a label that stands off its curve, the point of its curve its leader runs to (DirectLabelLeader.h).
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
    std::optional<Cells> lines; // the lines of the items over the plot
    QList<QRectF> texts; // the texts and keys over it, but for the labels being placed
    bool covered = false; // a colour map or bars: no room for a label anywhere
    // How far apart two of its curves are (apart), kept for the scene: the closest two of a plot
    // are sought again after every two named together, over every pair left.
    mutable std::map<std::tuple<const void *, const void *, double>, double> apartKept;
    // The places a label may take (DirectLabelPlaces' spotsOf), by the curve they run along and
    // the curves it names in their order, its size and whether it may stand off them, kept for the
    // scene: makeSome asks placeAll again on one layout for the same labels, one fewer each time,
    // and each asked every place.
    mutable std::map<std::tuple<QList<const QCPAbstractPlottable *>, double, double, bool>, QList<Spot>> spotsKept;

    // Whether `box` meets a cell of a curve other than `own` (the curves one label names), or of a line.
    bool othersMeet(const QRectF &box, const QList<const QCPAbstractPlottable *> &own) const
    {
        if (lines && lines->meets(box))
            return true;
        return std::any_of(curves.begin(), curves.end(),
                           [&](const auto &curve) { return !own.contains(curve.first) && curve.second->meets(box); });
    }
    // Whether `box` meets a cell of `own`'s lines, marks or fill.
    bool ownMeets(const QRectF &box, const QList<const QCPAbstractPlottable *> &own) const
    {
        return std::any_of(own.begin(), own.end(), [&](const QCPAbstractPlottable *curve) {
            const auto it = curves.find(curve);
            const auto band = bands.find(curve);
            return (it != curves.end() && it->second->meets(box)) || (band != bands.end() && band->second->meets(box));
        });
    }
    bool meetsText(const QRectF &box) const
    {
        const QRectF grown = box.adjusted(-kApart, -kApart, kApart, kApart);
        return std::any_of(texts.begin(), texts.end(), [&](const QRectF &text) { return text.intersects(grown); });
    }
};

// The scene of `rect`, the texts of `placing` left out of it.
Scene sceneOf(QCPAxisRect *rect, const QList<const QCPItemText *> &placing);

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

// The points of curves drawn into cells so far (each point of a line, marks or band's edge), on
// any thread: a curve is drawn once for each geometry it is asked at, within a fitting once for
// each of its last few.
quint64 pointsDrawn();

} // namespace posenc::DirectLabels
