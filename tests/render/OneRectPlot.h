#pragma once

#include "render/PinnedFont.h"
#include "render/QCustomPlot.h"

#include <QFont>

namespace OneRectPlot {

// The texts' font of the placement tests' plots: the pinned family at 9 pt.
inline QFont font()
{
    return QFont(posenc::PinnedFont::family(), 9);
}

// `plot` made a 300 x 240 page (short of room at 9 pt) of one axis rect over 0..10 both ways, its
// texts in font(), no graph named in a key by itself: the rect.
inline QCPAxisRect *layOut(QCustomPlot &plot)
{
    plot.setFont(font());
    plot.setViewport(QRect(0, 0, 300, 240));
    plot.setAutoAddPlottableToLegend(false);
    plot.plotLayout()->clear();
    auto *rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 0, rect);
    for (QCPAxis *axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)}) {
        axis->setTickLabelFont(font());
        axis->setRange(0.0, 10.0);
    }
    return rect;
}

// A key in font() below the rect, the row asking a thousandth of the page.
inline QCPLegend *keyBelow(QCustomPlot &plot)
{
    auto *legend = new QCPLegend;
    legend->setFont(font());
    plot.plotLayout()->addElement(1, 0, legend);
    plot.plotLayout()->setRowStretchFactor(1, 0.001);
    return legend;
}

} // namespace OneRectPlot
