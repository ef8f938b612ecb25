#pragma once

#include "render/FigurePlot.h"
#include "render/HeatmapPanel.h"

#include "render/data/HeatmapModel.h"

#include <optional>

namespace posenc {

// The heatmap figure's drawing: positions x columns of one quantity at screen resolution, a
// colorbar and a title that names the quantity as the parameters define it, the parameters it
// depends on, and how many table cells each shown cell averages.
class HeatmapFigure final : public FigurePlot
{
public:
    explicit HeatmapFigure(QCustomPlot *plot);

    void setData(const HeatmapFigureData &data, std::optional<Colormap> colormap = std::nullopt, bool meanOnly = false);
    // The heatmap's coverage of its panel's pixels as the request knows them, made in the job
    // (FigureDescriptor::prepare): fill() offers it to the panel's map.
    static std::shared_ptr<const PreparedDrawing> prepare(const FigureData &data, const FigureRequest &request);
    HeatmapPanel &panel() { return m_panel; }

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    QCPTextElement *m_title;
    HeatmapPanel m_panel;
    std::shared_ptr<const HeatmapFigureData> m_data;
};

} // namespace posenc
