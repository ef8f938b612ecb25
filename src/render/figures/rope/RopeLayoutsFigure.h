#pragma once

#include "render/FigurePlot.h"

#include "render/data/rope/RopeLayoutsModel.h"

namespace posenc {

// The rope-layouts figure's drawing: over the distance k on a log axis, the lesson's q and k scored
// in the model's layout (solid) and in the other (dashed), k = 10 and 100 marked on both and their
// values in the caption, as the rope-layouts lesson states them.
class RopeLayoutsFigure final : public FigurePlot
{
public:
    explicit RopeLayoutsFigure(QCustomPlot *plot);

    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    // Every distance is on the log axis: nothing to zoom.
    bool isInteractive() const override { return false; }

private:
    QCPTextElement *m_title;
    QCPAxisRect *m_scores;
    QCPTextElement *m_caption;
    QCPLegend *m_legend;
    QCPGraph *m_zero, *m_own, *m_other, *m_ownMarks, *m_otherMarks;
    bool m_compact = false;
    std::shared_ptr<const RopeLayoutsData> m_data;
};

} // namespace posenc
