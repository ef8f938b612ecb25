#pragma once

#include "render/FigurePlot.h"

#include "render/data/rope/RopeScalingsModel.h"

namespace posenc {

// The rope-scalings figure's drawing: pair i across, each type's wavelength up on a log axis,
// the parameters' own type drawn widest, the contexts as horizontal lines; one legend under the
// axes, each type with its attention factor where it is not 1.
class RopeScalingsFigure final : public FigurePlot
{
public:
    explicit RopeScalingsFigure(QCustomPlot *plot);

    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    bool isInteractive() const override { return false; }

private:
    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    QCPTextElement *m_note; // what the figure assumed, and the types left out
    QCPAxisRect *m_rect;
    QCPLegend *m_legend;
    bool m_compact = false;
    std::shared_ptr<const RopeScalingsData> m_data;
};

} // namespace posenc
