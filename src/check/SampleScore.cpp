#include "SampleScore.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace posenc {

namespace {

thread_local const std::atomic<bool> *t_cancel = nullptr;
std::atomic<std::int64_t> g_cellsScored {0};

// The rows of a run scored at a time where a score may stop anywhere (ScoreStop::AnyTile): the
// kernel's tile of rows (PositionalTable::kRunRows).
constexpr std::int64_t kEarlyRows = 4;

// Row `r` of tile `t` against the sample's row `index`, added to `score` cell by cell in column
// order. The sums and counts are carried in locals and written back at the row's end: the same
// additions in the same order, which the compiler then keeps in registers.
void scoreRow(const TableReference::Tile &t, std::int64_t r, const TableSample &sample, std::int64_t index,
              double position, const CellTolerance &tolerance, const CellTolerance *float32Angles, SampleScore &score)
{
    const float *ref = t.values + r * t.stride;
    const float *table = sample.values.row(index).data() + t.col0;
    // A cell's allowance beyond its tolerance: none for most tables (the limit plus 0 is the limit).
    const float *extraRow = sample.cellRounding.size() == 0 ? nullptr : sample.cellRounding.row(index).data() + t.col0;
    double sumSquares = score.sumSquares, tableSquares = score.tableSquares, maxError = score.maxError;
    std::int64_t bad = score.bad, badWithFloat32Angles = score.badWithFloat32Angles;
    for (std::int64_t c = 0; c < t.cols; ++c) {
        const double extra = extraRow ? kCellRoundingMargin * double(extraRow[c]) : 0.0;
        const double value = table[c];
        const double error = value == double(ref[c]) ? 0.0 : std::fabs(value - double(ref[c]));
        if (std::isfinite(value) && std::isfinite(error)) {
            sumSquares += error * error;
            tableSquares += value * value;
        }
        maxError = std::max(maxError, error);
        if (!(error <= tolerance.limit(ref[c], t.col0 + c, position) + extra))
            ++bad;
        if (float32Angles && !(error <= float32Angles->limit(ref[c], t.col0 + c, position) + extra))
            ++badWithFloat32Angles;
    }
    score.sumSquares = sumSquares;
    score.tableSquares = tableSquares;
    score.maxError = maxError;
    score.bad = bad;
    score.badWithFloat32Angles = badWithFloat32Angles;
    score.compared += t.cols;
}

} // namespace

ScoringCancel::ScoringCancel(const std::atomic<bool> *flag)
    : m_previous(t_cancel)
{
    if (flag)
        t_cancel = flag;
}

ScoringCancel::~ScoringCancel()
{
    t_cancel = m_previous;
}

std::int64_t cellsScored()
{
    return g_cellsScored.load(std::memory_order_relaxed);
}

bool ScoringCancel::requested()
{
    return t_cancel && t_cancel->load(std::memory_order_relaxed);
}

SampleScore fitsNothing(const TableSample &sample)
{
    SampleScore score;
    score.compared = sample.size() * sample.cols();
    score.bad = score.badWithFloat32Angles = score.compared;
    score.maxError = std::numeric_limits<double>::infinity();
    score.sumSquares = std::numeric_limits<double>::infinity();
    return score;
}

SampleScore scoreOnSample(const TableReference &reference, const TableSample &sample, const CellTolerance &tolerance,
                          const CellTolerance *float32Angles, std::int64_t stopAfter, ScoreStop stop)
{
    if (ScoringCancel::requested())
        return fitsNothing(sample);
    SampleScore score;
    const std::int64_t cols = sample.cols();
    const auto hopeless
        = [&] { return score.bad > stopAfter && (!float32Angles || score.badWithFloat32Angles > stopAfter); };
    // The runs of consecutive sample rows, each one block of the reference.
    std::vector<std::pair<std::int64_t, std::int64_t>> runs; // sample indices [first, end)
    for (std::int64_t i = 0; i < sample.size();) {
        std::int64_t j = i + 1;
        while (j < sample.size() && sample.rows[std::size_t(j)] == sample.rows[std::size_t(j - 1)] + 1)
            ++j;
        runs.emplace_back(i, j);
        i = j;
    }
    // ScoreStop::AnyTile with a stop that can come: the farthest runs first, where a hypothesis of
    // other frequencies is furthest off (its error grows with the position), each asked of the
    // reference a few rows at a time, so that a hopeless one stops within a few tiles and the
    // reference computes no row past the stop. A score that does not stop counts every cell all the
    // same.
    const bool early = stop == ScoreStop::AnyTile && stopAfter < std::numeric_limits<std::int64_t>::max();
    if (early)
        std::reverse(runs.begin(), runs.end());
    const auto scoreRows = [&](std::int64_t index0, std::int64_t count) {
        const std::int64_t first = sample.rows[std::size_t(index0)];
        const auto rowsOf = [&](const TableReference::Tile &t) {
            for (std::int64_t r = 0; r < t.rows; ++r) {
                const std::int64_t index = index0 + t.row0 - first + r;
                const double position = static_cast<double>(reference.position(t.row0 + r));
                scoreRow(t, r, sample, index, position, tolerance, float32Angles, score);
            }
        };
        // The sink holds one reference, which std::function keeps in place: no allocation a call.
        reference.forEachTile({first, count, 0, cols}, [&rowsOf](const TableReference::Tile &t) { rowsOf(t); });
    };
    for (const auto &[i, j] : runs) {
        if (hopeless())
            break;
        const std::int64_t step = early ? kEarlyRows : j - i;
        for (std::int64_t k = i; k < j && !(early && hopeless()); k += step)
            scoreRows(k, std::min(step, j - k));
        if (ScoringCancel::requested())
            return fitsNothing(sample);
    }
    g_cellsScored.fetch_add(score.compared, std::memory_order_relaxed);
    return score;
}

} // namespace posenc
