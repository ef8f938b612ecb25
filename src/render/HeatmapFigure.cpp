#include "HeatmapFigure.h"

#include "Detail.h"
#include "PlotStyle.h"

using namespace Qt::StringLiterals;

namespace posenc {

HeatmapFigure::HeatmapFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_panel(plot, plot->plotLayout(), 1, 0)
{ }

namespace {
constexpr int kPreviewCoarseness = 2;
// Cells a full-detail grid computes one by one at most: 2^33, the whole of X at L 2^20,
// d 8192 (~15 s). Past that (X of d 2^20 by L 2^24 would take hours), the largest pass
// within it, labelled a preview.
constexpr std::int64_t kFullCells = std::int64_t(1) << 33;
} // namespace

void HeatmapFigure::setGrid(const HeatmapGrid &grid, Shape table, std::optional<Colormap> colormap)
{
    HeatmapStyle style = HeatmapStyle::forQuantity(grid.quantity, grid);
    if (colormap)
        style.colormap = *colormap;
    m_panel.setGrid(grid, style);
    const double perRow = static_cast<double>(grid.block.rows) / grid.rows;
    const double perCol = static_cast<double>(grid.block.cols) / grid.cols;
    QString detail;
    if (perRow > 1.0 || perCol > 1.0)
        detail = u"  ·  ~%1 × %2 cells a pixel"_s.arg(perRow, 0, 'g', 3).arg(perCol, 0, 'g', 3);
    // A preview's cell-by-cell part is estimated from some rows: say so, and how many.
    if (grid.isPreview())
        detail += u"  ·  preview (%1% of rows)"_s.arg(100.0 * grid.rowCoverage, 0, 'g', 2);
    m_title->setText(u"%1  ·  %2 × %3%4"_s.arg(PlotStyle::quantityLabel(grid.quantity),
                                               PlotStyle::formatCount(table.rows), PlotStyle::formatCount(table.cols),
                                               detail));
}

std::optional<HeatmapGrid> computeHeatmap(const Engine &engine, HeatmapRequest request, Detail detail,
                                          const ComputeOptions &options)
{
    if (detail == Detail::Full)
        return HeatmapResampler::resample(engine, request, options,
                                          HeatmapResampler::lastPassWithin(engine, request, kFullCells));
    // A preview is the first pass at half the resolution: the closed forms exact, the rest
    // from about the preview budget's cells (at least a row per shown row).
    request.cellBudget = Budget::cells(Detail::Preview);
    request.pixelRows = std::max(1, request.pixelRows / kPreviewCoarseness);
    request.pixelCols = std::max(1, request.pixelCols / kPreviewCoarseness);
    return HeatmapResampler::resample(engine, request, options, 0);
}

} // namespace posenc
