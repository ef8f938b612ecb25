#include "LinkedCursor.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {
const QString kCursorLayer = u"cursor"_s;
} // namespace

LinkedCursor::LinkedCursor(QCustomPlot *plot)
    : m_plot(plot)
{
    m_plot->addLayer(kCursorLayer, m_plot->layer(u"main"_s), QCustomPlot::limAbove);
    m_plot->layer(kCursorLayer)->setMode(QCPLayer::lmBuffered);
}

void LinkedCursor::attach(const QList<PositionAxis> &axes)
{
    m_lines.clear();
    for (const PositionAxis &where : axes) {
        auto *line = new QCPItemStraightLine(m_plot);
        line->setLayer(kCursorLayer);
        line->setClipAxisRect(where.rect);
        line->setClipToAxisRect(true);
        line->setPen(QPen(QColor(20, 20, 20, 170), 1.0, Qt::DashLine));
        line->setSelectable(false);
        for (QCPItemPosition *position : line->positions())
            position->setAxes(where.rect->axis(QCPAxis::atBottom), where.rect->axis(QCPAxis::atLeft));
        line->setVisible(false);
        m_lines.append({line, where.horizontal});
    }
}

void LinkedCursor::place(std::optional<std::int64_t> position)
{
    for (const auto &[line, horizontal] : std::as_const(m_lines)) {
        line->setVisible(position.has_value());
        if (!position)
            continue;
        const auto p = static_cast<double>(*position);
        line->point1->setCoords(horizontal ? 0.0 : p, horizontal ? p : 0.0);
        line->point2->setCoords(horizontal ? 1.0 : p, horizontal ? p : 1.0);
    }
    m_plot->layer(kCursorLayer)->replot();
}

} // namespace posenc
