#pragma once

#include "render/FigurePlot.h"
#include "render/HeatmapPanel.h"
#include "render/TokenRoles.h"

#include "render/data/DropoutCompareModel.h"

#include <array>
#include <memory>

namespace posenc {

// The dropout modes compared: on top Y under each mode, below the PE's part of that Y, one
// colour scale per row, every panel showing the same cells (zooming one moves all), the token
// roles marked on every panel's rows.
class DropoutCompareFigure final : public FigurePlot
{
public:
    explicit DropoutCompareFigure(QCustomPlot *plot);

    QList<ViewAxis> viewAxes() const override;
    void showDefaultView(const Params &params, const FigureState &state) override;
    QList<PanelExtent> panels(double pixelRatio) const override;
    void fill(const std::shared_ptr<const FigureData> &data, const FigureState &state) override;
    // Small: the token roles outlined, not named.
    void setCompact(bool compact) override { m_compact = compact; }
    QList<PositionAxis> positionAxes() const override;
    std::optional<HoverPoint> hoverAt(const QPointF &pixel, const Engine &engine) const override;

private:
    // Lays the modes out in one row or in two.
    void arrange(bool square);

    QCPTextElement *m_title;
    QCPTextElement *m_subtitle;
    QCPLayoutGrid *m_grid;
    QCPLegend *m_marksLegend; // what the grey cells and the lines mean, for all the panels
    QCPColorScale *m_outputScale;
    QCPColorScale *m_peScale;
    std::array<QCPTextElement *, kDropoutModeCount> m_modeTitles {};
    std::array<QCPTextElement *, kDropoutModeCount> m_peTitles {};
    std::array<std::unique_ptr<HeatmapPanel>, kDropoutModeCount> m_output;
    std::array<std::unique_ptr<HeatmapPanel>, kDropoutModeCount> m_pe;
    std::vector<std::unique_ptr<TokenRoleMarks>> m_roles;
    // The left and right margins of each column of panels (a mode's Y over its PE part).
    std::array<QCPMarginGroup *, kDropoutModeCount> m_columnSides {};
    bool m_compact = false;
    bool m_square = false; // the modes in 2 x 2, not in a row
    std::shared_ptr<const DropoutCompareData> m_data;
};

} // namespace posenc
