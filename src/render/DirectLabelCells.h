#pragma once

#include "render/SegmentClip.h"

#include <QPointF>
#include <QRect>
#include <QRectF>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace posenc::DirectLabels {

// The cells of a plot (one layout unit each) a curve's line or marks are drawn over, counted
// within any box: a bit a cell, row by row, and a box's count the bits set in its rows' spans. A
// summed-area table answered each box in four reads, but it was four bytes a cell made anew at each
// layout pass for each curve: at every room step of dropout-on-sum's window its zeroing and page
// faults were half of the GUI thread's time; a label's box spans a few rows of a few words.
class Cells
{
public:
    // A plot squeezed past none (a trial layout of little room) has no cells but its corner.
    explicit Cells(const QRect &rect)
        : m_rect(rect)
        , m_width(std::max(rect.width(), 0) + 1)
        , m_height(std::max(rect.height(), 0) + 1)
        , m_words((m_width + 63) / 64)
        , m_bits(std::size_t(m_words) * std::size_t(m_height), 0)
    { }

    void mark(const QPointF &p, double radius)
    {
        const int x0 = std::max(int(std::floor(p.x() - radius)) - m_rect.left(), 0),
                  x1 = std::min(int(std::floor(p.x() + radius)) - m_rect.left(), m_width - 1);
        const int y0 = int(std::floor(p.y() - radius)) - m_rect.top(),
                  y1 = int(std::floor(p.y() + radius)) - m_rect.top();
        if (x1 < x0)
            return;
        for (int y = std::max(y0, 0); y <= std::min(y1, m_height - 1); ++y) {
            std::uint64_t *row = m_bits.data() + std::size_t(y) * std::size_t(m_words);
            for (int x = x0; x <= x1; ++x)
                row[x >> 6] |= std::uint64_t(1) << (x & 63);
        }
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

    // Nothing left to do once marked: kept so that a scene's making says where its marks end.
    void finish() { }

    // The cells marked that `box` meets.
    int count(const QRectF &box) const
    {
        const int x0 = std::clamp(int(std::floor(box.left())) - m_rect.left(), 0, m_width);
        const int x1 = std::clamp(int(std::floor(box.right())) - m_rect.left() + 1, 0, m_width);
        const int y0 = std::clamp(int(std::floor(box.top())) - m_rect.top(), 0, m_height);
        const int y1 = std::clamp(int(std::floor(box.bottom())) - m_rect.top() + 1, 0, m_height);
        if (x1 <= x0 || y1 <= y0)
            return 0;
        // The span [x0, x1) of a row: its first and last words masked, those between whole.
        const int first = x0 >> 6, last = (x1 - 1) >> 6;
        const std::uint64_t head = ~std::uint64_t(0) << (x0 & 63);
        const std::uint64_t tail = ~std::uint64_t(0) >> (63 - ((x1 - 1) & 63));
        int count = 0;
        for (int y = y0; y < y1; ++y) {
            const std::uint64_t *row = m_bits.data() + std::size_t(y) * std::size_t(m_words);
            if (first == last) {
                count += std::popcount(row[first] & head & tail);
                continue;
            }
            count += std::popcount(row[first] & head) + std::popcount(row[last] & tail);
            for (int w = first + 1; w < last; ++w)
                count += std::popcount(row[w]);
        }
        return count;
    }

private:
    QRect m_rect;
    int m_width;
    int m_height;
    int m_words; // 64 cells a word, each row whole words
    std::vector<std::uint64_t> m_bits;
};

} // namespace posenc::DirectLabels
