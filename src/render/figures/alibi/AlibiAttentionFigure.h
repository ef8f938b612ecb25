#pragma once

#include "render/FigurePlot.h"

#include "render/data/alibi/AlibiAttentionModel.h"

namespace posenc {

// The alibi-attention figure's drawing: over the key's distance on a log axis, each head's
// weight of one key (log) on top and the share of the weight within each distance below, the
// heads coloured from steep (dark) to gentle (light), head K wider, each head's half and 90%
// spans dotted on the lower panel's lines at 0.5 and 0.9.
class AlibiAttentionFigure final : public FigurePlot
{
public:
    explicit AlibiAttentionFigure(QCustomPlot *plot);

    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    // Every distance is on the log axis: nothing to zoom.
    bool isInteractive() const override { return false; }

private:
    QCPTextElement *m_title;
    QCPAxisRect *m_weights, *m_shares;
    QCPLegend *m_legend;
    QCPGraph *m_halfLine, *m_ninetyLine, *m_halfSpans, *m_ninetySpans;
    QList<QCPGraph *> m_weightCurves, m_shareCurves;
    bool m_compact = false;
    std::shared_ptr<const AlibiAttentionData> m_data;
};

} // namespace posenc
