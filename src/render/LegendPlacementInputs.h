#pragma once

#include "QCustomPlot.h"

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

} // namespace posenc::LegendPlacement
