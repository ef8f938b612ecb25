#pragma once

#include "HeatmapPanel.h"

namespace posenc::VisibleRequest {

// The request for what a heatmap panel shows: the table cells in view and the output pixels
// they cover (`pixelRatio` output pixels per layout unit: the screen's device pixel ratio,
// or an export's scale), so the grid never has more cells than the output has pixels. The
// window and the exporter both ask through here, so they compute the same grid.
HeatmapRequest forPanel(const HeatmapPanel &panel, Quantity quantity, Shape table, double pixelRatio);

} // namespace posenc::VisibleRequest
