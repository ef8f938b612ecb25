#pragma once

#include "render/HeatmapPanel.h"

#include <QPointF>

#include <optional>

namespace posenc::PanelGeometry {

// The request for what a heatmap panel shows now: the table cells in view and the device
// pixels they cover, so the grid never has more cells than the screen has pixels.
HeatmapRequest visibleRequest(const HeatmapPanel &panel, Quantity quantity, Shape table);

// The table cell (position, column) under a widget pixel, if it is inside the panel and the table.
std::optional<std::pair<std::int64_t, std::int64_t>> cellAt(const HeatmapPanel &panel, const QPointF &pixel,
                                                            Shape table);

} // namespace posenc::PanelGeometry
