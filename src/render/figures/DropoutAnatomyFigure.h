#pragma once

#include "DropoutAnatomyCharts.h"

#include "render/FigurePlot.h"
#include "render/HeatmapPanel.h"
#include "render/TokenRoles.h"

#include "render/data/DropoutAnatomyModel.h"

#include <array>
#include <memory>

namespace posenc {

// What dropout does, drawn: on top X, the keep mask, Y in training and Y in evaluation, the same
// cells (zooming one moves all) with X and both Y on one colour scale; below, each cell's output
// against its input on the lines of slope 0 and 1/(1-p), and the fraction dropped against p in
// its band p +- 4 sqrt(p(1-p)/n).
class DropoutAnatomyFigure final : public FigurePlot
{
public:
    enum Panel { InputPanel, MaskPanel, TrainingPanel, EvaluationPanel };

    explicit DropoutAnatomyFigure(QCustomPlot *plot);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    // Small: the token roles outlined, not named.
    void setCompact(bool compact) override { m_compact = compact; }
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    void layOutHeatmaps(QCustomPlot *plot, QCPLayoutGrid *grid);
    void fillHeatmaps(const DropoutAnatomyData &data);
    // The mask's title in the line of its legend, left of it (a 14-pt slide: the row of titles one
    // line high), or over it.
    void setMaskNameBeside(bool beside);

    QCPTextElement *m_title;
    QCPTextElement *m_subtitle;
    QCPColorScale *m_scale = nullptr; // X and Y
    QCPColorScale *m_maskScale = nullptr; // the mask's colours, named by its legend instead
    QCPLegend *m_maskLegend = nullptr;
    QCPLayoutGrid *m_maskTitle = nullptr; // the mask's title over the line of its legend
    QCPLayoutGrid *m_maskLine = nullptr;
    std::array<QCPTextElement *, 4> m_titles {};
    std::array<std::unique_ptr<HeatmapPanel>, 4> m_panels;
    std::vector<std::unique_ptr<TokenRoleMarks>> m_roles;
    QCPLayoutGrid *m_heatmaps = nullptr;
    std::unique_ptr<DropoutAnatomyCharts> m_charts;
    bool m_compact = false;
    bool m_wide = true; // room for every text and the role names
    bool m_tight = false; // few lines of text fit its height: the short texts
    std::shared_ptr<const DropoutAnatomyData> m_data;
};

} // namespace posenc
