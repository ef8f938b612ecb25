#include "DropoutFigure.h"

#include "render/PlotStyle.h"

using namespace Qt::StringLiterals;

namespace posenc {

DropoutFigure::DropoutFigure(QCustomPlot *plot)
    : m_title(PlotStyle::resetWithTitle(plot))
{
    QFont font = plot->font();
    font.setPointSizeF(8.5);
    m_summary = new QCPTextElement(plot, QString(), font);
    plot->plotLayout()->addElement(1, 0, m_summary);
    auto *row = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, row);
    plot->plotLayout()->setRowStretchFactor(0, 0.01);
    plot->plotLayout()->setRowStretchFactor(1, 0.01);
    m_mask = std::make_unique<HeatmapPanel>(plot, row, 0, 0);
    m_output = std::make_unique<HeatmapPanel>(plot, row, 0, 1);
    row->setColumnSpacing(12);
    m_output->axisRect()->axis(QCPAxis::atLeft)->setLabel(QString());
    // The two panels show the same cells: moving one moves the other.
    for (const auto &[from, to] :
         {std::pair {m_mask.get(), m_output.get()}, std::pair {m_output.get(), m_mask.get()}}) {
        for (const auto type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
            QCPAxis *source = from->axisRect()->axis(type);
            QCPAxis *target = to->axisRect()->axis(type);
            QObject::connect(source, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), target,
                             qOverload<const QCPRange &>(&QCPAxis::setRange));
        }
    }
}

void DropoutFigure::setData(const DropoutData &data)
{
    HeatmapStyle maskStyle = HeatmapStyle::forQuantity(Quantity::Mask, data.mask);
    maskStyle.colorbarLabel = u"kept (1) / dropped (0)"_s;
    m_mask->setGrid(data.mask, maskStyle);
    m_output->setGrid(data.output, HeatmapStyle::forQuantity(Quantity::Output, data.output));
    m_title->setText(u"Dropout: mask (left) and output Y (right)"_s);
    m_summary->setText(DropoutCompute::summary(data));
}

} // namespace posenc
