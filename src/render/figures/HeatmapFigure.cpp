#include "HeatmapFigure.h"

#include "render/data/Detail.h"
#include "render/PlotStyle.h"

using namespace Qt::StringLiterals;

namespace posenc {

HeatmapFigure::HeatmapFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_panel(plot, plot->plotLayout(), 1, 0)
{ }

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
        detail = u"  ·  each cell averages ~%1 × %2 cells%3"_s.arg(perRow, 0, 'g', 3)
                     .arg(perCol, 0, 'g', 3)
                     .arg(grid.rowCoverage < 1.0 ? u" (rows sampled)"_s : QString());
    m_title->setText(u"%1  ·  %2 × %3%4"_s.arg(FigureText::quantityLabel(grid.quantity),
                                               FigureText::formatCount(table.rows), FigureText::formatCount(table.cols),
                                               detail));
}

namespace {
constexpr int kPreviewCoarseness = 2;
} // namespace

std::optional<HeatmapGrid> computeHeatmap(const Engine &engine, HeatmapRequest request, Detail detail,
                                          const ComputeOptions &options)
{
    request.cellBudget = Budget::cells(detail);
    // A preview is drawn at half the resolution (as the first pass of a progressive
    // renderer), each shown row from one sampled table row: at L 8192, d 1024 that is 176
    // rows to compute instead of 8192, 3 ms instead of 70.
    if (detail == Detail::Preview) {
        request.pixelRows = std::max(1, request.pixelRows / kPreviewCoarseness);
        request.pixelCols = std::max(1, request.pixelCols / kPreviewCoarseness);
        request.cellBudget
            = std::min(request.cellBudget, std::max<std::int64_t>(1, request.pixelRows) * request.block.cols);
    }
    return HeatmapResampler::resample(engine, request, options);
}

} // namespace posenc
