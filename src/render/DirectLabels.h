#pragma once

#include "QCustomPlot.h"

#include <QList>
#include <QStringList>

// A key's lines named where they are drawn (docs/ARCHITECTURE.md, "Figures at any size"): where a
// key of curves takes the room its plots need, each curve is labelled in its plot, in its colour,
// at the key's text size, beside its end (or the farthest place along it that is free), as
// matplotlib's users do with labellines or ax.annotate: no label over another curve or nearer to
// one than to its own, none over another text, none past its plot's edges, no two meeting. A band
// (a graph that fills without a pen) is labelled on its middle, over its own fill.
namespace posenc::DirectLabels {

// The property of a label: the plottable it names (a QObject pointer).
inline constexpr char kNamesProperty[] = "posencLabelNames";

// A key's entry that holds no data of its own and stands for `drawn`, the curve it names (a compact
// key's one entry for a line drawn in its panel, MagnitudesFigure's): its label names `drawn`.
void setStandsFor(QCPAbstractPlottable *entry, QCPAbstractPlottable *drawn);
// The curve `entry` names where it is drawn: the one it stands for, else itself.
QCPAbstractPlottable *drawnFor(QCPAbstractPlottable *entry);

// Whether the entry `item` names a curve or a band drawn in a plot (a QCPGraph or QCPCurve with
// data there): one a direct label can stand in for (a swatch names no curve).
bool labelable(QCPAbstractLegendItem *item);
// Whether every entry of `legend` does: a key that direct labels can stand in for.
bool labelable(const QCPLegend *legend);
// A label for each entry of `legend`, each placed where its curve is free on the layout its plots
// have without the key's row, in the longest of its entry's forms that finds a place (`forms` of
// each entry, longest first); none where one finds no place (nothing was added to the plot), or
// with `unplaced`, the labels undrawn, for place() to draw once the layout leaves them room.
QList<QCPItemText *> make(QCPLegend *legend, const QList<QStringList> &forms, bool unplaced);
// Labels for as many of `entries` (labelable ones of `legend`, `forms` theirs) as find places
// together on the layout as it is now, the key keeping its row: an entry whose curve holds no label
// alone is left out, then, until the others all stand apart, the one of fewest places. The labels
// are placed; none where not one finds a place. The entries they name are the key's to let go
// (a key of curves and shades keeps the shades, as an author labels the lines and keys the rest).
QList<QCPItemText *> makeSome(QCPLegend *legend, const QList<QCPPlottableLegendItem *> &entries,
                              const QList<QStringList> &forms);
// The plottable `text` names, if it is a direct label.
QCPAbstractPlottable *named(const QCPItemText *text);
// The labels of `plot` placed again for its layout as it is now, where they no longer stand clear
// (a plot grown or narrowed since) or were not drawn: all of a plot's, each in the longest of its
// forms that finds a place, or none of them drawn. True when any changed.
bool place(QCustomPlot *plot);
// The names of the curves drawn that a key given up for room named and no label drawn names (a
// key no place held, whose labels found none either): what a page short of room leaves unnamed,
// for its export to say so. Empty where every curve drawn is named.
QStringList unnamed(const QCustomPlot &plot);
// Whether every label drawn stands clear: within its plot, off every other curve and text, nearer
// its own curve than any other.
bool clear(const QCustomPlot &plot);

} // namespace posenc::DirectLabels
