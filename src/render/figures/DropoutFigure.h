#pragma once

#include "render/FigurePlot.h"
#include "render/HeatmapPanel.h"
#include "render/data/DropoutModel.h"

#include "render/QCustomPlot.h"

#include <memory>

namespace posenc {

// The dropout view: the keep mask and the output Y of the same cells side by side, with
// the measured drop fraction against p and the 1/(1-p) factor stated.
class DropoutFigure final : public FigurePlot
{
public:
    explicit DropoutFigure(QCustomPlot *plot);

    void setData(const DropoutData &data);
    HeatmapPanel &maskPanel() { return *m_mask; }
    HeatmapPanel &outputPanel() { return *m_output; }
    const HeatmapPanel &maskPanel() const { return *m_mask; }
    const HeatmapPanel &outputPanel() const { return *m_output; }

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    QCPTextElement *m_title;
    QCPTextElement *m_summary;
    std::unique_ptr<HeatmapPanel> m_mask;
    std::unique_ptr<HeatmapPanel> m_output;
    std::shared_ptr<const DropoutData> m_data;
};

} // namespace posenc
