#pragma once

#include "render/FigurePlot.h"

#include "render/data/alibi/AlibiSlopesModel.h"

namespace posenc {

// The alibi-slopes figure's drawing: the slope of each head on a log axis in powers of two, the
// geometric heads joined as a line, the interleaved ones apart in another colour and shape, the
// plain series a port without the interleave would give dotted beside them, head K ringed, and
// the interleave said in words under the plot; where there is one, the series is drawn on to
// head 1/2 and each interleaved slope's place on it (head ½ for the first, then halfway between two heads) marked hollow.
class AlibiSlopesFigure final : public FigurePlot
{
public:
    explicit AlibiSlopesFigure(QCustomPlot *plot);

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
    QCPGraph *m_plain, *m_series, *m_places, *m_geometric, *m_interleaved, *m_chosen;
    bool m_compact = false;
    std::shared_ptr<const AlibiSlopesData> m_data;
};

} // namespace posenc
