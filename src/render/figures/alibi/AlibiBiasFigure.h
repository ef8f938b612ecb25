#pragma once

#include "render/BiasMapPair.h"

#include "render/data/alibi/AlibiBiasModel.h"

#include <memory>

namespace posenc {

// The alibi-bias figure's drawing: head K's bias under the causal mask and symmetric, side by
// side over the same queries and keys on one colour scale (viridis from -m times the farthest
// distance in view up to 0), the masked cells in a neutral grey that is not on the scale, named
// in the legend. Zooming one panel zooms the other.
class AlibiBiasFigure final : public BiasMapFigure
{
public:
    explicit AlibiBiasFigure(QCustomPlot *plot);

    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

    // The grey of the masked cells: neutral, so never a colour of viridis.
    static QColor maskedColor();

private:
    std::shared_ptr<const AlibiBiasData> m_data;
};

} // namespace posenc
