#pragma once

#include "render/FigurePlot.h"

#include "render/data/none/NopeOrderModel.h"

namespace posenc {

// The nope-order figure's drawing: over the query's position t + 1 on a log axis, the first key's
// weight under uniform attention on top (causal 1/(t + 1), bidirectional 1/L) and the norm of the
// output h_t below (measured for this seed, its expectation dashed, bidirectional dotted), both
// log scaled, so that the causal curves fall as straight lines and the bidirectional stay flat.
class NopeOrderFigure final : public FigurePlot
{
public:
    explicit NopeOrderFigure(QCustomPlot *plot);

    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    // Every position is on the log axis: nothing to zoom.
    bool isInteractive() const override { return false; }

private:
    QCPTextElement *m_title;
    QCPAxisRect *m_weights, *m_norms;
    QCPTextElement *m_caption;
    QCPLegend *m_legend;
    QCPGraph *m_causalWeight, *m_bidirectionalWeight;
    QCPGraph *m_measured, *m_expected, *m_bidirectionalNorm;
    bool m_compact = false;
    std::shared_ptr<const NopeOrderData> m_data;
};

} // namespace posenc
