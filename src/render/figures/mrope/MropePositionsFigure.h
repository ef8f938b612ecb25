#pragma once

#include "render/FigurePlot.h"

#include "render/data/mrope/MropePositionsModel.h"

#include <array>

namespace posenc {

// The mrope-positions figure's drawing: the t, h and w ids against the token's place in the
// sequence, the image spans shaded orange and the video spans blue behind them, the first token of
// each text run after a span ringed, and the first generated token at max + 1 starred.
class MropePositionsFigure final : public FigurePlot
{
public:
    explicit MropePositionsFigure(QCustomPlot *plot);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    QCPTextElement *m_title;
    QCPAxisRect *m_rect;
    QCPTextElement *m_caption;
    QCPLegend *m_legend;
    std::array<QCPGraph *, 3> m_ids {};
    QCPGraph *m_starts, *m_next;
    QList<QCPItemRect *> m_shades;
    bool m_compact = false;
    std::shared_ptr<const MropePositionsData> m_data;
};

} // namespace posenc
