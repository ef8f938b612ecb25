#pragma once

#include "render/BiasMapPair.h"
#include "render/FigurePlot.h"

#include "render/data/sandwich/SandwichBiasModel.h"

#include <memory>

namespace posenc {

// The sandwich-bias figure's drawing: head K's bias as NeMo's causal table holds it and
// bidirectional, side by side over the same queries and keys on one colour scale (viridis over the
// pixels' range), the causal panel's keys after the query marked as NeMo's distance 0, which the
// attention mask hides elsewhere. Zooming one panel zooms the other.
class SandwichBiasFigure final : public FigurePlot
{
public:
    explicit SandwichBiasFigure(QCustomPlot *plot);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    QList<QCPAxisRect *> pictureRects() const override;

private:
    QCPTextElement *m_title;
    BiasMapPair m_maps;
    bool m_compact = false;
    std::shared_ptr<const SandwichBiasData> m_data;
};

} // namespace posenc
