#include "LinkedCursor.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {
const QString kCursorLayer = u"cursor"_s;
} // namespace

LinkedCursor::LinkedCursor(QCustomPlot *plot)
    : m_plot(plot)
{
    // Buffered only while a cursor shows: every buffer is cleared and composed onto the view at each
    // replot, and an empty one costs as much as a full one.
    m_plot->addLayer(kCursorLayer, m_plot->layer(u"main"_s), QCustomPlot::limAbove);
    m_plot->layer(kCursorLayer)->setMode(QCPLayer::lmLogical);
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
    QCPLayer *layer = m_plot->layer(kCursorLayer);
    const bool shown = position.has_value() && !m_lines.isEmpty();
    if (!shown && layer->mode() == QCPLayer::lmLogical
        && std::none_of(m_lines.cbegin(), m_lines.cend(), [](const auto &l) { return l.first->visible(); }))
        return; // nothing shown, nothing to take away
    // A layer that changes mode replots the whole figure once (QCPLayer::replot), then alone.
    layer->setMode(shown ? QCPLayer::lmBuffered : QCPLayer::lmLogical);
    for (const auto &[line, horizontal] : std::as_const(m_lines)) {
        line->setVisible(position.has_value());
        if (!position)
            continue;
        const auto p = static_cast<double>(*position);
        line->point1->setCoords(horizontal ? 0.0 : p, horizontal ? p : 0.0);
        line->point2->setCoords(horizontal ? 1.0 : p, horizontal ? p : 1.0);
    }
    layer->replot();
}

} // namespace posenc
