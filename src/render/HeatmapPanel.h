#pragma once

#include "Colormaps.h"
#include "CoverageColorMap.h"
#include "FigureRoom.h"
#include "HeatmapMarks.h"
#include "data/FigureModel.h"
#include "data/HeatmapResampler.h"
#include "data/PreparedDrawing.h"

#include "QCustomPlot.h"
#include "SwatchLegend.h"

#include <QList>
#include <QPointer>

#include <initializer_list>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace posenc {

// How a grid is coloured: the map and the data range (fixed, or symmetric around zero
// from the data for signed quantities, or [0, 1] for the mask).
struct HeatmapStyle
{
    Colormap colormap = Colormap::Diverging;
    QCPRange dataRange {-1.0, 1.0};
    QString colorbarLabel;
    // The only values the grid holds, each named: a legend of them instead of the colorbar, which
    // would suggest values in between (the mask shown cell by cell is 1 or 0, kept or dropped).
    QList<std::pair<double, QString>> categories;
    // Entries the legend of categories shows after them (hatched padding rows).
    QList<Swatch> notes;
    // The grid holds whole numbers only (ids, bucket indices, distances): its colorbar's ticks are
    // whole too, as an index axis's (IndexTicker), where 0.5 between two ids named no value the map
    // can hold (position-ids' bar read 0, 0.5, ... 3).
    bool wholeNumbers = false;
    // The colours follow the logarithm of the value (the map's and its bar's data scale type, which
    // the panel's owner sets): what a prepared coverage colours with (HeatmapPanel::prepareCoverage).
    bool logarithmic = false;

    // The style of the program for a quantity: signed data symmetric around zero over the
    // grid's colourExtent (the PE's ±1 or a loaded table's largest, the others' from the
    // parameters, so that no colour changes with the resolution), data of one sign from zero to
    // it on a sequential map, the mask kept/dropped in a legend where each pixel is one cell,
    // else its kept fraction in [0, 1] with a sequential map.
    static HeatmapStyle forQuantity(Quantity quantity, const HeatmapGrid &grid);
    // The style of data on [least, most] reaching `extent` at most: signed data on the diverging
    // map symmetric around zero, data of one sign on a sequential map from zero (viridis).
    static HeatmapStyle forRange(double least, double most, double extent);

    // The swatches of the categories, in this style's colours, then the notes.
    QList<Swatch> swatches() const;
};

// One heatmap with its colorbar, in one cell of a figure's layout: columns on x, positions
// on y (position 0 at the top, as tables are read). Table cell j covers [j - 0.5, j + 0.5].
class HeatmapPanel
{
public:
    HeatmapPanel(QCustomPlot *plot, QCPLayoutGrid *layout, int row, int col);
    // A panel alone in cell (row, col), coloured by `sharedScale`, which the figure places: panels
    // compared with each other share one colour scale.
    HeatmapPanel(QCustomPlot *plot, QCPLayoutGrid *layout, int row, int col, QCPColorScale *sharedScale);

    void setGrid(const HeatmapGrid &grid, const HeatmapStyle &style);
    // Axes show the whole table of `shape`.
    void fitAxes(Shape shape);
    // Axes show the cells of `block`, whole.
    void showBlock(const Block &block);
    // The axis rect as the data is computed for it, at `pixelRatio` output pixels per layout unit.
    PanelExtent extent(double pixelRatio) const;

    // What the map's draw computes on the GUI thread for `grid` in `style` on a panel of `extent`
    // (its axes showing the extent's ranges, positions down), made on any thread: its image and its
    // coverage of the panel's device pixels, with the painter's transform taken as the pixel
    // ratio's scale. None where the grid has no cells.
    static std::shared_ptr<const PreparedCoverage> prepareCoverage(const HeatmapGrid &grid, const HeatmapStyle &style,
                                                                   const PanelExtent &extent);
    // Hands the map a coverage prepareCoverage made for the grid set last: its draw takes it where the
    // panel's pixels, clip, axes and colours are what it was made for, else computes its own.
    void offerCoverage(std::shared_ptr<const PreparedCoverage> prepared);
    // The table cell (position, column) under a pixel of the plot, if it is inside the panel and
    // the table of `shape`.
    std::optional<std::pair<std::int64_t, std::int64_t>> cellAt(const QPointF &pixel, Shape table) const;

    // The key or value range of a colour map of `cells` cells over table cells [first, end), each
    // table cell j spanning [j - 0.5, j + 0.5]: the centres of the first and last map cells, the map
    // drawn half a cell beyond each. A single cell spans its own width: QCPColorMap draws a lone
    // cell over the whole range, and nothing of a range of width 0.
    static QCPRange cellRange(std::int64_t first, std::int64_t end, int cells);

    // The mean alone, without the oscillation mark (a figure's option); the mark by default.
    void setShowSpread(bool show);
    // The figure names this panel's marks itself (beside its mask's kept and dropped): no legend
    // of them under the heatmap.
    void setMarksNamedByFigure(bool named) { m_marksNamedByFigure = named; }
    // The legend entries of the marks the grid now carries: dropped cells, padding, the
    // oscillation mark. A panel with its own colorbar shows them under its heatmap; a figure
    // whose panels share a colour scale places them.
    QList<Swatch> markSwatches() const;
    // The swatches of the marks of `marks`, as a legend names them.
    static QList<Swatch> swatchesOf(const HeatmapMarks &marks);
    // The marks of several panels that share one legend, each named once.
    static QList<Swatch> markSwatches(const QList<const HeatmapPanel *> &panels);
    // The role of a legend of `swatches`: a key where it names marks of cells, which stay drawn
    // whatever room gives up (a dropped cell's grey, padding's hatch), so that it is kept as keys
    // are; a caption where it names only the swing lines, which go with it on little room.
    static TextRole marksLegendRole(const QList<Swatch> &swatches);

    // Names the rows' axis as the last grid's rows are indexed (TitleText::RowIndex): "position p",
    // "timestep t", or the noun alone in a figure whose title gives the dropout probability p, so
    // that p means one thing there.
    void namePositions(bool dropoutInTitle);

    QCPAxisRect *axisRect() const { return m_rect; }
    QCPColorMap *colorMap() const { return m_map; }
    QCPColorScale *colorScale() const { return m_scale; }

private:
    void initAxes();
    // Puts the categories' legend (`categorical`) or the colorbar beside the heatmap.
    void showLegend(bool categorical);
    // Puts the marks' legend under the heatmap while it has entries.
    void showMarksLegend(const QList<Swatch> &swatches);

    QCPAxisRect *m_rect;
    QCPColorMap *m_map;
    QCPColorScale *m_scale;
    bool m_sharedScale = false;
    QCPLayoutGrid *m_cell = nullptr; // the heatmap beside its colorbar or legend; null when shared
    QCPLayoutGrid *m_side = nullptr; // the legend over a spacer, in the cell while it is shown
    // The colorbar's margin groups (its bottom's, its top's), which it leaves while it is set aside.
    QPointer<QCPMarginGroup> m_scaleBottom, m_scaleTop;
    QCPLegend *m_legend = nullptr;
    HeatmapMarks *m_marks = nullptr;
    QCPLegend *m_marksLegend = nullptr; // under the heatmap, in m_cell while it has entries
    bool m_marksNamedByFigure = false;
    TitleText::RowIndex m_index; // the last grid's
    std::optional<bool> m_positionsNamed; // namePositions' dropoutInTitle, once it named them
};

// What a figure's job made of its maps (FigureDescriptor::prepare): each map's coverage of the panel
// the request saw (HeatmapPanel::prepareCoverage), in the order the figure offers them, and the data
// they were made of.
struct PreparedMaps final : PreparedDrawing
{
    const FigureData *data = nullptr;
    std::vector<std::shared_ptr<const PreparedCoverage>> maps;

    // Hands each of `panels` its map's coverage, where `prepared` is a PreparedMaps made of `data`.
    static void offer(const std::shared_ptr<const PreparedDrawing> &prepared, const FigureData &data,
                      std::initializer_list<HeatmapPanel *> panels);
};

} // namespace posenc
