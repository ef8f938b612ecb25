#pragma once

#include "render/FigurePlot.h"

#include <QList>

#include <cstdint>
#include <optional>

namespace posenc {

// The mark of the hovered position in a figure of another view: a dashed line in each axis rect
// where positions run, on a layer of its own, buffered while it shows, so moving it replots that
// layer only.
class LinkedCursor
{
public:
    explicit LinkedCursor(QCustomPlot *plot);

    // Lines for the position axes of a figure just built (the plot's items were cleared).
    void attach(const QList<PositionAxis> &axes);
    void place(std::optional<std::int64_t> position);

private:
    QCustomPlot *m_plot;
    QList<std::pair<QCPItemStraightLine *, bool>> m_lines; // line, horizontal
};

} // namespace posenc
