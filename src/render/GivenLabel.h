#pragma once

#include "render/QCustomPlot.h"

#include <QString>
#include <QVariant>

// An axis label a figure gives from its data at every fill (the rows' index: "position p" or
// "timestep t"), set only where it differs from the one given last. A room step may have set a
// shorter form of it (ShorterLabels) or handed it to a neighbouring panel: giving the same text
// again would undo that, and the view's layout, settled with it, would no longer be current
// (FigureLayoutLoop::isCurrent: a change then costs a layout more before its draft is drawn).
namespace posenc::GivenLabel {

inline constexpr char kProperty[] = "posencGivenLabel";

inline void give(QCPAxis *axis, const QString &label)
{
    const QVariant given = axis->property(kProperty);
    if (given.isValid() && given.toString() == label)
        return;
    axis->setProperty(kProperty, label);
    axis->setLabel(label);
}

} // namespace posenc::GivenLabel
