#pragma once

#include "QCustomPlot.h"

#include "data/FigureModel.h"
#include "data/FigureState.h"

namespace posenc::MapOptions {

// The options every figure that draws a colour map takes (ViewOptions::mapOptions), applied to
// `plot` once the figure has drawn its data from `state`: the numbers in its cells where they fit
// (CellNumbers), and --colormap on every map of a figure that does not choose it itself (the
// heatmap and dropout figures colour their legends too).
void apply(QCustomPlot *plot, const FigureModel &model, const FigureState &state);

} // namespace posenc::MapOptions
