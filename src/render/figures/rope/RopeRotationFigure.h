#pragma once

#include "render/FigurePlot.h"
#include "render/HeatmapPanel.h"

#include "render/data/rope/RopeRotationModel.h"

#include <memory>

namespace posenc {

class RoundAxisRect; // the circle's axes, in RopeRotationFigure.cpp

// The rope-rotation figure's drawing: on the left the chosen pair's vector at each position in
// view, a dot coloured by p on its circle of radius the attention factor, the steps from the
// first position to the next as arrows; on the right the rope-cos and rope-sin tables over the
// positions in view x the pairs, on one colour scale, the chosen pair framed. The circle follows
// the tables' positions.
class RopeRotationFigure final : public FigurePlot
{
public:
    explicit RopeRotationFigure(QCustomPlot *plot);
    // The rope-cos and rope-sin tables' coverage of the panels `request` saw, made in the data's
    // job (FigureDescriptor::prepare): fill() offers them to the panels' maps.
    static std::shared_ptr<const PreparedDrawing> prepare(const FigureData &data, const FigureRequest &request);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    QList<QCPAxisRect *> pictureRects() const override;

private:
    void fillMeansCaption(const RopeRotationData &d);
    QCPTextElement *m_title;
    QCPTextElement *m_circleTitle, *m_cosTitle, *m_sinTitle;
    // Under the tables: which pairs' pixels show means of half a turn or more, not their wave.
    QCPTextElement *m_meansCaption;
    RoundAxisRect *m_circle;
    QCPColorScale *m_positions; // the dots' colours
    QCPColorScale *m_scale; // the tables'
    std::unique_ptr<HeatmapPanel> m_cos, m_sin;
    QCPCurve *m_ring;
    QList<QCPGraph *> m_dots; // one per colour
    QCPItemLine *m_firstArrow, *m_nextArrow;
    // The same two positions shifted on (dashed): their angle is the same, θᵢ, wherever they sit.
    QCPItemLine *m_shiftedFirst, *m_shiftedNext;
    QCPItemRect *m_cosFrame, *m_sinFrame;
    bool m_compact = false;
    std::shared_ptr<const RopeRotationData> m_data;
};

} // namespace posenc
