#include "DiagonalRuns.h"

#include <algorithm>

namespace posenc::DiagonalRuns {

namespace {

// The last k in [from, end] with f(k) == value, f monotone on [from, end] and f(from) == value.
std::int64_t diagonalRunEnd(std::int64_t from, std::int64_t end, double value,
                            const std::function<double(std::int64_t)> &f)
{
    // Gallop: the run holds from..from + good and not from + bad (or bad is past the end).
    std::int64_t good = 0, step = 1;
    while (from + step <= end && f(from + step) == value) {
        good = step;
        step *= 2;
    }
    std::int64_t bad = std::min(step, end - from + 1);
    while (bad - good > 1) {
        const std::int64_t mid = good + (bad - good) / 2;
        if (f(from + mid) == value)
            good = mid;
        else
            bad = mid;
    }
    return from + good;
}

} // namespace

std::vector<DiagonalRun> runs(std::int64_t first, std::int64_t last, const std::function<double(std::int64_t)> &f)
{
    std::vector<DiagonalRun> list;
    // Monotone pieces: the diagonals before the query's own, its own, those after.
    const std::int64_t pieces[3][2] = {{first, std::min<std::int64_t>(last, -1)},
                                       {std::max<std::int64_t>(first, 0), std::min<std::int64_t>(last, 0)},
                                       {std::max<std::int64_t>(first, 1), last}};
    for (const auto &piece : pieces) {
        for (std::int64_t k = piece[0]; k <= piece[1];) {
            const double value = f(k);
            const std::int64_t end = diagonalRunEnd(k, piece[1], value, f);
            if (!list.empty() && list.back().value == value && list.back().last == k - 1)
                list.back().last = end;
            else
                list.push_back({k, end, value});
            k = end + 1;
        }
    }
    return list;
}

} // namespace posenc::DiagonalRuns
