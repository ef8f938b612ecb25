#pragma once

#include "QCustomPlot.h"

#include <QVariant>

#include <functional>
#include <optional>

namespace posenc::LegendPlacement {

// A fitting of a figure to its room (FigureLayoutLoop) lays it out and fits it hundreds of times on
// a page short of room, and each time places its keys anew (placeBest): the place is read from every
// point of its plot's lines, for every size the key may take. Between two layouts that leave a key's
// plot where it was, nothing it is placed by has changed. Within one fitting, in which the figure's
// data stays as it is, placeBest remembers what each key was placed by and the key as it left it;
// asked again with both the same, it would place the key as it stands and changes nothing.
// Begins a fitting on the calling thread: what was remembered is forgotten.
void beginFitting();

// A fitting on the calling thread while it lives (beginFitting): the data drawn in each plot is
// read once for each state of its plot in it (drawnIn), for every key, size and place weighed, and
// for every layout of the ladder of FigureRoom's steps; read afresh once it ends.
class Fitting
{
public:
    Fitting();
    ~Fitting();
    Fitting(const Fitting &) = delete;
    Fitting &operator=(const Fitting &) = delete;
};

// Whether `legend` in `rect` is as placeBest left it in this fitting, with all it reads unchanged.
bool placedAsIs(const QCPLegend *legend, QCPAxisRect *rect);
// Remembers `legend` in `rect` as placeBest leaves it.
void rememberPlaced(const QCPLegend *legend, QCPAxisRect *rect);

// What placeBest decides for a key in its plot: the most columns it takes (none to keep its own),
// whether its place covers no data (it keeps its ground there), and its place.
struct Decision
{
    QVariant most;
    bool free = false;
    std::optional<Qt::Alignment> place;
};

// The decision for `legend` in `rect`: made by `decide`, or, within a fitting, the one made before
// in it for the key and its plot as they are now. A fitting gives up its room step by step and goes
// back to the figure as made to take some steps again (FigureLayoutLoop::giveUpTo): each layout on
// the way back places its keys again, in plots laid out as they were before. The decision is a
// function of what it reads, all of it the key (decisionKey): the plot's pixels and what it draws
// (the drawn data's state, as drawnIn reads it), the items clipped to it where they stand, the
// key's entries' sizes, margins and spacing, its fill order and its own size.
Decision decided(const QCPLegend *legend, QCPAxisRect *rect, const std::function<Decision()> &decide);
// The decisions made (decide) and those found remembered in this program, on any thread.
quint64 decisionsMade();
quint64 decisionsRemembered();

} // namespace posenc::LegendPlacement
