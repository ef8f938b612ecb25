#pragma once

#include "render/SegmentClip.h"

#include <QPointF>
#include <QRect>
#include <QRectF>

#include <QtGlobal>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
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
        // Its points go one way along each axis, from `from` to its last step's point, each step
        // under a unit: all in the cells between those two's, and every one of them along an axis
        // where the two share the other. Within one column (a dense curve's, however far it swings
        // up and down: its steps were most of a zoomed view's fitting, issue 62) or one row, that is
        // every cell of the run between them.
        const QPointF end = from + (to - from) * 1.0; // its last step's point, as the loop below makes it
        const int ax = int(std::floor(from.x())) - m_rect.left(), ay = int(std::floor(from.y())) - m_rect.top();
        const int bx = int(std::floor(end.x())) - m_rect.left(), by = int(std::floor(end.y())) - m_rect.top();
        if (ax == bx) {
            column(ax, std::min(ay, by), std::max(ay, by));
            return;
        }
        if (ay == by) {
            markRun(std::min(ax, bx), std::max(ax, bx), ay, ay);
            return;
        }
        const int steps = std::max(1, stepsAlong(to.x() - from.x(), to.y() - from.y()));
        m_steps += quint64(steps) + 1;
        // Each step the one cell its point falls in, as mark(point, 0) marks it.
        for (int i = 0; i <= steps; ++i) {
            const QPointF p = from + (to - from) * (double(i) / steps);
            const int x = int(std::floor(p.x())) - m_rect.left(), y = int(std::floor(p.y())) - m_rect.top();
            if (x >= 0 && x < m_width && y >= 0 && y < m_height)
                m_bits[std::size_t(y) * std::size_t(m_words) + std::size_t(x >> 6)] |= std::uint64_t(1) << (x & 63);
        }
    }

    // The cells marked, once the last is: a curve's runs within one column are joined as its
    // segments come, and marked here (the cells are asked only after).
    void finish()
    {
        if (m_pending)
            markRun(m_pending->x, m_pending->x, m_pending->y0, m_pending->y1);
        m_pending.reset();
        g_steps.fetch_add(m_steps, std::memory_order_relaxed);
        m_steps = 0;
    }

    // The steps taken to mark cells so far, on any thread, by the cells finished: a point along a
    // segment, a row of a run, a segment joined to its column's run.
    static quint64 steps() { return g_steps.load(std::memory_order_relaxed); }

    // The cells marked that `box` meets.
    int count(const QRectF &box) const
    {
        int count = 0;
        spans(box, [&](std::uint64_t bits) {
            count += std::popcount(bits);
            return false;
        });
        return count;
    }

    // Whether `box` meets a cell marked: count(box) > 0, read until the first (a label's places
    // ask only that; a popcount of every word was most of their time where the processor has none).
    bool meets(const QRectF &box) const
    {
        return spans(box, [](std::uint64_t bits) { return bits != 0; });
    }

    // Whether `other`, finished, covers the same cells of the same plot.
    bool sameCells(const Cells &other) const { return m_rect == other.m_rect && m_bits == other.m_bits; }
    // Whether `other` holds the cells of the same plot: unite() takes it.
    bool sameRect(const Cells &other) const { return m_rect == other.m_rect; }
    // The cells `other` (of the same plot, finished) marks, marked too: a box meets these where it
    // meets either's, and so one read asks several curves that a box keeps off by the same pad.
    void unite(const Cells &other)
    {
        for (std::size_t i = 0; i < m_bits.size(); ++i)
            m_bits[i] |= other.m_bits[i];
    }

private:
    // Half units along (dx, dy), rounded up, as std::hypot's length gives them: a square root
    // gives the same but within a few ulps of a whole number, where hypot decides.
    static int stepsAlong(double dx, double dy)
    {
        const double twice = std::sqrt(dx * dx + dy * dy) * 2.0;
        if (std::abs(twice - std::round(twice)) > 1e-9 * std::max(1.0, twice))
            return int(std::ceil(twice));
        return int(std::ceil(std::hypot(dx, dy) * 2.0));
    }

    // The cells of column `x` from `y0` to `y1`, joined to the run before where they meet or touch
    // it in its column (a curve's segments within one column, one after the other), else marked
    // after it: marked all the same, each cell of a run once.
    void column(int x, int y0, int y1)
    {
        ++m_steps;
        if (m_pending && m_pending->x == x && y0 <= m_pending->y1 + 1 && y1 >= m_pending->y0 - 1) {
            m_pending->y0 = std::min(m_pending->y0, y0);
            m_pending->y1 = std::max(m_pending->y1, y1);
            return;
        }
        finish();
        m_pending = Run {x, y0, y1};
    }

    // The cells from (x0, y0) to (x1, y1), in the plot's cells' coordinates, those within it.
    void markRun(int x0, int x1, int y0, int y1)
    {
        x0 = std::max(x0, 0);
        x1 = std::min(x1, m_width - 1);
        y0 = std::max(y0, 0);
        y1 = std::min(y1, m_height - 1);
        if (x1 < x0 || y1 < y0)
            return;
        const int first = x0 >> 6, last = x1 >> 6;
        m_steps += quint64(y1 - y0 + 1) * quint64(last - first + 1);
        for (int y = y0; y <= y1; ++y) {
            std::uint64_t *row = m_bits.data() + std::size_t(y) * std::size_t(m_words);
            for (int w = first; w <= last; ++w) {
                std::uint64_t bits = ~std::uint64_t(0);
                if (w == first)
                    bits &= ~std::uint64_t(0) << (x0 & 63);
                if (w == last)
                    bits &= ~std::uint64_t(0) >> (63 - (x1 & 63));
                row[w] |= bits;
            }
        }
    }

    // `take` each word of the bits `box` meets, masked to it, until it returns true; whether it did.
    template<typename Take>
    bool spans(const QRectF &box, Take &&take) const
    {
        const int x0 = std::clamp(int(std::floor(box.left())) - m_rect.left(), 0, m_width);
        const int x1 = std::clamp(int(std::floor(box.right())) - m_rect.left() + 1, 0, m_width);
        const int y0 = std::clamp(int(std::floor(box.top())) - m_rect.top(), 0, m_height);
        const int y1 = std::clamp(int(std::floor(box.bottom())) - m_rect.top() + 1, 0, m_height);
        if (x1 <= x0 || y1 <= y0)
            return false;
        // The span [x0, x1) of a row: its first and last words masked, those between whole.
        const int first = x0 >> 6, last = (x1 - 1) >> 6;
        const std::uint64_t head = ~std::uint64_t(0) << (x0 & 63);
        const std::uint64_t tail = ~std::uint64_t(0) >> (63 - ((x1 - 1) & 63));
        for (int y = y0; y < y1; ++y) {
            const std::uint64_t *row = m_bits.data() + std::size_t(y) * std::size_t(m_words);
            if (first == last) {
                if (take(row[first] & head & tail))
                    return true;
                continue;
            }
            if (take(row[first] & head) || take(row[last] & tail))
                return true;
            for (int w = first + 1; w < last; ++w)
                if (take(row[w]))
                    return true;
        }
        return false;
    }

    struct Run
    {
        int x, y0, y1;
    };

    static inline std::atomic<quint64> g_steps {0};

    QRect m_rect;
    quint64 m_steps = 0; // taken since the last finish()
    std::optional<Run> m_pending; // a column's run not yet marked (finish)
    int m_width;
    int m_height;
    int m_words; // 64 cells a word, each row whole words
    std::vector<std::uint64_t> m_bits;
};

} // namespace posenc::DirectLabels
