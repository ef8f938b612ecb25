#pragma once

#include "render/FigurePlot.h"

#include "render/data/sandwich/SandwichDistanceModel.h"

namespace posenc {

// The sandwich-distance figure's drawing: a line per drawn head against the distance, coloured
// along viridis from head 1 (dark, the largest H/8) to head H (light, 1/8), head K wider, each
// pixel's least to most joined where it holds many distances; head K's far mean dashed.
class SandwichDistanceFigure final : public FigurePlot
{
public:
    explicit SandwichDistanceFigure(QCustomPlot *plot);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    QCPTextElement *m_title;
    QCPAxisRect *m_rect;
    QCPTextElement *m_caption;
    QCPLegend *m_legend;
    QList<QCPGraph *> m_lines;
    QCPGraph *m_farMean;
    bool m_compact = false;
    std::shared_ptr<const SandwichDistanceData> m_data;
};

} // namespace posenc
