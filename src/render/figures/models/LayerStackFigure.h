#pragma once

#include "render/FigurePlot.h"

#include "render/data/models/LayerStackModel.h"

namespace posenc {

// The layer-stack figure's drawing: a row per layer, layer 0 at the bottom, in two lanes coloured
// by what places its position and by how far it attends; a legend of the colours, and each layer
// type in words under the plot: its layers, rotary dim, scaling, window or chunk, query scaling.
class LayerStackFigure final : public FigurePlot
{
public:
    explicit LayerStackFigure(QCustomPlot *plot);

    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    bool isInteractive() const override { return false; }

private:
    QCPTextElement *m_title;
    QCPAxisRect *m_rect;
    QCPColorMap *m_map;
    QCPLegend *m_legend;
    QCPTextElement *m_caption;
    bool m_compact = false;
    std::shared_ptr<const LayerStackData> m_data;
};

} // namespace posenc
