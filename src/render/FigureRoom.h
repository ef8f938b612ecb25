#pragma once

#include "QCustomPlot.h"

#include <QString>
#include <QStringList>

namespace posenc {

// What a text or a legend of a figure is, so that little room gives up the least needed first.
enum class TextRole {
    Title, // the figure's title, row 0 of its layout
    PanelTitle, // what one of several panels shows
    Caption, // notes, counts and explanations beside or below the plots; a legend of marks
    Key, // a legend of what the data's colours and lines are (any legend not named otherwise)
};

// A figure on little room (docs/ARCHITECTURE.md, Exporting, "Figures at any size"): as a careful
// author would, it gives up first what a reader needs least, step by step, until the plots have
// at least half of the figure and nothing overflows it: the axes tighten to their labels, the
// panels of a grid close up and colour bars narrow, legends take as many columns as their room
// holds, the captions and legends of marks go, panels side by side or stacked share their axes'
// labels, the title keeps its first parts then its first line, the panels' titles one line, the
// title goes (a file keeps it in its metadata), the panels the figure can do without go
// (setDispensable), the panels' titles go. What a reader cannot do without is never given up:
// every axis drawn and every colour bar keeps its label (at most shortened to its first part) and
// its tick labels (thinned). Where no step gives the plots half of the figure, the figure is
// drawn as the step that gave them the most left it; only a figure whose labels overflow its
// page whatever is given up is too small (FigureBuild). Every step is undone before the next
// filling is fitted, so that a view made large again shows everything, and a view and its export
// at one size give up the same.
namespace FigureRoom {

void setRole(QCPLayoutElement *element, TextRole role);
// A text not named otherwise is the title in row 0 of the figure's layout, else a caption; a
// legend not named otherwise a key.
TextRole roleOf(const QCPLayoutElement *element);

// A panel (an axis rect, a grid holding one with its title and colorbar, or its title alone) the
// figure can do without on little room, given up in `order` (1 first, then 2), after its texts:
// a second table beside the one that says the same, the secondary row of a comparison.
void setDispensable(QCPLayoutElement *panel, int order);

// The steps, in the order they are given up.
int steps();
// Gives up step `step` (1..steps()); false when it changed nothing here.
bool giveUp(QCustomPlot *plot, int step);
// Undoes every step given up: the texts as the figure last set them.
void restore(QCustomPlot *plot);
// What any figure gives up at any size, before the steps: labels on the data cut by their axes.
bool tidy(QCustomPlot *plot);

// The part of the figure its plots take: their axis rects (colour scales aside) over the viewport.
double plotShare(const QCustomPlot &plot);
// At least this part of the figure is its plots.
constexpr double kMinPlotShare = 0.5;
// Whether the figure fits its viewport: its least size within it and its plots at least
// kMinPlotShare of it.
bool fits(const QCustomPlot &plot);
// Whether its least size is within its viewport (nothing overflows or overlaps).
bool within(const QCustomPlot &plot);

// The figure's title as it set it, whole, for a file's metadata; empty when it has none.
QString fullTitle(const QCustomPlot &plot);
// The texts given up or shortened, whole, in layout order, for a file's metadata.
QStringList setAside(const QCustomPlot &plot);

} // namespace FigureRoom

} // namespace posenc
