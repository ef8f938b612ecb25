#include "LearnedView.h"

#include <QPointer>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

LearnedView::LearnedView(QWidget *parent)
    : PlotView(tr("Learned vs sinusoidal"), parent)
    , m_figure(plot())
    , m_cursor(addCursorLine(m_figure.normRect()))
{
    // The figure fits what it shows: nothing to zoom in the grids of averages.
    plot()->setInteractions({});
    // Hidden in its tab it gets no resize to start it: a first result says "nothing loaded".
    requestCompute();
}

void LearnedView::setCursorPosition(std::optional<std::int64_t> position)
{
    placeCursorLine(m_cursor, position ? std::optional<double>(static_cast<double>(*position)) : std::nullopt, false);
    replotCursor();
}

void LearnedView::resetView()
{
    if (m_data)
        m_figure.setData(*m_data);
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

std::optional<FigureOptions> LearnedView::figureOptions() const
{
    const Params &p = params();
    if (!p.embeddings || p.embeddings->values.rows() < p.maxLen)
        return std::nullopt;
    FigureOptions options;
    options.kind = FigureKind::Learned;
    return options;
}

ComputeScheduler::Job LearnedView::makeJob()
{
    const double ratio = plot()->devicePixelRatioF();
    const QSize table = m_figure.tablePixels() * ratio;
    const int similarity = static_cast<int>(m_figure.similarityPixels() * ratio);
    return [engine = engine(), table, similarity, serial = figureSerial(),
            self = QPointer(this)](const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
        const Params &p = engine->params();
        std::shared_ptr<const LearnedData> shared;
        if (p.embeddings && p.embeddings->values.rows() >= p.maxLen) {
            const RowMatrixXf &all = p.embeddings->values;
            const RowMatrixXf rows = all.rows() == p.maxLen ? all : RowMatrixXf(all.topRows(p.maxLen));
            auto data = LearnedCompute::compute(rows, p, table, similarity, &cancel);
            if (!data)
                return;
            shared = std::make_shared<const LearnedData>(std::move(*data));
        }
        publish([self, shared, serial] {
            if (self)
                self->show(shared, serial);
        });
    };
}

void LearnedView::show(const std::shared_ptr<const LearnedData> &data, quint64 serial)
{
    m_data = data;
    if (data)
        m_figure.setData(*data);
    resultShown(serial, Detail::Full);
}

std::optional<HoverPoint> LearnedView::hoverAt(const QPointF &pixel) const
{
    if (!m_data)
        return std::nullopt;
    const QCPAxisRect *rect = m_figure.normRect();
    if (!rect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const auto p = static_cast<std::int64_t>(std::llround(rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())));
    if (p < 0 || p >= m_data->rows)
        return std::nullopt;
    HoverPoint point;
    point.position = p;
    point.value = m_data->learnedNorm[p];
    point.valueName = u"‖PE_p‖ = %1, ‖P_p‖ learned"_s.arg(m_data->sinusoidalNorm[p], 0, 'g', 5);
    return point;
}

bool LearnedView::figureDiffers(const Params &before, const Params &after) const
{
    return before.embeddings != after.embeddings || before.maxLen != after.maxLen || before.base != after.base
        || before.layout != after.layout || before.angles != after.angles;
}

} // namespace posenc
