#pragma once

#include "render/FigurePlot.h"

#include "render/data/sinusoidal/PrecisionModel.h"

namespace posenc {

// The precision figure's drawing: on top the largest |error| per band of positions on a log
// axis with the bound beside it; below, positions across and PE columns down, the largest
// |error| of each pixel on a logarithmic colour scale. Both share the positions.
class PrecisionFigure final : public FigurePlot
{
public:
    explicit PrecisionFigure(QCustomPlot *plot);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    QCPTextElement *m_title;
    QCPAxisRect *m_bands;
    QCPAxisRect *m_cells;
    QCPColorMap *m_map;
    QCPColorScale *m_scale;
    QCPLegend *m_legend;
    QCPGraph *m_measured, *m_bound;
    bool m_compact = false;
    std::shared_ptr<const PrecisionData> m_data;
};

} // namespace posenc
