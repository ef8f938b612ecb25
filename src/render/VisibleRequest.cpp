#include "VisibleRequest.h"

#include <algorithm>
#include <cmath>

namespace posenc::VisibleRequest {

HeatmapRequest forPanel(const HeatmapPanel &panel, Quantity quantity, Shape table, double pixelRatio)
{
    const QCPAxis *x = panel.axisRect()->axis(QCPAxis::atBottom);
    const QCPAxis *y = panel.axisRect()->axis(QCPAxis::atLeft);
    HeatmapRequest request;
    request.quantity = quantity;
    request.block
        = HeatmapResampler::visibleBlock(table, x->range().lower, x->range().upper, y->range().lower, y->range().upper);
    // Pixels the block's extent covers (less than the axis rect when zoomed out).
    const auto span = [pixelRatio](const QCPAxis *axis, std::int64_t first, std::int64_t end, int limit) {
        const double a = axis->coordToPixel(static_cast<double>(first) - 0.5);
        const double b = axis->coordToPixel(static_cast<double>(end) - 0.5);
        return std::clamp(static_cast<int>(std::ceil(std::abs(b - a) * pixelRatio)), 1, std::max(1, limit));
    };
    request.pixelCols = span(x, request.block.col0, request.block.colEnd(),
                             static_cast<int>(std::ceil(panel.axisRect()->width() * pixelRatio)));
    request.pixelRows = span(y, request.block.row0, request.block.rowEnd(),
                             static_cast<int>(std::ceil(panel.axisRect()->height() * pixelRatio)));
    return request;
}

} // namespace posenc::VisibleRequest
