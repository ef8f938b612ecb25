#include "DiagonalRuns.h"

#include <algorithm>

namespace posenc::DiagonalRuns {

namespace {

// The last k in [from, end] with f(k) == value, f monotone on [from, end] and f(from) == value.
// `guess`, the length of the run before (0: none), is tried first: a staircase's runs most often
// grow or shrink slowly (a logarithmic bucket's), and the two calls at its end then settle the run
// where galloping and bisection took about two per doubling of its length (a third of DeBERTa's
// map at L 65,536). The run found is the same either way.
std::int64_t diagonalRunEnd(std::int64_t from, std::int64_t end, double value,
                            const std::function<double(std::int64_t)> &f, std::int64_t guess)
{
    // The run holds from..from + good and not from + bad (or bad is past the end); 0: not known yet.
    std::int64_t good = 0, bad = 0, step = 1;
    if (guess > 1 && from + guess - 1 <= end) {
        if (f(from + guess - 1) != value) {
            bad = guess - 1;
        } else {
            good = guess - 1;
            step = guess;
        }
    }
    if (bad == 0) {
        // Gallop from what is known to hold.
        while (from + step <= end && f(from + step) == value) {
            good = step;
            step *= 2;
        }
        bad = std::min(step, end - from + 1);
    }
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
        std::int64_t length = 0; // the run before's, in this piece
        for (std::int64_t k = piece[0]; k <= piece[1];) {
            const double value = f(k);
            const std::int64_t end = diagonalRunEnd(k, piece[1], value, f, length);
            length = end - k + 1;
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
