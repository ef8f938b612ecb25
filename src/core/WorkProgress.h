#pragma once

#include <atomic>
#include <cstdint>

namespace posenc {

// How much of a long computation is done, counted by the threads that do it and read by another
// (the command line's progress line, docs/ARCHITECTURE.md, Command line). The work announces
// its units (rows, tiles) before it starts them and adds each finished one, so the fraction
// only ever grows within what has been announced.
class WorkProgress
{
public:
    void expect(std::int64_t units) { m_total.fetch_add(units, std::memory_order_relaxed); }
    void advance(std::int64_t units = 1) { m_done.fetch_add(units, std::memory_order_relaxed); }

    std::int64_t done() const { return m_done.load(std::memory_order_relaxed); }
    std::int64_t total() const { return m_total.load(std::memory_order_relaxed); }
    // In [0, 1]; 0 while nothing was announced.
    double fraction() const;

private:
    std::atomic<std::int64_t> m_done {0};
    std::atomic<std::int64_t> m_total {0};
};

} // namespace posenc
