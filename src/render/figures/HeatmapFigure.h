#pragma once

#include "render/data/Detail.h"
#include "render/HeatmapPanel.h"

#include <optional>

namespace posenc {

// The heatmap view: positions x columns of one quantity at screen resolution, a colorbar
// and a title that says how many table cells each shown cell averages.
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

// Heatmap data computed for a visible range at a level of detail.
std::optional<HeatmapGrid> computeHeatmap(const Engine &engine, HeatmapRequest request, Detail detail,
                                          const ComputeOptions &options);

} // namespace posenc
