#pragma once

#include "render/BiasMapPair.h"

#include "render/data/sandwich/SandwichBiasModel.h"

#include <memory>

namespace posenc {

// The sandwich-bias figure's drawing: head K's bias as NeMo's causal table holds it and
// bidirectional, side by side over the same queries and keys on one colour scale (viridis over the
// pixels' range), the causal panel's keys after the query marked as NeMo's distance 0, which the
// attention mask hides elsewhere. Zooming one panel zooms the other.
class SandwichBiasFigure final : public BiasMapFigure
{
public:
    explicit SandwichBiasFigure(QCustomPlot *plot);

    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    std::shared_ptr<const SandwichBiasData> m_data;
};

} // namespace posenc
