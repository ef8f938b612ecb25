#pragma once

#include "render/QCustomPlot.h"

#include <QMargins>
#include <QRect>

// The label tests' plot (tst_directlabelleaders, tst_directlabelrules, tst_shadelabels): 300 x 200
// layout units, its axes from 0 to its size, its plot the whole of it, laid out once.
namespace posenc::PlainPlot {

inline QCPAxisRect *make(QCustomPlot &plot)
{
    plot.setGeometry(0, 0, 300, 200);
    plot.setViewport(QRect(0, 0, 300, 200));
    plot.plotLayout()->setMargins(QMargins());
    QCPAxisRect *rect = plot.axisRect();
    rect->setAutoMargins(QCP::msNone);
    rect->setMargins(QMargins());
    rect->axis(QCPAxis::atBottom)->setRange(0.0, 300.0);
    rect->axis(QCPAxis::atLeft)->setRange(0.0, 200.0);
    for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        plot.plotLayout()->update(phase);
    return rect;
}

} // namespace posenc::PlainPlot
