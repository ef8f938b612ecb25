#pragma once

#include "QCustomPlot.h"

#include <QSize>

#include <optional>

namespace posenc::LegendPlacement {

// The place in `rect` (a corner, the middle of a side or the centre, in matplotlib's order of
// "best") where a legend of `size` layout units, in the rect as it will be laid out `grownBy`
// units higher, covers none of the rect's data: no line or point of its graphs and curves, no
// area they fill (a band between two graphs) nor shade an item fills over it, no line or label of the
// items drawn over it. Nothing when every corner
// covers some, or the rect shows something drawn over all of it (a colour map).
std::optional<Qt::Alignment> freeCorner(QCPAxisRect *rect, QSize size, int grownBy);
// Of the same places, the one where such a legend hides the least of the rect's data, as
// matplotlib's loc="best" over data that leaves no place free (matplotlib/lib/matplotlib/legend.py,
// Legend._find_best_position: the first place of least badness). Badness here is what each line
// loses, a fraction of its length (of its points, unjoined), and each area filled, a fraction of
// it (what-dropout-does' key notched its p ± 4σ band), summed, and a tenth for each line or
// mark drawn over the rect that the legend meets. Nothing where every place hides more than `most`
// of some one line or area, meets a text drawn over the rect, or the rect shows a colour map or bars.
std::optional<Qt::Alignment> leastCovered(QCPAxisRect *rect, QSize size, int grownBy, double most);

// A key its figure sets inside its plot stands where it hides the least, not in a corner chosen
// before the data was known (matplotlib's loc="best"): what-dropout-does' key, pinned to the top
// left of the fraction chart, notched its p ± 4σ band. FigureFit places it at every fitting.
void setBest(QCPLegend *legend, bool best = true);
// Such a key, inside `rect`, moved to the first place that covers no data (freeCorner), in the
// most columns that leave it one (at most kMostColumns, which FigureFit's fitting keeps to), else
// to the place that hides the least (leastCovered), in the columns that hide the least, without
// its ground there (a white ground notched what-dropout-does' band); true when it moved or folded.
bool placeBest(QCPLegend *legend, QCPAxisRect *rect);
inline constexpr char kMostColumns[] = "posencMostColumns";

// The entries of `legend`, without the empty cells of its grid.
QList<QCPAbstractLegendItem *> entriesOf(const QCPLegend *legend);
// The columns `legend`'s entries take now, and the wrap (QCPLayoutGrid::setWrap) that lays them
// out in `columns` columns: the columns themselves filling row by row, else the rows they need.
int columnsOf(const QCPLegend *legend);
int wrapFor(const QCPLegend *legend, int columns);
// The least size of `legend` with its entries laid out afresh at `wrap`, as its grid would take it.
QSize stackedSize(const QCPLegend *legend, int wrap);

// The points of drawn data read for keys' places and weighed against their boxes (a run of
// points whose bounds a box misses is not) in this program, on any thread: the work of placing
// keys, that FigureRoom's steps and FigureFit do at every layout of a fitting.
quint64 pointsWeighed();

} // namespace posenc::LegendPlacement
