#pragma once

#include "render/FigurePlot.h"
#include "render/HeatmapPanel.h"

#include "render/data/positions/PositionIdsModel.h"

#include <memory>

namespace posenc {

// The position-ids figure's drawing: the batch's ids as a map of rows (down) by columns (across),
// viridis from 0 to the largest id, padding in a grey the map never gives; under it one row's ids
// against the column, the reference's black and the chosen ones orange where they differ, its
// padding shaded grey, its decode steps green, its documents' starts dotted. Zooming one panel's
// columns zooms the other's.
class PositionIdsFigure final : public FigurePlot
{
public:
    explicit PositionIdsFigure(QCustomPlot *plot);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    QList<QCPAxisRect *> pictureRects() const override;

private:
    void fillRow(const PositionIdsData &d);

    QCPTextElement *m_title;
    HeatmapPanel m_map;
    QCPAxisRect *m_rowRect;
    QCPTextElement *m_rowTitle;
    QCPGraph *m_reference, *m_chosen, *m_starts;
    QList<QCPItemRect *> m_shades;
    QCPLegend *m_legend;
    QCPTextElement *m_caption;
    bool m_compact = false;
    std::shared_ptr<const PositionIdsData> m_data;
};

} // namespace posenc
