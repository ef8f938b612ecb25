#include "PanelGeometry.h"

#include "render/VisibleRequest.h"

#include <algorithm>
#include <cmath>

namespace posenc::PanelGeometry {

HeatmapRequest visibleRequest(const HeatmapPanel &panel, Quantity quantity, Shape table)
{
    return VisibleRequest::forPanel(panel, quantity, table, panel.axisRect()->parentPlot()->devicePixelRatioF());
}

std::optional<std::pair<std::int64_t, std::int64_t>> cellAt(const HeatmapPanel &panel, const QPointF &pixel,
                                                            Shape table)
{
    if (!panel.axisRect()->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const double col = panel.axisRect()->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
    const double row = panel.axisRect()->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y());
    const auto j = static_cast<std::int64_t>(std::floor(col + 0.5));
    const auto p = static_cast<std::int64_t>(std::floor(row + 0.5));
    if (p < 0 || p >= table.rows || j < 0 || j >= table.cols)
        return std::nullopt;
    return std::pair {p, j};
}

} // namespace posenc::PanelGeometry
