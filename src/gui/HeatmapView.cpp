#include "HeatmapView.h"

#include "PanelGeometry.h"

#include "render/PlotStyle.h"

#include "ParamRelevance.h"
#include <QComboBox>
#include <QHBoxLayout>

#include <QPointer>

using namespace Qt::StringLiterals;

namespace posenc {

QList<Quantity> HeatmapView::quantities()
{
    return {Quantity::Pe, Quantity::Embedding, Quantity::Input, Quantity::Output, Quantity::Mask, Quantity::Error};
}

HeatmapView::HeatmapView(QWidget *parent)
    : PlotView(tr("Heatmap"), parent)
    , m_figure(plot())
    , m_quantityBox(new QComboBox(this))
    , m_colormapBox(new QComboBox(this))
    , m_cursor(addCursorLine(m_figure.panel().axisRect()))
{
    m_quantityBox->setObjectName(u"quantityBox"_s);
    for (const Quantity q : quantities())
        m_quantityBox->addItem(FigureText::quantityLabel(q), static_cast<int>(q));
    m_quantityBox->setToolTip(tr("The quantity shown"));
    toolBar()->insertWidget(1, m_quantityBox);
    m_colormapBox->setObjectName(u"colormapBox"_s);
    m_colormapBox->setToolTip(tr("Colormap: auto is diverging about zero for signed data, cividis for the mask"));
    m_colormapBox->addItem(tr("auto"), QString());
    for (const QString &name : Colormaps::names())
        m_colormapBox->addItem(name, name);
    toolBar()->insertWidget(2, m_colormapBox);
    // A new colormap needs no computing: the grid on screen is coloured again.
    connect(m_colormapBox, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_grid)
            return;
        m_figure.setGrid(*m_grid, engine()->shape(m_grid->quantity), colormap());
        plot()->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(m_quantityBox, &QComboBox::currentIndexChanged, this, [this] {
        resetView();
        requestCompute();
    });
    for (const auto type : {QCPAxis::atBottom, QCPAxis::atLeft})
        connect(m_figure.panel().axisRect()->axis(type), qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
                &HeatmapView::requestCompute);
    resetView();
}

Quantity HeatmapView::quantity() const
{
    return static_cast<Quantity>(m_quantityBox->currentData().toInt());
}

void HeatmapView::setQuantity(Quantity quantity)
{
    m_quantityBox->setCurrentIndex(m_quantityBox->findData(static_cast<int>(quantity)));
}

std::optional<Colormap> HeatmapView::colormap() const
{
    return Colormaps::fromName(m_colormapBox->currentData().toString());
}

void HeatmapView::setColormap(std::optional<Colormap> colormap)
{
    m_colormapBox->setCurrentIndex(colormap ? m_colormapBox->findData(Colormaps::name(*colormap)) : 0);
}

QCPRange HeatmapView::columnRange() const
{
    return m_figure.panel().axisRect()->axis(QCPAxis::atBottom)->range();
}

QCPRange HeatmapView::positionRange() const
{
    return m_figure.panel().axisRect()->axis(QCPAxis::atLeft)->range();
}

void HeatmapView::setVisibleRanges(const QCPRange &columns, const QCPRange &positions)
{
    m_figure.panel().axisRect()->axis(QCPAxis::atBottom)->setRange(columns);
    m_figure.panel().axisRect()->axis(QCPAxis::atLeft)->setRange(positions);
}

void HeatmapView::setCursorPosition(std::optional<std::int64_t> position)
{
    placeCursorLine(m_cursor, position ? std::optional<double>(static_cast<double>(*position)) : std::nullopt, true);
    replotCursor();
}

void HeatmapView::resetView()
{
    m_figure.panel().fitAxes(engine()->shape(quantity()));
}

std::optional<FigureOptions> HeatmapView::figureOptions() const
{
    FigureOptions options;
    options.kind = FigureKind::Heatmap;
    options.quantity = quantity();
    options.colormap = colormap();
    options.positionView = positionRange();
    options.columnView = columnRange();
    return options;
}

std::optional<TableRequest> HeatmapView::tableRequest() const
{
    // The whole cells in view, as `posenc table QUANTITY --positions A:B --dims C:D` writes them.
    const Quantity q = quantity();
    const Shape shape = engine()->shape(q);
    const auto rows = TableView::cellsInView(positionRange().lower, positionRange().upper, shape.rows);
    const auto cols = TableView::cellsInView(columnRange().lower, columnRange().upper, shape.cols);
    if (!rows || !cols)
        return std::nullopt;
    return TableRequest {
        TableRequest::Cells, q, {rows->first, rows->second - rows->first, cols->first, cols->second - cols->first}, {}};
}

void HeatmapView::paramsChanged(bool shapeChanged)
{
    if (shapeChanged)
        resetView();
}

ComputeScheduler::Job HeatmapView::makeJob()
{
    const Quantity q = quantity();
    const HeatmapRequest request = PanelGeometry::visibleRequest(m_figure.panel(), q, engine()->shape(q));
    return [engine = engine(), request, serial = figureSerial(),
            self = QPointer(this)](const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
        // A block within the preview budget is exact at once: no preview pass.
        const bool small = request.block.cells() <= Budget::cells(Detail::Preview);
        previewThenFull(
            small, cancel, publish,
            [&](Detail detail) {
                return computeHeatmap(*engine, request, detail, {kJobThreads, &cancel});
            },
            [self, serial](const std::shared_ptr<const HeatmapGrid> &data, Detail detail) {
                if (self)
                    self->show(data, serial, detail);
            });
    };
}

void HeatmapView::show(const std::shared_ptr<const HeatmapGrid> &grid, quint64 serial, Detail detail)
{
    m_grid = grid;
    m_figure.setGrid(*grid, engine()->shape(grid->quantity), colormap());
    resultShown(serial, detail);
}

std::optional<HoverPoint> HeatmapView::hoverAt(const QPointF &pixel) const
{
    const Quantity q = quantity();
    const auto cell = PanelGeometry::cellAt(m_figure.panel(), pixel, engine()->shape(q));
    if (!cell)
        return std::nullopt;
    HoverPoint point;
    point.position = cell->first;
    point.column = cell->second;
    point.columnIsPe = q == Quantity::Pe || q == Quantity::Error;
    // One cell, exact, straight from the engine: microseconds.
    RowMatrixXf value(1, 1);
    engine()->computeBlock(q, {cell->first, 1, cell->second, 1}, value);
    point.value = value(0, 0);
    point.valueName = FigureText::quantityLabel(q);
    return point;
}

bool HeatmapView::figureDiffers(const Params &before, const Params &after) const
{
    switch (quantity()) {
    case Quantity::Pe:
    case Quantity::Error:
        return ParamRelevance::peDiffers(before, after);
    case Quantity::Embedding:
    case Quantity::Input:
        return ParamRelevance::inputDiffers(before, after);
    default:
        return !(before == after);
    }
}

} // namespace posenc
