#include "CurvesView.h"

#include "core/ParamText.h"
#include "render/PlotStyle.h"

#include "ParamRelevance.h"
#include <QHBoxLayout>
#include <QLineEdit>

#include <QPointer>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

CurvesView::CurvesView(QWidget *parent)
    : PlotView(tr("Curves"), parent)
    , m_figure(plot())
    , m_columnsEdit(new QLineEdit(this))
    , m_cursor(addCursorLine(m_figure.axisRect()))
{
    m_columnsEdit->setObjectName(u"columnsEdit"_s);
    m_columnsEdit->setToolTip(tr("Columns to draw, e.g. 0,1,64:66 (empty: a few low, middle and high columns)"));
    m_columnsEdit->setMaximumWidth(220);
    toolBar()->insertWidget(1, m_columnsEdit);
    connect(m_columnsEdit, &QLineEdit::editingFinished, this, &CurvesView::columnsEdited);
    connect(m_figure.axisRect()->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
            &CurvesView::requestCompute);
    paramsChanged(true);
    resetView();
}

std::vector<std::int64_t> CurvesView::columns() const
{
    return m_columns.empty() ? CurvesCompute::defaultColumns(params().peColumns()) : m_columns;
}

bool CurvesView::setColumnsText(const QString &text)
{
    m_columnsEdit->setText(text);
    columnsEdited();
    return m_columnsEdit->property("invalid").toBool() == false;
}

QString CurvesView::columnsText() const
{
    return m_columnsEdit->text().trimmed();
}

QCPRange CurvesView::positionRange() const
{
    return m_figure.axisRect()->axis(QCPAxis::atBottom)->range();
}

void CurvesView::setPositionRange(const QCPRange &range)
{
    m_figure.setPositionRange(range.lower, range.upper);
}

void CurvesView::columnsEdited()
{
    const QString text = m_columnsEdit->text().trimmed();
    const auto parsed = text.isEmpty() ? std::optional<std::vector<std::int64_t>>(std::vector<std::int64_t> {})
                                       : ParamText::parseIndexList(text);
    const bool valid = parsed.has_value();
    m_columnsEdit->setProperty("invalid", !valid);
    m_columnsEdit->setStyleSheet(valid ? QString() : u"QLineEdit { border: 1px solid #c0392b; }"_s);
    m_columnsEdit->setToolTip(valid ? tr("Columns to draw, e.g. 0,1,64:66 (empty: a few low, middle and high columns)")
                                    : tr("Not a list of columns: write e.g. 0,1,64:66"));
    if (!valid)
        return;
    m_columns = *parsed;
    requestCompute();
}

void CurvesView::setCursorPosition(std::optional<std::int64_t> position)
{
    placeCursorLine(m_cursor, position ? std::optional<double>(static_cast<double>(*position)) : std::nullopt, false);
    replotCursor();
}

void CurvesView::resetView()
{
    // Few enough positions that the integer ones are marked on the curves.
    m_figure.setPositionRange(0.0, static_cast<double>(CurvesCompute::defaultLastPosition(params().maxLen)));
}

std::optional<FigureOptions> CurvesView::figureOptions() const
{
    FigureOptions options;
    options.kind = FigureKind::Curves;
    options.columns = columns();
    options.positionView = positionRange();
    return options;
}

std::optional<TableRequest> CurvesView::tableRequest() const
{
    // The PE columns drawn at the integer positions in view: `posenc table pe --positions A:B
    // --dims LIST`.
    const std::vector<std::int64_t> drawn = columns();
    const auto rows = TableView::integersInView(positionRange().lower, positionRange().upper, params().maxLen);
    if (!rows || drawn.empty())
        return std::nullopt;
    return TableRequest {TableRequest::Cells, Quantity::Pe,
                         TableView::blockCovering(rows->first, rows->second, drawn), drawn};
}

void CurvesView::paramsChanged(bool shapeChanged)
{
    m_columnsEdit->setPlaceholderText(tr("columns (default %1)").arg([this] {
        QStringList list;
        for (const std::int64_t c : CurvesCompute::defaultColumns(params().peColumns()))
            list << QString::number(c);
        return list.join(u","_s);
    }()));
    if (shapeChanged)
        resetView();
}

ComputeScheduler::Job CurvesView::makeJob()
{
    // Every resize asks for a job, whose result draws the legend as the exporter would.
    m_figure.setCompact(PlotStyle::isCompact(plot()->size()));
    const QCPRange range = m_figure.axisRect()->axis(QCPAxis::atBottom)->range();
    const CurvesRequest request {columns(), range.lower, range.upper, devicePixels(m_figure.axisRect()).width()};
    return [engine = engine(), request, serial = figureSerial(),
            self = QPointer(this)](const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
        auto data = CurvesCompute::compute(*engine, request, {kJobThreads, &cancel});
        if (!data)
            return;
        auto shared = std::make_shared<const CurvesData>(std::move(*data));
        publish([self, shared, serial] {
            if (self)
                self->show(shared, serial);
        });
    };
}

void CurvesView::show(const std::shared_ptr<const CurvesData> &data, quint64 serial)
{
    m_data = data;
    m_figure.setData(*data);
    resultShown(serial, Detail::Full);
}

std::optional<HoverPoint> CurvesView::hoverAt(const QPointF &pixel) const
{
    const QCPAxisRect *rect = m_figure.axisRect();
    if (!rect->rect().contains(pixel.toPoint()) || !m_data || m_data->curves.isEmpty())
        return std::nullopt;
    const auto p = static_cast<std::int64_t>(std::llround(rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())));
    if (p < 0 || p >= params().maxLen)
        return std::nullopt;
    // The curve nearest the mouse at that position.
    const double y = rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y());
    const Curve *nearest = nullptr;
    double best = INFINITY, bestValue = 0.0;
    for (const Curve &curve : m_data->curves) {
        const double angle = static_cast<double>(p) * curve.frequency;
        const double value = curve.isCos ? std::cos(angle) : std::sin(angle);
        if (std::abs(value - y) < best) {
            best = std::abs(value - y);
            bestValue = value;
            nearest = &curve;
        }
    }
    HoverPoint point;
    point.position = p;
    point.column = nearest->column;
    point.columnIsPe = true;
    point.value = bestValue;
    point.valueName = u"PE"_s;
    return point;
}

bool CurvesView::figureDiffers(const Params &before, const Params &after) const
{
    return ParamRelevance::peDiffers(before, after);
}

} // namespace posenc
