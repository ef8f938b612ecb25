#pragma once

#include "QCustomPlot.h"

namespace posenc {

// The axes of `rect` left, right, top, bottom, each side's in the order they were added. QCustomPlot's
// QCPAxisRect::axes() lists them in its QHash's order, which Qt seeds afresh in each process: a room
// step that takes the first of them to shorten or to set aside laid a figure out one way in one run
// of `posenc export` and the other way in the next (docs/ARCHITECTURE.md, "Exporting").
inline QList<QCPAxis *> axesInOrder(const QCPAxisRect &rect)
{
    return rect.axes(QCPAxis::atLeft | QCPAxis::atRight | QCPAxis::atTop | QCPAxis::atBottom);
}

} // namespace posenc
