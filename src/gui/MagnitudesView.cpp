#include "MagnitudesView.h"

#include "ParamRelevance.h"

#include "render/PlotStyle.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

MagnitudesView::MagnitudesView(QWidget *parent)
    : PlotView(tr("Magnitudes"), parent)
    , m_figure(plot())
    , m_cursor(addCursorLine(m_figure.positionRect()))
    , m_note(new QLabel(this))
{
    m_note->setObjectName(u"matrixNote"_s);
    m_note->setVisible(false);
    toolBar()->insertWidget(1, m_note, 1);
}

void MagnitudesView::setNote(const QString &text)
{
    m_note->setText(text);
    m_note->setToolTip(text);
    m_note->setVisible(!text.isEmpty());
}

QString MagnitudesView::note() const
{
    return m_note->text();
}

void MagnitudesView::setCursorPosition(std::optional<std::int64_t> position)
{
    placeCursorLine(m_cursor, position ? std::optional<double>(static_cast<double>(*position)) : std::nullopt, false);
    replotCursor();
}

void MagnitudesView::resetView()
{
    if (m_data)
        m_figure.setData(*m_data);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

std::optional<FigureOptions> MagnitudesView::figureOptions() const
{
    FigureOptions options;
    options.kind = FigureKind::Magnitudes;
    return options;
}

std::optional<TableRequest> MagnitudesView::tableRequest() const
{
    // Every position, as the figure shows them: ||PE_p||, ||s*E_p|| and their ratio.
    TableRequest request;
    request.content = TableRequest::PositionNorms;
    request.block = {0, params().maxLen, 0, 0};
    return request;
}

ComputeScheduler::Job MagnitudesView::makeJob()
{
    // Every resize asks for a job: the layout follows the size as the exporter's does.
    if (m_figure.isCompact() != PlotStyle::isCompact(plot()->size())) {
        m_figure.setCompact(!m_figure.isCompact());
        plot()->replot(QCustomPlot::rpQueuedReplot);
    }
    const int pixels = devicePixels(m_figure.positionRect()).width();
    return [engine = engine(), pixels, serial = figureSerial(),
            self = QPointer(this)](const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
        const Params &p = engine->params();
        const bool small = p.maxLen * p.dModel <= Budget::cells(Detail::Preview);
        previewThenFull(
            small, cancel, publish,
            [&](Detail detail) {
                return MagnitudesCompute::compute(*engine, pixels, detail, {kJobThreads, &cancel});
            },
            [self, serial](const std::shared_ptr<const MagnitudesData> &data, Detail detail) {
                if (self)
                    self->show(data, serial, detail);
            });
    };
}

void MagnitudesView::show(const std::shared_ptr<const MagnitudesData> &data, quint64 serial, Detail detail)
{
    m_data = data;
    m_figure.setData(*data);
    resultShown(serial, detail);
}

std::optional<HoverPoint> MagnitudesView::hoverAt(const QPointF &pixel) const
{
    if (!m_data || m_data->positions.isEmpty())
        return std::nullopt;
    const auto indexOf = [](const QList<double> &keys, double x) {
        const auto it = std::lower_bound(keys.begin(), keys.end(), x);
        qsizetype i = std::clamp<qsizetype>(it - keys.begin(), 0, keys.size() - 1);
        if (i > 0 && std::abs(keys[i - 1] - x) < std::abs(keys[i] - x))
            --i;
        return i;
    };
    HoverPoint point;
    if (m_figure.positionRect()->rect().contains(pixel.toPoint())) {
        const double x = m_figure.positionRect()->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
        const qsizetype i = indexOf(m_data->positions, x);
        point.position = static_cast<std::int64_t>(m_data->positions[i]);
        point.value = m_data->ratio[i];
        point.valueName = u"‖s·E_p‖ = %1, ‖PE_p‖ = %2, ratio"_s.arg(m_data->embeddingNorm[i], 0, 'g', 5)
                              .arg(m_data->peNorm[i], 0, 'g', 5);
        return point;
    }
    if (m_figure.columnRect()->rect().contains(pixel.toPoint()) && !m_data->columns.isEmpty()) {
        const double x = m_figure.columnRect()->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
        const qsizetype j = indexOf(m_data->columns, x);
        point.hasPosition = false;
        point.column = static_cast<std::int64_t>(j);
        point.value = m_data->peRms[j] / m_data->embeddingRms[j];
        point.valueName = u"RMS PE = %1, RMS s·E = %2, ratio"_s.arg(m_data->peRms[j], 0, 'g', 5)
                              .arg(m_data->embeddingRms[j], 0, 'g', 5);
        return point;
    }
    return std::nullopt;
}

bool MagnitudesView::figureDiffers(const Params &before, const Params &after) const
{
    return ParamRelevance::inputDiffers(before, after);
}

} // namespace posenc
