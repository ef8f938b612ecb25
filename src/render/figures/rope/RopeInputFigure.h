#pragma once

#include "render/FigurePlot.h"
#include "render/HeatmapPanel.h"

#include "render/data/rope/RopeInputModel.h"

#include <memory>

namespace posenc {

// The rope-input figure's drawing: one head's columns of X before the rotation, rope-input after
// it and their difference, side by side over the same cells on one colour scale; columns past
// the rotary dim, which pass through, framed. Zooming one panel zooms the others.
class RopeInputFigure final : public FigurePlot
{
public:
    explicit RopeInputFigure(QCustomPlot *plot);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    QList<QCPAxisRect *> pictureRects() const override;

private:
    QCPTextElement *m_title;
    QCPTextElement *m_beforeTitle, *m_afterTitle, *m_changeTitle;
    // What the change panel holds besides the rotation (the attention factor on cos and sin, the
    // columns that pass): a caption, given up for room before the title's lines.
    QCPTextElement *m_note;
    QCPColorScale *m_scale;
    std::unique_ptr<HeatmapPanel> m_before, m_after, m_change;
    QList<QCPItemRect *> m_passing; // per panel
    bool m_compact = false;
    std::shared_ptr<const RopeInputData> m_data;
};

} // namespace posenc
