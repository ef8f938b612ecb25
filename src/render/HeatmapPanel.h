#pragma once

#include "Colormaps.h"
#include "data/FigureModel.h"
#include "data/HeatmapResampler.h"

#include "QCustomPlot.h"

#include <optional>

namespace posenc {

// How a grid is coloured: the map and the data range (fixed, or symmetric around zero
// from the data for signed quantities, or [0, 1] for the mask).
struct HeatmapStyle
{
    Colormap colormap = Colormap::Diverging;
    QCPRange dataRange {-1.0, 1.0};
    QString colorbarLabel;

    // The style of the program for a quantity: PE fixed to [-1, 1], other signed data
    // symmetric around zero, the mask in [0, 1] with a sequential map.
    static HeatmapStyle forQuantity(Quantity quantity, const HeatmapGrid &grid);
};

// One heatmap with its colorbar, in one cell of a figure's layout: columns on x, positions
// on y (position 0 at the top, as tables are read). Table cell j covers [j - 0.5, j + 0.5].
class HeatmapPanel
{
public:
    HeatmapPanel(QCustomPlot *plot, QCPLayoutGrid *layout, int row, int col);

    void setGrid(const HeatmapGrid &grid, const HeatmapStyle &style);
    // Axes show the whole table of `shape`.
    void fitAxes(Shape shape);
    // Axes show the cells of `block`, whole.
    void showBlock(const Block &block);
    // The axis rect as the data is computed for it, at `pixelRatio` output pixels per layout unit.
    PanelExtent extent(double pixelRatio) const;
    // The table cell (position, column) under a pixel of the plot, if it is inside the panel and
    // the table of `shape`.
    std::optional<std::pair<std::int64_t, std::int64_t>> cellAt(const QPointF &pixel, Shape table) const;

    QCPAxisRect *axisRect() const { return m_rect; }
    QCPColorMap *colorMap() const { return m_map; }
    QCPColorScale *colorScale() const { return m_scale; }

private:
    QCPAxisRect *m_rect;
    QCPColorMap *m_map;
    QCPColorScale *m_scale;
};

} // namespace posenc
