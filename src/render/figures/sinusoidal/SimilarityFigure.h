#pragma once

#include "render/FigurePlot.h"
#include "render/HeatmapPanel.h"

#include "render/data/sinusoidal/SimilarityModel.h"

namespace posenc {

class SquareHeatmapRow; // the heatmap's row, in SimilarityFigure.cpp

// The similarity figure's drawing: the square heatmap of S[p, q], and beside it (under it in a
// tall figure) S(k) against the offset k, the closed form as a line and the table's dot products
// at p = 0 and at a middle position as dots on it.
class SimilarityFigure final : public FigurePlot
{
public:
    explicit SimilarityFigure(QCustomPlot *plot);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    QCPTextElement *m_title;
    SquareHeatmapRow *m_row; // the heatmap and the offsets, side by side or stacked
    HeatmapPanel m_panel;
    QCPAxisRect *m_offsets;
    QCPLegend *m_legend;
    QCPGraph *m_closedForm, *m_first, *m_middle;
    bool m_compact = false;
    std::shared_ptr<const SimilarityData> m_data;
};

} // namespace posenc
