#pragma once

#include "QCustomPlot.h"

#include "Colormaps.h"
#include "data/FigureModel.h"
#include "data/FigureState.h"

#include <optional>

namespace posenc::MapOptions {

// The options every figure that draws a colour map takes (ViewOptions::mapOptions), applied to
// `plot` once the figure has drawn its data from `state`: the numbers in its cells where they fit
// (CellNumbers), and --colormap on every map of a figure that does not choose it itself (the
// heatmap and dropout figures colour their legends too).
void apply(QCustomPlot *plot, const FigureModel &model, const FigureState &state);
// The colour map --colormap chose in `state` for a figure that does not choose its own (apply's),
// none for auto: what a figure's job colours its maps with (a figure's prepare).
std::optional<Colormap> chosenColormap(const FigureState &state);

} // namespace posenc::MapOptions
