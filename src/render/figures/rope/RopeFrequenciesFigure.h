#pragma once

#include "render/FigurePlot.h"

#include "render/data/rope/RopeFrequenciesModel.h"

namespace posenc {

// The rope-frequencies figure's drawing: pair i across, its wavelength up on a log axis, the
// scaled curve over the unscaled one; the contexts as horizontal lines, the bands of pairs a
// scaling treats alike shaded behind, the critical dimension and yarn's ramp edges as vertical
// lines; one legend under the axes.
class RopeFrequenciesFigure final : public FigurePlot
{
public:
    explicit RopeFrequenciesFigure(QCustomPlot *plot);

    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    // The figure shows every pair: nothing to zoom.
    bool isInteractive() const override { return false; }

private:
    QCPTextElement *m_title;
    QCPAxisRect *m_rect;
    QCPLegend *m_legend;
    QCPItemRect *m_blended, *m_divided;
    QCPGraph *m_before, *m_after, *m_partial, *m_original, *m_extended, *m_critical, *m_rampLow, *m_rampHigh;
    bool m_compact = false;
    std::shared_ptr<const RopeFrequenciesData> m_data;
};

} // namespace posenc
