#include "PositionalTable.h"

#include "core/sinusoidal/Frequencies.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace posenc {

PositionalTable::PositionalTable(std::int64_t dModel, double base, Layout layout, Angles angles)
    : PositionalTable(dModel, Frequencies::schedule(dModel, base), layout, angles)
{ }

PositionalTable::PositionalTable(std::int64_t dModel, const SinusoidalParams &params, Angles angles)
    : PositionalTable(dModel, Frequencies::schedule(dModel, params), params.layout, angles, params.flipSinToCos)
{ }

PositionalTable::PositionalTable(std::int64_t columns, FrequencySchedule schedule, Layout layout, Angles angles,
                                 bool cosFirst)
    : m_dModel(columns)
    , m_layout(layout)
    , m_cosFirst(layout == Layout::Split && cosFirst)
    , m_angles(angles)
    , m_amplitude(schedule.amplitude)
{
    const std::int64_t pairs = Frequencies::pairCount(columns);
    m_w.resize(pairs);
    m_stepCos.resize(pairs);
    m_stepSin.resize(pairs);
    m_hopCos.resize(pairs);
    m_hopSin.resize(pairs);
    m_wFloat.resize(pairs);
    for (std::int64_t i = 0; i < pairs; ++i) {
        const double w = schedule.w[static_cast<std::size_t>(i)];
        m_w[i] = w;
        m_stepCos[i] = std::cos(w);
        m_stepSin[i] = std::sin(w);
        m_hopCos[i] = std::cos(static_cast<double>(kHopRows) * w);
        m_hopSin[i] = std::sin(static_cast<double>(kHopRows) * w);
        m_wFloat[i] = static_cast<float>(w);
    }
}

PositionalTable::PairRange PositionalTable::pairsFor(std::int64_t col0, std::int64_t cols) const
{
    const std::int64_t end = col0 + cols;
    if (m_layout == Layout::Interleaved)
        return {col0 / 2, (end - 1) / 2 - col0 / 2 + 1};
    const std::int64_t h = Frequencies::pairCount(m_dModel);
    std::int64_t first = h;
    std::int64_t last = 0; // one past
    // The pairs of the sines at sineAt() and of the cosines at cosineAt() that meet the block.
    const auto meet = [&](std::int64_t at, std::int64_t count) {
        const std::int64_t a = std::max(col0, at) - at;
        const std::int64_t b = std::min(end, at + count) - at;
        if (a < b) {
            first = std::min(first, a);
            last = std::max(last, b);
        }
    };
    meet(sineAt(), h);
    meet(cosineAt(), m_dModel - h);
    return {first, std::max<std::int64_t>(last - first, 0)};
}

namespace {

// The pieces of `size` pairs, counted from pair 0, that meet the range [first, end).
template<typename PieceFn> void forEachPiece(std::int64_t first, std::int64_t end, std::int64_t size, PieceFn &&pieceFn)
{
    for (std::int64_t a = first; a < end;) {
        const std::int64_t b = std::min(end, (a / size + 1) * size);
        pieceFn(a, b);
        a = b;
    }
}

} // namespace

template<typename RunFn>
void PositionalTable::forEachExactRun(std::int64_t row0, std::int64_t rows, PairRange pairs, std::int64_t runRows,
                                      RunFn &&runFn) const
{
    const std::int64_t n = pairs.count;
    const double *w = m_w.data() + pairs.first;
    const double *stepCos = m_stepCos.data() + pairs.first;
    const double *stepSin = m_stepSin.data() + pairs.first;
    const double *hopCos = m_hopCos.data() + pairs.first;
    const double *hopSin = m_hopSin.data() + pairs.first;
    Eigen::ArrayXd hopS(n), hopC(n), s(n), c(n);

    // sin and cos of the exact product p * w: the double product plus its rounding error,
    // which fma gives exactly and which reaches ~1e-9 near p = 2^24. The amplitude scales the
    // anchor, and the rotations, which keep a norm, carry it to every row.
    const double amplitude = m_amplitude;
    const auto anchor = [&](std::int64_t p) {
        const auto position = static_cast<double>(p);
        for (std::int64_t k = 0; k < n; ++k) {
            const double angle = position * w[k];
            const double rest = std::fma(position, w[k], -angle);
            const double s = std::sin(angle);
            const double c = std::cos(angle);
            hopS[k] = s + c * rest;
            hopC[k] = c - s * rest;
            if (amplitude != 1.0) {
                hopS[k] *= amplitude;
                hopC[k] *= amplitude;
            }
        }
    };

    std::int64_t p = row0;
    const std::int64_t end = row0 + rows;
    // The state at row0 is reached exactly as a whole-table pass reaches it: anchor, hops, steps.
    const std::int64_t anchorRow = p - p % kAnchorRows;
    anchor(anchorRow);
    for (std::int64_t q = anchorRow + kHopRows; q <= p - p % kHopRows; q += kHopRows)
        rotateState(hopS.data(), hopC.data(), hopCos, hopSin, n);
    s = hopS;
    c = hopC;
    for (std::int64_t q = p - p % kHopRows; q < p; ++q)
        rotateState(s.data(), c.data(), stepCos, stepSin, n);

    const Rotation step {stepCos, stepSin};
    for (;;) {
        // A run stays within one hop segment: its rows follow each other by one step.
        const std::int64_t count = std::min({runRows, end - p, kHopRows - p % kHopRows});
        const std::int64_t next = p + count;
        runFn(p, count, s.data(), c.data(), step, next != end && next % kHopRows != 0);
        if (next == end)
            break;
        p = next;
        if (p % kAnchorRows == 0) {
            anchor(p);
            s = hopS;
            c = hopC;
        } else if (p % kHopRows == 0) {
            rotateState(hopS.data(), hopC.data(), hopCos, hopSin, n, s.data(), c.data());
        }
    }
}

int PositionalTable::columnsOf(std::int64_t first, std::int64_t end, const Block &block, Block (&ranges)[2]) const
{
    int count = 0;
    const auto add = [&](std::int64_t from, std::int64_t to) {
        from = std::max(from, block.col0);
        to = std::min(to, block.colEnd());
        if (from < to)
            ranges[count++] = Block {0, 0, from, to - from};
    };
    if (m_layout == Layout::Interleaved) {
        add(2 * first, 2 * end);
    } else {
        const std::int64_t h = Frequencies::pairCount(m_dModel);
        const auto sines = [&] { add(sineAt() + std::min(first, h), sineAt() + std::min(end, h)); };
        const auto cosines
            = [&] { add(cosineAt() + std::min(first, m_dModel - h), cosineAt() + std::min(end, m_dModel - h)); };
        if (m_cosFirst) { // in column order, as forEachTile reads them
            cosines();
            sines();
        } else {
            sines();
            cosines();
        }
    }
    return count;
}

template<typename RangeFn>
void PositionalTable::forEachColumnRange(std::int64_t first, std::int64_t end, const Block &block,
                                         RangeFn &&rangeFn) const
{
    const std::int64_t col0 = block.col0;
    const std::int64_t colEnd = block.colEnd();
    if (m_layout == Layout::Interleaved) {
        const std::int64_t x0 = std::max(col0, 2 * first);
        const std::int64_t x1 = std::min(colEnd, 2 * end);
        const std::int64_t whole0 = (x0 + 1) / 2; // pairs with both columns in the block
        const std::int64_t whole1 = x1 / 2;
        if (x0 % 2 == 1) // a cosine without its sine
            rangeFn(x0 / 2, x0 / 2 + 1, false, -1, x0);
        if (whole1 > whole0)
            rangeFn(whole0, whole1, true, 2 * whole0, -1);
        if (x1 % 2 == 1) // a sine without its cosine
            rangeFn(x1 / 2, x1 / 2 + 1, false, x1 - 1, -1);
        return;
    }
    // Split: pairs whose sine, cosine or both are in the block, in ranges where that is the same.
    const std::int64_t h = Frequencies::pairCount(m_dModel);
    const std::int64_t sine0 = std::max(first, col0 - sineAt());
    const std::int64_t sine1 = std::min({end, h, colEnd - sineAt()});
    const std::int64_t cosine0 = std::max(first, col0 - cosineAt());
    const std::int64_t cosine1 = std::min({end, m_dModel - h, colEnd - cosineAt()});
    std::int64_t cuts[] = {first,
                           end,
                           std::clamp(sine0, first, end),
                           std::clamp(sine1, first, end),
                           std::clamp(cosine0, first, end),
                           std::clamp(cosine1, first, end)};
    std::sort(std::begin(cuts), std::end(cuts));
    for (std::size_t i = 0; i + 1 < std::size(cuts); ++i) {
        const std::int64_t from = cuts[i];
        const std::int64_t till = cuts[i + 1];
        if (from == till)
            continue;
        const bool sine = sine0 <= from && till <= sine1;
        const bool cosine = cosine0 <= from && till <= cosine1;
        if (sine || cosine)
            rangeFn(from, till, false, sine ? sineAt() + from : -1, cosine ? cosineAt() + from : -1);
    }
}

void PositionalTable::storePairs(const RunState &run, std::int64_t first, std::int64_t end, const Block &block,
                                 const Destination &to) const
{
    forEachColumnRange(first, end, block,
                       [&](std::int64_t from, std::int64_t till, bool interleaved, std::int64_t sineColumn,
                           std::int64_t cosineColumn) {
                           const std::int64_t k = from - run.range.first;
                           PairRun pairs {run.sines + k,
                                          run.cosines + k,
                                          run.step.cos + k,
                                          run.step.sin + k,
                                          till - from,
                                          run.rows,
                                          run.advancePast,
                                          interleaved,
                                          {},
                                          {},
                                          {},
                                          run.streaming,
                                          run.combine};
                           for (int r = 0; r < run.rows; ++r) {
                               if (interleaved)
                                   pairs.interleavedRows[r] = to(r, sineColumn);
                               pairs.sineRows[r] = !interleaved && sineColumn >= 0 ? to(r, sineColumn) : nullptr;
                               pairs.cosineRows[r] = !interleaved && cosineColumn >= 0 ? to(r, cosineColumn) : nullptr;
                           }
                           rotatePairs(pairs);
                       });
}

void PositionalTable::fillHops(const Block &block, BlockRef out, bool streaming, PairValues values) const
{
    const PairRange pairs = pairsFor(block.col0, block.cols);
    // The block's column ranges, the same for every run: taken once, not at every hop.
    struct ColumnRange
    {
        std::int64_t from;
        std::int64_t till;
        bool interleaved;
        std::int64_t firstColumn;
        std::int64_t secondColumn;
    };
    std::vector<ColumnRange> ranges;
    forEachColumnRange(pairs.first, pairs.first + pairs.count, block,
                       [&](std::int64_t from, std::int64_t till, bool interleaved, std::int64_t firstColumn,
                           std::int64_t secondColumn) {
                           ranges.push_back({from, till, interleaved, firstColumn, secondColumn});
                       });
    const std::int64_t stride = out.outerStride();
    forEachExactRun(block.row0, block.rows, pairs, kHopRows,
                    [&](std::int64_t p, std::int64_t count, double *sines, double *cosines, const Rotation &step,
                        bool advancePast) {
                        const auto at = [&](std::int64_t column) {
                            return column < 0 ? nullptr : out.row(p - block.row0).data() + (column - block.col0);
                        };
                        for (const ColumnRange &range : ranges) {
                            const std::int64_t k = range.from - pairs.first;
                            rotatePairRows(PairRows {
                                sines + k, cosines + k, step.cos + k, step.sin + k, range.till - range.from,
                                static_cast<int>(count), advancePast, range.interleaved,
                                range.interleaved ? at(range.firstColumn) : nullptr,
                                range.interleaved ? nullptr : at(range.firstColumn),
                                range.interleaved ? nullptr : at(range.secondColumn), stride, values, streaming});
                        }
                    });
}

void PositionalTable::forEachTile(const Block &block, const TileSink &sink) const
{
    if (block.isEmpty())
        return;
    // Each range of a tile's columns gets its own kRunRows x width part of the thread's scratch.
    const std::int64_t width = std::min(block.cols, kTileColumns);
    thread_local std::vector<float> t_scratch;
    t_scratch.resize(std::max(t_scratch.size(), static_cast<std::size_t>(2 * kRunRows * width)));
    float *scratch = t_scratch.data();
    if (m_angles == Angles::Float32) {
        for (std::int64_t p = block.row0; p < block.rowEnd(); p += kRunRows) {
            const std::int64_t rows = std::min(kRunRows, block.rowEnd() - p);
            for (std::int64_t c0 = block.col0; c0 < block.colEnd();) {
                const std::int64_t c1 = std::min(block.colEnd(), (c0 / kTileColumns + 1) * kTileColumns);
                for (std::int64_t r = 0; r < rows; ++r) {
                    for (std::int64_t c = c0; c < c1; ++c)
                        scratch[r * (c1 - c0) + c - c0] = float32Value(p + r, c);
                }
                sink(Tile {p, rows, c0, c1 - c0, scratch, c1 - c0});
                c0 = c1;
            }
        }
        return;
    }
    const PairRange pairs = pairsFor(block.col0, block.cols);
    forEachExactRun(
        block.row0, block.rows, pairs, kRunRows,
        [&](std::int64_t p, std::int64_t count, double *sines, double *cosines, const Rotation &step,
            bool advancePast) {
            const RunState run {pairs, sines, cosines, step, static_cast<int>(count), advancePast, false, nullptr};
            forEachPiece(pairs.first, pairs.first + pairs.count, kTilePairs, [&](std::int64_t a, std::int64_t b) {
                Block ranges[2];
                const int n = columnsOf(a, b, block, ranges);
                // Range k of the tile's columns, in rows of its width, at scratch + k * kRunRows * width.
                const auto to = [&](int r, std::int64_t column) {
                    const int k = n == 2 && column >= ranges[1].col0 ? 1 : 0; // split: sines below h, cosines from h
                    return scratch + k * kRunRows * width + r * ranges[k].cols + (column - ranges[k].col0);
                };
                forEachPiece(a, b, kChunkPairs,
                             [&](std::int64_t c, std::int64_t d) { storePairs(run, c, d, block, to); });
                for (int k = 0; k < n; ++k)
                    sink(Tile {p, count, ranges[k].col0, ranges[k].cols, scratch + k * kRunRows * width,
                               ranges[k].cols});
            });
        });
}

void PositionalTable::fill(const Block &block, BlockRef out, bool streaming, const CombineSource &combine) const
{
    if (block.isEmpty())
        return;
    const PairRange pairs = pairsFor(block.col0, block.cols);
    // Narrow rows go a hop at a time, from one pass over their state.
    if (m_angles == Angles::Float32 || (!combine && pairs.count <= kNarrowPairs)) {
        fillValues(block, out, PairValues::SineCosine, streaming);
        return;
    }
    // The pairs of `range` through all the block's rows, a run of rows at a time.
    const auto fillPairs = [&](PairRange range) {
        forEachExactRun(block.row0, block.rows, range, kRunRows,
                        [&](std::int64_t p, std::int64_t count, double *sines, double *cosines, const Rotation &step,
                            bool advancePast) {
                            const RunState run {range,
                                                sines,
                                                cosines,
                                                step,
                                                static_cast<int>(count),
                                                advancePast,
                                                streaming,
                                                combine ? combine(p, static_cast<int>(count)) : nullptr};
                            const auto to = [&](int r, std::int64_t column) {
                                return out.row(p + r - block.row0).data() + (column - block.col0);
                            };
                            forEachPiece(range.first, range.first + range.count, kChunkPairs,
                                         [&](std::int64_t a, std::int64_t b) { storePairs(run, a, b, block, to); });
                        });
    };
    // A combine takes each run's rows whole, with the keep bits drawn once a row. The PE alone
    // goes through the block's rows a chunk of pairs at a time, so that the chunk's state stays
    // in the first-level cache from run to run instead of being reloaded at every run; in the
    // split layout a chunk writes its sines and its cosines, half a row apart, together.
    if (combine) {
        fillPairs(pairs);
        return;
    }
    forEachPiece(pairs.first, pairs.first + pairs.count, kChunkPairs, [&](std::int64_t a, std::int64_t b) {
        fillPairs(PairRange {a, b - a});
    });
}

void PositionalTable::fillValues(const Block &block, BlockRef out, PairValues values, bool streaming) const
{
    if (block.isEmpty())
        return;
    if (m_angles == Angles::Float32) {
        for (std::int64_t r = 0; r < block.rows; ++r) {
            for (std::int64_t c = 0; c < block.cols; ++c)
                out(r, c) = float32Value(block.row0 + r, block.col0 + c, values);
        }
        return;
    }
    fillHops(block, out, streaming, values);
}

float PositionalTable::float32Value(std::int64_t p, std::int64_t column, PairValues values) const
{
    // The float32 angle float(p) * float(w), the way float32 frameworks form it.
    const ColumnRole role = Frequencies::role(column, m_dModel, m_layout, m_cosFirst);
    const bool isCos = values == PairValues::SineCosine ? role.isCos : values == PairValues::Cosines;
    const auto angle = static_cast<double>(static_cast<float>(p) * m_wFloat[role.pair]);
    return static_cast<float>(m_amplitude * (isCos ? std::cos(angle) : std::sin(angle)));
}

void PositionalTable::forEachErrorRow(const Block &block, const RowSink &sink) const
{
    if (block.isEmpty())
        return;
    const PairRange pairs = pairsFor(block.col0, block.cols);
    std::vector<float> row(static_cast<std::size_t>(block.cols));
    float *dst = row.data();
    forEachExactRun(
        block.row0, block.rows, pairs, kRunRows,
        [&](std::int64_t p0, std::int64_t count, double *s, double *c, const Rotation &step, bool advancePast) {
            for (std::int64_t p = p0; p < p0 + count; ++p) {
                for (std::int64_t col = 0; col < block.cols; ++col) {
                    const ColumnRole role = Frequencies::role(block.col0 + col, m_dModel, m_layout, m_cosFirst);
                    const double float32Value = this->float32Value(p, block.col0 + col);
                    const double exact = role.isCos ? c[role.pair - pairs.first] : s[role.pair - pairs.first];
                    dst[col] = static_cast<float>(float32Value - exact);
                }
                if (p + 1 < p0 + count || advancePast)
                    rotateState(s, c, step.cos, step.sin, pairs.count);
                sink(p, dst);
            }
        });
}

} // namespace posenc
