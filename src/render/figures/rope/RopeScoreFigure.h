#pragma once

#include "render/FigurePlot.h"

#include "render/data/rope/RopeScoreModel.h"

namespace posenc {

// The rope-score figure's drawing: over distance k on a log axis, the scores on top (q = k, the
// random pairs' mean in its +-std band, zero marked) and RoFormer's bound below, sharing k. Where
// a pixel holds many distances, each series is drawn as the band from its least to its most there.
class RopeScoreFigure final : public FigurePlot
{
public:
    explicit RopeScoreFigure(QCustomPlot *plot);

    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    // Every distance is on the log axis: nothing to zoom.
    bool isInteractive() const override { return false; }

private:
    struct Envelope
    {
        QCPGraph *lo = nullptr;
        QCPGraph *hi = nullptr;
    };
    static Envelope envelope(QCPAxisRect *rect, const QColor &pen, const QColor &fill);
    static void setEnvelope(const Envelope &envelope, const QList<double> &x, const RopeScoreSeries &series);

    QCPTextElement *m_title;
    QCPAxisRect *m_scores, *m_bounds;
    QCPLegend *m_legend;
    QCPGraph *m_zero;
    Envelope m_band, m_mean, m_aligned, m_bound;
    bool m_compact = false;
    std::shared_ptr<const RopeScoreData> m_data;
};

} // namespace posenc
