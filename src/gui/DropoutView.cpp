#include "DropoutView.h"

#include "PanelGeometry.h"

#include "render/PlotStyle.h"

#include <QPointer>

using namespace Qt::StringLiterals;

namespace posenc {

DropoutView::DropoutView(QWidget *parent)
    : PlotView(tr("Dropout"), parent)
    , m_figure(plot())
    , m_maskCursor(addCursorLine(m_figure.maskPanel().axisRect()))
    , m_outputCursor(addCursorLine(m_figure.outputPanel().axisRect()))
{
    for (const auto type : {QCPAxis::atBottom, QCPAxis::atLeft})
        connect(m_figure.maskPanel().axisRect()->axis(type), qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
                &DropoutView::requestCompute);
    resetView();
}

void DropoutView::setCursorPosition(std::optional<std::int64_t> position)
{
    const auto y = position ? std::optional<double>(static_cast<double>(*position)) : std::nullopt;
    placeCursorLine(m_maskCursor, y, true);
    placeCursorLine(m_outputCursor, y, true);
    replotCursor();
}

void DropoutView::resetView()
{
    const Block block = DropoutCompute::defaultBlock(engine()->shape(Quantity::Mask));
    HeatmapPanel &panel = m_figure.maskPanel();
    panel.axisRect()->axis(QCPAxis::atBottom)->setRange(-0.5, static_cast<double>(block.cols) - 0.5);
    panel.axisRect()->axis(QCPAxis::atLeft)->setRange(-0.5, static_cast<double>(block.rows) - 0.5);
}

std::optional<FigureOptions> DropoutView::figureOptions() const
{
    const QCPAxisRect *rect = m_figure.maskPanel().axisRect();
    FigureOptions options;
    options.kind = FigureKind::Dropout;
    options.positionView = rect->axis(QCPAxis::atLeft)->range();
    options.columnView = rect->axis(QCPAxis::atBottom)->range();
    return options;
}

std::optional<TableRequest> DropoutView::tableRequest() const
{
    // The mask's whole cells in view.
    const QCPAxisRect *rect = m_figure.maskPanel().axisRect();
    const Shape shape = engine()->shape(Quantity::Mask);
    const QCPRange positions = rect->axis(QCPAxis::atLeft)->range();
    const QCPRange columns = rect->axis(QCPAxis::atBottom)->range();
    const auto rows = TableView::cellsInView(positions.lower, positions.upper, shape.rows);
    const auto cols = TableView::cellsInView(columns.lower, columns.upper, shape.cols);
    if (!rows || !cols)
        return std::nullopt;
    return TableRequest {TableRequest::Cells,
                         Quantity::Mask,
                         {rows->first, rows->second - rows->first, cols->first, cols->second - cols->first},
                         {}};
}

void DropoutView::paramsChanged(bool shapeChanged)
{
    if (shapeChanged)
        resetView();
}

ComputeScheduler::Job DropoutView::makeJob()
{
    const HeatmapRequest visible
        = PanelGeometry::visibleRequest(m_figure.maskPanel(), Quantity::Mask, engine()->shape(Quantity::Mask));
    const DropoutRequest request {visible.block, visible.pixelRows, visible.pixelCols};
    return [engine = engine(), request, serial = figureSerial(),
            self = QPointer(this)](const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
        const Params &p = engine->params();
        const bool small = p.maxLen * p.dModel <= Budget::cells(Detail::Preview);
        previewThenFull(
            small, cancel, publish,
            [&](Detail detail) {
                return DropoutCompute::compute(*engine, request, detail, {kJobThreads, &cancel});
            },
            [self, serial](const std::shared_ptr<const DropoutData> &data, Detail detail) {
                if (self)
                    self->show(data, serial, detail);
            });
    };
}

void DropoutView::show(const std::shared_ptr<const DropoutData> &data, quint64 serial, Detail detail)
{
    m_data = data;
    m_figure.setData(*data);
    resultShown(serial, detail);
}

std::optional<HoverPoint> DropoutView::hoverAt(const QPointF &pixel) const
{
    const Shape shape = engine()->shape(Quantity::Mask);
    for (const auto &[panel, quantity] :
         {std::pair {&m_figure.maskPanel(), Quantity::Mask}, std::pair {&m_figure.outputPanel(), Quantity::Output}}) {
        const auto cell = PanelGeometry::cellAt(*panel, pixel, shape);
        if (!cell)
            continue;
        HoverPoint point;
        point.position = cell->first;
        point.column = cell->second;
        RowMatrixXf value(1, 1);
        engine()->computeBlock(quantity, {cell->first, 1, cell->second, 1}, value);
        point.value = value(0, 0);
        point.valueName = quantity == Quantity::Mask ? u"kept"_s : u"Y"_s;
        return point;
    }
    return std::nullopt;
}

} // namespace posenc
