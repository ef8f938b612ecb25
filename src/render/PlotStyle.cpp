#include "PlotStyle.h"

#include "PinnedFont.h"

using namespace Qt::StringLiterals;

namespace posenc::PlotStyle {

void preparePlot(QCustomPlot *plot)
{
    plot->setNoAntialiasingOnDrag(true);
    // Each figure puts its plottables in the legend it means; QCustomPlot would otherwise
    // adopt the first legend created as the plot's own and fill it with everything.
    plot->setAutoAddPlottableToLegend(false);
    plot->setPlottingHint(QCP::phFastPolylines, true);
    plot->setBackground(Qt::white);
    // Every element copies the plot's font when created: one family, the pinned one, everywhere.
    QFont font = PinnedFont::apply(plot->font());
    font.setPointSizeF(9.0);
    plot->setFont(font);
}

void styleAxisRect(QCPAxisRect *rect)
{
    for (QCPAxis *axis : rect->axes()) {
        QFont font = axis->tickLabelFont();
        font.setPointSizeF(8.5);
        axis->setTickLabelFont(font);
        QFont label = axis->labelFont();
        label.setPointSizeF(9.0);
        axis->setLabelFont(label);
        axis->grid()->setPen(QPen(QColor(0, 0, 0, 30), 0, Qt::DotLine));
        axis->grid()->setSubGridVisible(false);
    }
}

bool isCompact(QSize layout)
{
    return layout.width() < 500 || layout.height() < 340;
}

QCPTextElement *resetWithTitle(QCustomPlot *plot)
{
    preparePlot(plot);
    plot->clearPlottables();
    plot->clearItems();
    plot->plotLayout()->clear();
    plot->plotLayout()->setRowSpacing(0);
    QFont font = plot->font();
    font.setPointSizeF(9.5);
    font.setBold(true);
    auto *title = new QCPTextElement(plot, QString(), font);
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

} // namespace posenc::PlotStyle
