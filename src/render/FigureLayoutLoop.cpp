#include "FigureLayoutLoop.h"

#include "FigureFit.h"

namespace posenc {

FigureLayoutLoop::FigureLayoutLoop(QCustomPlot *plot)
    : m_plot(plot)
{ }

FigureLayoutLoop::FigureLayoutLoop(QCustomPlot *plot, QSize size)
    : m_plot(plot)
    , m_fileSize(size)
{ }

void FigureLayoutLoop::layOut()
{
    if (m_fileSize) {
        m_plot->setViewport(QRect(QPoint(0, 0), *m_fileSize));
        m_plot->replot();
        return;
    }
    QCPLayoutGrid *layout = m_plot->plotLayout();
    layout->setOuterRect(m_plot->rect());
    for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        layout->update(phase);
}

void FigureLayoutLoop::computingFor()
{
    m_computedFor = axisRects();
}

bool FigureLayoutLoop::refitAfterFilling()
{
    layOut();
    for (int round = 0; round < FigureFit::kMaxRounds && FigureFit::fit(m_plot); ++round)
        layOut();
    if (m_computedFor.isEmpty() || axisRects() == m_computedFor || m_refits >= kMaxRefits)
        return false;
    ++m_refits;
    return true;
}

QList<QRect> FigureLayoutLoop::axisRects() const
{
    QList<QRect> rects;
    for (const QCPAxisRect *rect : m_plot->axisRects())
        rects.append(rect->rect());
    return rects;
}

} // namespace posenc
