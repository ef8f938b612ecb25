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

// One tolerance's terms for a row (CellTolerance::limit with the row's position taken once).
struct RowLimit
{
    double relative = 0.0;
    double absolute = 0.0;
    const double *perPosition = nullptr; // at the tile's first column; null where the tolerance has none
    double distance = 0.0; // |position|

    RowLimit() = default;
    RowLimit(const CellTolerance &t, std::int64_t col0, double position)
        : relative(t.relative)
        , absolute(t.absolute)
        , perPosition(t.perPosition.empty() ? nullptr : t.perPosition.data() + col0)
        , distance(position < 0 ? -position : position)
    {
    }
};

// CellTolerance::limit, the same operations in the same order (so the same bits), without its
// branches: an infinite reference allows 0.
template <bool kPerPosition>
inline double cellLimit(const RowLimit &l, double reference, std::int64_t c)
{
    double v = l.relative * std::fabs(reference) + l.absolute;
    if constexpr (kPerPosition)
        v += l.perPosition[c] * l.distance;
    return reference - reference == 0.0 ? v : 0.0;
}

// The cells of one row, added to `score` cell by cell in column order. The sums and counts are
// carried in locals and written back at the row's end: the same additions in the same order as a
// cell-by-cell comparison (an unmatched cell adds +0.0, which leaves a sum of squares as it is).
// Branch-free in the cell: a half-precision table's cells equal the reference's or not at random,
// which a branch mispredicts (issue 56: the check's searches spent half their time here).
// kSecond: 0 without a second tolerance, 1 with one without per-position terms, 2 with them.
template <bool kPerPosition, int kSecond, bool kExtra>
void scoreCells(const float *ref, const float *table, const float *extraRow, std::int64_t cols, const RowLimit &first,
                const RowLimit &second, SampleScore &score)
{
    double sumSquares = score.sumSquares, tableSquares = score.tableSquares, maxError = score.maxError;
    std::int64_t bad = score.bad, badWithFloat32Angles = score.badWithFloat32Angles;
    for (std::int64_t c = 0; c < cols; ++c) {
        const double value = table[c];
        const double reference = ref[c];
        // Equal finite cells differ by +0.0 already; equal infinities (a mask's -inf where the
        // reference has it) by NaN, which is the rare branch.
        double error = std::fabs(value - reference);
        if (error != error && value == reference) [[unlikely]]
            error = 0.0;
        const bool finite = std::isfinite(value) && std::isfinite(error);
        sumSquares += finite ? error * error : 0.0;
        tableSquares += finite ? value * value : 0.0;
        maxError = std::max(maxError, error);
        double extra = 0.0;
        if constexpr (kExtra)
            extra = kCellRoundingMargin * double(extraRow[c]);
        double limit = cellLimit<kPerPosition>(first, reference, c);
        if constexpr (kExtra)
            limit += extra;
        bad += !(error <= limit) ? 1 : 0;
        if constexpr (kSecond > 0) {
            double limit2 = cellLimit<(kSecond == 2)>(second, reference, c);
            if constexpr (kExtra)
                limit2 += extra;
            badWithFloat32Angles += !(error <= limit2) ? 1 : 0;
        }
    }
    score.sumSquares = sumSquares;
    score.tableSquares = tableSquares;
    score.maxError = maxError;
    score.bad = bad;
    score.badWithFloat32Angles = badWithFloat32Angles;
    score.compared += cols;
}

using CellsScorer = void (*)(const float *, const float *, const float *, std::int64_t, const RowLimit &,
                             const RowLimit &, SampleScore &);

template <bool kPerPosition, int kSecond>
CellsScorer scorerWith(bool extra)
{
    return extra ? &scoreCells<kPerPosition, kSecond, true> : &scoreCells<kPerPosition, kSecond, false>;
}

// The instance of scoreCells for the tolerances and the sample (chosen once a score).
CellsScorer scorerFor(const CellTolerance &tolerance, const CellTolerance *float32Angles, bool extra)
{
    const int second = !float32Angles ? 0 : float32Angles->perPosition.empty() ? 1 : 2;
    if (tolerance.perPosition.empty())
        return second == 0 ? scorerWith<false, 0>(extra)
            : second == 1  ? scorerWith<false, 1>(extra)
                           : scorerWith<false, 2>(extra);
    return second == 0 ? scorerWith<true, 0>(extra) : second == 1 ? scorerWith<true, 1>(extra) : scorerWith<true, 2>(extra);
}

// Row `r` of tile `t` against the sample's row `index` (CellTolerance::limit of each cell, plus its
// rounding allowance where the sample has one).
void scoreRow(CellsScorer scorer, const TableReference::Tile &t, std::int64_t r, const TableSample &sample,
              std::int64_t index, double position, const CellTolerance &tolerance, const CellTolerance *float32Angles,
              SampleScore &score)
{
    const float *ref = t.values + r * t.stride;
    const float *table = sample.values.row(index).data() + t.col0;
    // A cell's allowance beyond its tolerance: none for most tables (the limit plus 0 is the limit).
    const float *extraRow = sample.cellRounding.size() == 0 ? nullptr : sample.cellRounding.row(index).data() + t.col0;
    const RowLimit first(tolerance, t.col0, position);
    const RowLimit second = float32Angles ? RowLimit(*float32Angles, t.col0, position) : RowLimit();
    scorer(ref, table, extraRow, t.cols, first, second, score);
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
    const CellsScorer scorer = scorerFor(tolerance, float32Angles, sample.cellRounding.size() != 0);
    const auto scoreRows = [&](std::int64_t index0, std::int64_t count) {
        const std::int64_t first = sample.rows[std::size_t(index0)];
        const auto rowsOf = [&](const TableReference::Tile &t) {
            for (std::int64_t r = 0; r < t.rows; ++r) {
                const std::int64_t index = index0 + t.row0 - first + r;
                const double position = static_cast<double>(reference.position(t.row0 + r));
                scoreRow(scorer, t, r, sample, index, position, tolerance, float32Angles, score);
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
