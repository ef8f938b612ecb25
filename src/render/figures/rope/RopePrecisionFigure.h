#pragma once

#include "render/FigurePlot.h"

#include "render/data/rope/RopePrecisionModel.h"

namespace posenc {

// The rope-precision figure's drawing: position p across and the gap between neighbouring
// representable values at p up, both on log axes; each format a staircase, the line at 1 with the
// region of merging positions above it washed, and each format's first merging position marked.
class RopePrecisionFigure final : public FigurePlot
{
public:
    explicit RopePrecisionFigure(QCustomPlot *plot);

    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    bool isInteractive() const override { return false; }

private:
    QCPTextElement *m_title;
    QCPAxisRect *m_rect;
    QCPLegend *m_legend;
    QCPItemRect *m_merging; // above the line at 1
    QCPGraph *m_one;
    QList<QCPGraph *> m_steps, m_merges; // per format
    QCPGraph *m_overflow;
    bool m_compact = false;
    std::shared_ptr<const RopePrecisionData> m_data;
};

} // namespace posenc
