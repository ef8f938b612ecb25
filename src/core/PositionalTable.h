#pragma once

#include "Block.h"
#include "FrequencySchedule.h"
#include "Params.h"
#include "PositionalSimd.h"

#include <Eigen/Core>

#include <cstdint>
#include <functional>

namespace posenc {

// Receives one computed row: its position and its values (the block's columns).
using RowSink = std::function<void(std::int64_t position, const float *values)>;
// What the values of rows p .. p + count - 1 become before they are stored (null: the PE
// itself); asked once per run of rows, before the run's first value is stored.
using CombineSource = std::function<const PairCombine *(std::int64_t p, int count)>;

// A table of sines and cosines of p * w_i (docs/ARCHITECTURE.md, The mathematics) for one
// frequency schedule, layout and angles: the sinusoidal PE for (d, base), or any family's
// frequencies.
//
// Exact angles: sin and cos of p * w_i are carried in double by rotation, re-anchored with
// a full-precision sin/cos of the exact product p * w_i at every multiple of kAnchorRows and advanced by a precomputed
// rotation at every multiple of kHopRows. A cell's value therefore depends only on (p, j),
// never on the block it was computed in, and stays within ~1e-13 of sin/cos(p * w_i).
// Float32 angles: the angle float(p) * float(w_i) is rounded to float32 first, as float32
// frameworks do, then its sine or cosine is taken.
class PositionalTable
{
public:
    static constexpr std::int64_t kAnchorRows = 1024;
    static constexpr std::int64_t kHopRows = 32;
    // Rows computed together from one pass over the state (a divisor of kHopRows).
    static constexpr std::int64_t kRunRows = PairRun::kMaxRows;
    // The widest block, in pairs, that fill() computes a whole hop of rows at a time from one
    // pass over the state (PairRows): a run of kRunRows rows of so few pairs writes too little
    // to pay for the pass's set-up (docs/PERFORMANCE.md, Narrow tables).
    static constexpr std::int64_t kNarrowPairs = 512;
    // Pairs taken through a run together, from pair 0 on: their state stays in the first-level
    // cache while they go through the run's rows, and, where fill() has no combine, through all
    // of the block's rows.
    static constexpr std::int64_t kChunkPairs = 512;
    // Pairs whose values forEachTile() hands out together, from pair 0 on: whole rows up to
    // d = 8192, so that who reads a tile along with other tables reads them as long sequential
    // streams, while the values of a run stay in the second-level cache.
    static constexpr std::int64_t kTilePairs = 4096;
    // The widest tile forEachTile() hands out.
    static constexpr std::int64_t kTileColumns = 2 * kTilePairs;

    // Rows row0 .. row0 + rows - 1 of columns col0 .. col0 + cols - 1: row r's values start at
    // values + r * stride.
    struct Tile
    {
        std::int64_t row0;
        std::int64_t rows;
        std::int64_t col0;
        std::int64_t cols;
        const float *values;
        std::int64_t stride;
    };
    using TileSink = std::function<void(const Tile &tile)>;

    // `columns` columns of the schedule's ceil(columns / 2) pairs; `cosFirst` (split layout only):
    // the cosines before the sines (Frequencies::role).
    PositionalTable(std::int64_t columns, FrequencySchedule schedule, Layout layout, Angles angles,
                    bool cosFirst = false);
    // The sinusoidal PE of d_model `dModel` and base `base` (Frequencies::schedule).
    PositionalTable(std::int64_t dModel, double base, Layout layout, Angles angles);
    // The sinusoidal PE of the family's parameters: their frequencies, layout and flip.
    PositionalTable(std::int64_t dModel, const SinusoidalParams &params, Angles angles);

    std::int64_t columns() const { return m_dModel; }
    Layout layout() const { return m_layout; }
    bool cosFirst() const { return m_cosFirst; }
    Angles angles() const { return m_angles; }

    // Hands the block to `sink` in tiles of at most kRunRows rows and kTileColumns columns,
    // each cell once: the tiles of rows r .. r + kRunRows - 1 before any later row, and within
    // them in column order. The values live until the sink returns.
    void forEachTile(const Block &block, const TileSink &sink) const;
    // Fills `out` (block.rows x block.cols) with the table's block. With `streaming`, rows
    // that start on a vector-aligned address are written with non-temporal stores (the
    // caller fences). With `combine` (exact angles only), each run's values are combined as it
    // says on their way to `out`; it is asked once per run of rows, for their whole width.
    void fill(const Block &block, BlockRef out, bool streaming = false, const CombineSource &combine = {}) const;
    // Fills `out` like fill() without a combine, each pair's two columns holding `values`: one of
    // its sine and cosine in both is RoPE's sin or cos table as HF returns it. A hop of rows at
    // a time, at any width.
    void fillValues(const Block &block, BlockRef out, PairValues values, bool streaming = false) const;
    // float32-angle value minus the exact value (float64), rounded to float32.
    void forEachErrorRow(const Block &block, const RowSink &sink) const;

private:
    struct PairRange
    {
        std::int64_t first = 0;
        std::int64_t count = 0;
    };
    // The rotation by one row's angle of the pairs of a range: cos(w_i), sin(w_i).
    struct Rotation
    {
        const double *cos;
        const double *sin;
    };
    // The exact state of the pairs of `range` at a run's first row, and where it goes.
    struct RunState
    {
        PairRange range;
        double *sines;
        double *cosines;
        Rotation step;
        int rows;
        bool advancePast;
        bool streaming;
        const PairCombine *combine;
    };
    // Where row r (of a run) of table column `column` goes.
    using Destination = std::function<float *(int r, std::int64_t column)>;

    PairRange pairsFor(std::int64_t col0, std::int64_t cols) const;
    // Calls runFn(p, count, sin, cos, step, advancePast) for runs of at most `runRows` (at most
    // kHopRows) consecutive rows p .. p + count - 1 of the block, with the exact state (double)
    // of the pairs in `pairs` at row p. runFn advances the state by `step` from row to row and,
    // where `advancePast` is set, past the run's last row; the recurrence does the rest.
    template<typename RunFn>
    void forEachExactRun(std::int64_t row0, std::int64_t rows, PairRange pairs, std::int64_t runRows,
                         RunFn &&runFn) const;
    // The block's columns of pairs [first, end) in ranges of pairs whose columns lie alike:
    // rangeFn(from, till, interleaved, firstColumn, secondColumn), the pairs' columns from
    // firstColumn on (interleaved), or their first values' from firstColumn and their second
    // values' from secondColumn, either -1 for none.
    template<typename RangeFn>
    void forEachColumnRange(std::int64_t first, std::int64_t end, const Block &block, RangeFn &&rangeFn) const;
    // Writes the block's columns of pairs [first, end) for the run's rows to `to`, advancing
    // their state.
    void storePairs(const RunState &run, std::int64_t first, std::int64_t end, const Block &block,
                    const Destination &to) const;
    // The block's rows a hop at a time, all its pairs from one pass over the state.
    void fillHops(const Block &block, BlockRef out, bool streaming, PairValues values) const;
    // The block's columns of pairs [first, end): one range in the interleaved layout, up to two
    // in the split one (sines, then cosines). Returns how many.
    int columnsOf(std::int64_t first, std::int64_t end, const Block &block, Block (&ranges)[2]) const;
    // The value of cell (p, column) with float32 angles, the pair's columns holding `values`.
    float float32Value(std::int64_t p, std::int64_t column, PairValues values = PairValues::SineCosine) const;

    // The split layout's first column of the sines and of the cosines.
    std::int64_t sineAt() const { return m_cosFirst ? m_dModel - (m_dModel + 1) / 2 : 0; }
    std::int64_t cosineAt() const { return m_cosFirst ? 0 : (m_dModel + 1) / 2; }

    std::int64_t m_dModel;
    Layout m_layout;
    bool m_cosFirst;
    Angles m_angles;
    double m_amplitude;
    Eigen::ArrayXd m_w; // w_i
    Eigen::ArrayXd m_stepCos; // cos(w_i), sin(w_i): one row
    Eigen::ArrayXd m_stepSin;
    Eigen::ArrayXd m_hopCos; // cos(kHopRows w_i), sin(kHopRows w_i)
    Eigen::ArrayXd m_hopSin;
    Eigen::ArrayXf m_wFloat; // w_i rounded to float32, for float32 angles
};

} // namespace posenc
