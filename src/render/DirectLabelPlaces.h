#pragma once

#include "DirectLabelScene.h"
#include "QCustomPlot.h"

#include <QFont>
#include <QLineF>
#include <QList>
#include <QPointer>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

// Where DirectLabels' labels may stand, and the search that keeps them apart (DirectLabels.h).
namespace posenc::DirectLabels {

inline constexpr double kGap = 2.0; // layout units between a label and its curve
inline constexpr double kNearer = 1.5; // no other curve nearer than its own by this much (one along it may be as near)
// Between the names of curves labelled together.
inline constexpr char kJoin[] = ", ";

struct Wanted
{
    QCPAbstractPlottable *plottable = nullptr; // the curve it stands along: the first it names
    QStringList forms;
    QString text; // the form taken
    QList<Spot> spots; // where it may stand
    std::optional<Spot> at;
    // The curves it names (more than one where they are drawn too close to label apart) and each
    // one's entry's forms, from the highest drawn down.
    QList<QCPAbstractPlottable *> curves;
    QList<QStringList> curveForms;
    // Of its forms, those of curves named together in a row ("linear, proportional"); those after
    // name them in a column, a line each, where a row finds no place.
    qsizetype rows = 0;

    static Wanted of(QCPAbstractPlottable *plottable, const QStringList &forms)
    {
        return {plottable, forms, {}, {}, {}, {plottable}, {forms}, forms.size()};
    }
    QList<const QCPAbstractPlottable *> own() const { return {curves.begin(), curves.end()}; }
    bool stacked(qsizetype form) const { return form >= rows; }
    // The texts of its labels, one a curve in that curve's colour, for its `form`-th form: its
    // curves' names at one level of their forms (or their last), in a row each but the last with
    // its comma.
    QStringList pieces(qsizetype form) const
    {
        const qsizetype level = stacked(form) ? form - rows : form;
        QStringList pieces;
        for (qsizetype i = 0; i < curveForms.size(); ++i)
            pieces.append(curveForms[i][std::min(level, curveForms[i].size() - 1)]
                          + (i + 1 < curveForms.size() && !stacked(form) ? QString::fromLatin1(kJoin).trimmed()
                                                                         : QString()));
        return pieces;
    }
    // Named together with `other`'s curves, in that order: each level of their forms in a row, then
    // each in a column.
    Wanted with(const Wanted &other) const
    {
        Wanted both = of(plottable, {});
        both.curves = curves + other.curves;
        both.curveForms = curveForms + other.curveForms;
        qsizetype levels = 0;
        for (const QStringList &forms : both.curveForms)
            levels = std::max(levels, forms.size());
        both.rows = levels;
        for (qsizetype level = 0; level < 2 * levels; ++level)
            both.forms.append(both.pieces(level).join(level < levels ? u' ' : u'\n'));
        return both;
    }
};

using Scenes = std::map<QCPAxisRect *, Scene>;

// Between a label beside its curve and the points it stands beside.
double gapOf(const QCPAbstractPlottable *plottable);
// A text's size as QCPItemText lays it out; of lines (curves named in a column), each laid out so, kLead apart.
inline constexpr double kLead = 1.0;
QSizeF sizeOf(const QFont &font, const QString &text);
// Each wanted label's form and spot, the labels with the fewest places first, none meeting another; false
// where one finds none. `reuse`: the scenes a call before made for this layout and `placing`, kept.
// With `leaders`, a label naming one curve may also stand off it in the free room nearby, joined to
// it by a leader line, where its places beside it are taken (those are tried first); with `grounds`,
// over it on a white ground (after those).
// Within a fitting (Fitting), a search for the same labels on the same scenes is made once: the
// room ladder's climbs let a key go for labels (make, makeSome) on the same layouts again and again.
bool placeAll(QList<Wanted> &wanted, const QFont &font, const QList<const QCPItemText *> &placing,
              Scenes *reuse = nullptr, bool leaders = false, bool grounds = false);
// The searches placeAll found kept, on any thread.
quint64 searchesKept();
// Labels' places found together: whether all found one, and each one's form and spot.
struct Placement
{
    bool placed = false;
    QList<Wanted> wanted;
};
// A label to place, as its text holds it: the curve it names, its forms and the curves it is
// named together with (a group of QObject pointers, or none).
struct LabelKey
{
    QPointer<QObject> curve;
    QStringList forms;
    QVariant group;
    bool operator==(const LabelKey &) const = default;
};
// The placement `find` makes of `labels` in `font` on `scenes` (those of their plots, the labels
// left out), kept within a fitting (Fitting): the same labels on the same scenes are placed as
// before without a search. A fitting settles the same layout again and again (a step that changes
// nothing the labels keep off, the best steps taken again from the figure as it was made), and the
// search of each, up to kMostTries places a pass, was most of the window's longest spans.
Placement placeKept(const QList<LabelKey> &labels, const QFont &font, Scenes &scenes,
                    const std::function<Placement()> &find);
// The placements placeKept found kept, on any thread.
quint64 placementsKept();
// The places of one kind (beside a curve, off it with a leader, over it on a ground) sought for a
// label's curves and size in a scene so far, on any thread: each kind once a scene and label.
quint64 placesSought();
// The closest two of `wanted` whose curves are drawn too close for a label each named together;
// false where no two are.
bool mergeClosest(QList<Wanted> &wanted, const QFont &font, Scenes &scenes);
// placeAll, and where it finds no places, again with the closest curves named together; where
// that finds none, the same with a ground over a line allowed.
bool placeMerging(QList<Wanted> &wanted, const QFont &font, Scenes &scenes);
// Whether the leader `line` keeps off every curve but `own`, every line and every text of `scene`.
bool leaderClear(const Scene &scene, const QLineF &line, const QList<const QCPAbstractPlottable *> &own);
// Whether the spots `a` and `b` of two labels of one plot stand apart: their boxes kApart apart,
// neither's leader over the other's box, their leaders not crossing.
bool apartSpots(const Spot &a, const Spot &b);

} // namespace posenc::DirectLabels
