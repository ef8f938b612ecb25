#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace posenc {

// A stretch of diagonals k = j - i (key minus query) of an L x L table over which a function of
// k alone (a bucket, a bias) keeps one value.
struct DiagonalRun
{
    std::int64_t first = 0;
    std::int64_t last = 0; // inclusive
    double value = 0.0;

    friend bool operator==(const DiagonalRun &, const DiagonalRun &) = default;
};

namespace DiagonalRuns {

// The runs of `f` over the diagonals [first, last], in order. `f` must be monotone (either way)
// on k < 0 and on k > 0, as a bucket of the distance is on each side of the query: each run is
// found by galloping and bisection, O(runs log L) calls of `f`.
std::vector<DiagonalRun> runs(std::int64_t first, std::int64_t last, const std::function<double(std::int64_t)> &f);

} // namespace DiagonalRuns

} // namespace posenc
