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
    // Where the legend and the words go: beside the lanes, or under them in a narrow figure.
    void placeSide(bool beside);
    // The empty row under the legend and the words, that holds them at the top of their column
    // while it stands beside the lanes.
    void addFiller();

    QCPTextElement *m_title;
    QCPLayoutGrid *m_row; // the lanes, and the side column when it is beside them
    QCPLayoutGrid *m_side; // the legend, the words and room below them
    bool m_beside = true;
    QCPAxisRect *m_rect;
    QCPColorMap *m_map;
    QCPLegend *m_legend;
    QCPTextElement *m_caption;
    bool m_compact = false;
    std::shared_ptr<const LayerStackData> m_data;
};

} // namespace posenc
