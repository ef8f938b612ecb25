#pragma once

#include "render/SegmentClip.h"

#include <QPointF>
#include <QRect>
#include <QRectF>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace posenc::DirectLabels {

// The cells of a plot (one layout unit each) a curve's line or marks are drawn over, counted
// within any box at once (summed areas).
class Cells
{
public:
    // A plot squeezed past none (a trial layout of little room) has no cells but its corner.
    explicit Cells(const QRect &rect)
        : m_rect(rect)
        , m_width(std::max(rect.width(), 0) + 1)
        , m_height(std::max(rect.height(), 0) + 1)
        , m_marked(std::size_t(m_width) * std::size_t(m_height), 0)
    { }

    void mark(const QPointF &p, double radius)
    {
        const int x0 = int(std::floor(p.x() - radius)) - m_rect.left(),
                  x1 = int(std::floor(p.x() + radius)) - m_rect.left();
        const int y0 = int(std::floor(p.y() - radius)) - m_rect.top(),
                  y1 = int(std::floor(p.y() + radius)) - m_rect.top();
        for (int y = std::max(y0, 0); y <= std::min(y1, m_height - 1); ++y)
            for (int x = std::max(x0, 0); x <= std::min(x1, m_width - 1); ++x)
                m_marked[std::size_t(y) * std::size_t(m_width) + std::size_t(x)] = 1;
    }

    // The segment from `a` to `b`, within the plot (clipped to it, so that a line far past its
    // range costs nothing), in steps of half a unit.
    void segment(QPointF a, QPointF b)
    {
        const QRectF room = QRectF(m_rect).adjusted(-1.0, -1.0, 1.0, 1.0);
        const auto t = clippedSegment(a, b, room);
        if (!t)
            return;
        const auto [t0, t1] = *t;
        const QPointF from = a + (b - a) * t0, to = a + (b - a) * t1;
        const int steps = std::max(1, int(std::ceil(std::hypot(to.x() - from.x(), to.y() - from.y()) * 2.0)));
        for (int i = 0; i <= steps; ++i)
            mark(from + (to - from) * (double(i) / steps), 0.0);
    }

    void finish()
    {
        m_sums.assign(std::size_t(m_width + 1) * std::size_t(m_height + 1), 0);
        for (int y = 0; y < m_height; ++y)
            for (int x = 0; x < m_width; ++x)
                m_sums[index(x + 1, y + 1)] = m_marked[std::size_t(y) * std::size_t(m_width) + std::size_t(x)]
                    + m_sums[index(x, y + 1)] + m_sums[index(x + 1, y)] - m_sums[index(x, y)];
    }

    // The cells marked that `box` meets.
    int count(const QRectF &box) const
    {
        const int x0 = std::clamp(int(std::floor(box.left())) - m_rect.left(), 0, m_width);
        const int x1 = std::clamp(int(std::floor(box.right())) - m_rect.left() + 1, 0, m_width);
        const int y0 = std::clamp(int(std::floor(box.top())) - m_rect.top(), 0, m_height);
        const int y1 = std::clamp(int(std::floor(box.bottom())) - m_rect.top() + 1, 0, m_height);
        if (x1 <= x0 || y1 <= y0)
            return 0;
        return m_sums[index(x1, y1)] - m_sums[index(x0, y1)] - m_sums[index(x1, y0)] + m_sums[index(x0, y0)];
    }

private:
    std::size_t index(int x, int y) const { return std::size_t(y) * std::size_t(m_width + 1) + std::size_t(x); }

    QRect m_rect;
    int m_width;
    int m_height;
    std::vector<unsigned char> m_marked;
    std::vector<int> m_sums;
};

} // namespace posenc::DirectLabels
