#pragma once

#include "render/FigurePlot.h"

#include "render/data/models/QueryScaleModel.h"

namespace posenc {

// The query-scale figure's drawing: each model's logit multiplier as a step line against the
// position on a log axis, yarn's constant factors dashed, the numbers the issue quotes marked and
// labelled, a legend under the plot.
class QueryScaleFigure final : public FigurePlot
{
public:
    explicit QueryScaleFigure(QCustomPlot *plot);

    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    void setCompact(bool compact) override { m_compact = compact; }
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;
    bool isInteractive() const override { return false; }

private:
    QCPTextElement *m_title;
    QCPAxisRect *m_rect;
    QCPLegend *m_legend;
    QList<QCPGraph *> m_curves;
    QCPGraph *m_marks;
    QList<QCPItemText *> m_labels;
    bool m_compact = false;
    std::shared_ptr<const QueryScaleData> m_data;
};

} // namespace posenc
