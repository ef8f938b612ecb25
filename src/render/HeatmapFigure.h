#pragma once

#include "Detail.h"
#include "HeatmapPanel.h"

#include <optional>

namespace posenc {

// The heatmap view: positions x columns of one quantity at screen resolution, a colorbar
// and a title that says how many table cells each shown cell averages, and "preview" with
// its share of rows while the grid is one.
class HeatmapFigure
{
public:
    explicit HeatmapFigure(QCustomPlot *plot);

    void setGrid(const HeatmapGrid &grid, Shape table, std::optional<Colormap> colormap = std::nullopt);
    HeatmapPanel &panel() { return m_panel; }
    const HeatmapPanel &panel() const { return m_panel; }

private:
    QCPTextElement *m_title;
    HeatmapPanel m_panel;
};

// Heatmap data computed for a visible range at a level of detail: Full is exact (the last
// pass) unless that computes more than 2^33 cells one by one, then the largest pass within
// them, a preview; Preview the first pass at half the resolution within the preview budget.
std::optional<HeatmapGrid> computeHeatmap(const Engine &engine, HeatmapRequest request, Detail detail,
                                          const ComputeOptions &options);

} // namespace posenc
