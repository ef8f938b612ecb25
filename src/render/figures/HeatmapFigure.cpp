#include "HeatmapFigure.h"

#include "render/FigureDescriptor.h"
#include "render/PlotStyle.h"

#include "render/data/FigureText.h"
#include "render/data/ViewOptions.h"
#include "render/data/VisibleCells.h"

using namespace Qt::StringLiterals;

namespace posenc {

std::unique_ptr<FigureDescriptor> makeHeatmapFigure()
{
    return std::make_unique<FigureDescriptorOf<HeatmapModel, HeatmapFigure>>();
}

HeatmapFigure::HeatmapFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
    , m_panel(plot, plot->plotLayout(), 1, 0)
{ }

namespace {

// The style setData gives `data`'s grid.
HeatmapStyle styleOf(const HeatmapFigureData &data, std::optional<Colormap> colormap)
{
    HeatmapStyle style = HeatmapStyle::forQuantity(data.grid.quantity, data.grid);
    style.colorbarLabel = data.label;
    if (colormap)
        style.colormap = *colormap;
    return style;
}

std::optional<Colormap> colormapOf(const FigureState &state)
{
    return Colormaps::fromName(state.option(QString::fromUtf16(HeatmapModel::kColormap)));
}

} // namespace

std::shared_ptr<const PreparedDrawing> HeatmapFigure::prepare(const FigureData &data, const FigureRequest &request)
{
    const auto *heatmap = dynamic_cast<const HeatmapFigureData *>(&data);
    if (!heatmap || request.panels.isEmpty())
        return nullptr;
    auto made = std::make_shared<PreparedMaps>();
    made->data = &data;
    made->maps = {HeatmapPanel::prepareCoverage(heatmap->grid, styleOf(*heatmap, colormapOf(request.state)),
                                                request.panels.front())};
    return made;
}

void HeatmapFigure::setData(const HeatmapFigureData &data, std::optional<Colormap> colormap, bool meanOnly)
{
    const HeatmapGrid &grid = data.grid;
    const HeatmapStyle style = styleOf(data, colormap);
    m_panel.setGrid(grid, style);
    m_panel.setShowSpread(!meanOnly);
    m_panel.namePositions(grid.quantity == Quantity::Output || grid.quantity == Quantity::Mask);
    // A table over positions on both sides (a bias, buckets, a similarity) names both positions.
    QCPAxisRect *rect = m_panel.axisRect();
    const bool square
        = Quantities::spec(grid.quantity).part == QuantityPart::Other && data.table.rows == data.table.cols;
    rect->axis(QCPAxis::atBottom)->setLabel(square ? u"position j"_s : u"column j"_s);
    if (square)
        rect->axis(QCPAxis::atLeft)->setLabel(u"position i"_s);
    QStringList parts {data.label, data.parameters};
    // A preview's cell-by-cell part is estimated from some rows: say so, and how many, in the title
    // (a file past the cap of every figure is one) and in the view's note, which no room takes.
    setScreenNote(grid.index.named(FigureText::cellsPerPixelText(grid.block, grid.rows, grid.cols)),
                  grid.isPreview() ? FigureText::previewText(grid.rowCoverage) : QString());
    if (grid.isPreview())
        parts.append(FigureText::previewText(grid.rowCoverage));
    parts.removeAll(QString());
    m_title->setText(parts.join(u"  ·  "_s));
}

QList<ViewAxis> HeatmapFigure::viewAxes() const
{
    return {{QString::fromUtf16(HeatmapModel::kColumnsAxis), m_panel.axisRect()->axis(QCPAxis::atBottom)},
            {QString::fromUtf16(HeatmapModel::kPositionsAxis), m_panel.axisRect()->axis(QCPAxis::atLeft)}};
}

void HeatmapFigure::showDefaultView(const Params &params, const FigureState &state)
{
    const Shape shape = Quantities::shape(HeatmapModel::quantity(state, params), params);
    m_panel.showBlock(ViewOptions::inView(state, {0, shape.rows, 0, shape.cols}));
}

QList<PanelExtent> HeatmapFigure::panels(double pixelRatio) const
{
    return {m_panel.extent(pixelRatio)};
}

void HeatmapFigure::fill(const std::shared_ptr<const FigureData> &data, const FigureState &state)
{
    m_data = std::static_pointer_cast<const HeatmapFigureData>(data);
    setData(*m_data, colormapOf(state), ViewOptions::isMeanOnly(state));
    // The job's coverage of this data, drawn where the panel is as the request saw it.
    PreparedMaps::offer(prepared(), *data, {&m_panel});
}

QList<PositionAxis> HeatmapFigure::positionAxes() const
{
    return {{m_panel.axisRect(), true}};
}

std::optional<HoverPoint> HeatmapFigure::hoverAt(const QPointF &pixel, const Engine &engine) const
{
    if (!m_data)
        return std::nullopt;
    const Quantity q = m_data->grid.quantity;
    const auto cell = m_panel.cellAt(pixel, engine.shape(q));
    if (!cell)
        return std::nullopt;
    HoverPoint point;
    point.position = cell->first;
    point.column = cell->second;
    point.columnIsPe = q == Quantity::Pe || q == Quantity::Error;
    // One cell, exact, straight from the engine: microseconds.
    RowMatrixXf value(1, 1);
    engine.computeBlock(q, {cell->first, 1, cell->second, 1}, value);
    point.value = value(0, 0);
    point.valueName = m_data->label;
    point.quantity = q;
    return point;
}

} // namespace posenc
