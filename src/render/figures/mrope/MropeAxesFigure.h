#pragma once

#include "render/FigurePlot.h"

#include "render/data/mrope/MropeAxesModel.h"

#include <array>

namespace posenc {

// The mrope-axes figure's drawing: two rows of markers against the pairs' wavelengths on a log
// axis, chunked above and interleaved below, a colour and a shape per axis (t, h, w), the
// parameters' own split named; under the plot, what a width offset turns the fastest w pair by.
class MropeAxesFigure final : public FigurePlot
{
public:
    explicit MropeAxesFigure(QCustomPlot *plot);

    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    bool isInteractive() const override { return false; }

private:
    QCPTextElement *m_title;
    QCPAxisRect *m_rect;
    QCPTextElement *m_caption;
    QCPLegend *m_legend;
    std::array<QCPGraph *, 3> m_axes {};
    bool m_compact = false;
    std::shared_ptr<const MropeAxesData> m_data;
};

} // namespace posenc
