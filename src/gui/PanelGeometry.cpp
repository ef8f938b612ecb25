#include "PanelGeometry.h"

#include <algorithm>
#include <cmath>

namespace posenc::PanelGeometry {

HeatmapRequest visibleRequest(const HeatmapPanel &panel, Quantity quantity, Shape table)
{
    const QCPAxis *x = panel.axisRect()->axis(QCPAxis::atBottom);
    const QCPAxis *y = panel.axisRect()->axis(QCPAxis::atLeft);
    HeatmapRequest request;
    request.quantity = quantity;
    request.block
        = HeatmapResampler::visibleBlock(table, x->range().lower, x->range().upper, y->range().lower, y->range().upper);
    const double ratio = panel.axisRect()->parentPlot()->devicePixelRatioF();
    // Pixels the block's extent covers on screen (less than the axis rect when zoomed out).
    const auto span = [ratio](const QCPAxis *axis, std::int64_t first, std::int64_t end, int limit) {
        const double a = axis->coordToPixel(static_cast<double>(first) - 0.5);
        const double b = axis->coordToPixel(static_cast<double>(end) - 0.5);
        return std::clamp(static_cast<int>(std::ceil(std::abs(b - a) * ratio)), 1, std::max(1, limit));
    };
    request.pixelCols = span(x, request.block.col0, request.block.colEnd(),
                             static_cast<int>(std::ceil(panel.axisRect()->width() * ratio)));
    request.pixelRows = span(y, request.block.row0, request.block.rowEnd(),
                             static_cast<int>(std::ceil(panel.axisRect()->height() * ratio)));
    return request;
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
