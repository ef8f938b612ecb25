#pragma once

#include "Block.h"
#include "Params.h"

#include <Eigen/Core>

#include <cstdint>
#include <functional>

namespace posenc {

// Receives one computed row: its position and its values (the block's columns).
using RowSink = std::function<void(std::int64_t position, const float *values)>;

// The sinusoidal table PE (docs/ARCHITECTURE.md, The mathematics) for one (d, base, layout, angles).
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
    static constexpr std::int64_t kRunRows = 4;

    PositionalTable(std::int64_t dModel, double base, Layout layout, Angles angles);

    std::int64_t columns() const { return m_dModel; }
    Layout layout() const { return m_layout; }
    Angles angles() const { return m_angles; }

    // Hands every row of the block, in order, to `sink`; the values live until the next row.
    void forEachRow(const Block &block, const RowSink &sink) const;
    // Fills `out` (block.rows x block.cols) with the table's block. With `streaming`, rows
    // that start on a cache line are written with non-temporal stores (the caller fences).
    void fill(const Block &block, BlockRef out, bool streaming = false) const;
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
    PairRange pairsFor(std::int64_t col0, std::int64_t cols) const;
    // Calls runFn(p, count, sin, cos, step, advancePast) for runs of at most kRunRows
    // consecutive rows p .. p + count - 1 of the block, with the exact state (double) of the
    // pairs in `pairs` at row p. runFn advances the state by `step` from row to row and, where
    // `advancePast` is set, past the run's last row; the recurrence does the rest.
    template<typename RunFn>
    void forEachExactRun(std::int64_t row0, std::int64_t rows, PairRange pairs, RunFn &&runFn) const;
    // Writes columns [col0, col0 + cols) of `count` consecutive rows into dsts[0 .. count-1]
    // from the state of `pairs`, advancing it between rows and, if `advancePast`, after the
    // last one. The vector path rotates each group of pairs through all the rows in registers,
    // so the double state is read and written once per run rather than once per row.
    void storeRows(double *sines, double *cosines, PairRange pairs, std::int64_t col0, std::int64_t cols,
                   float *const *dsts, std::int64_t count, bool streaming, const Rotation &step,
                   bool advancePast) const;
    // Computes every row of the block into destination(p, r), r its index in its run (rows of a
    // run must not overlap), then calls done(p, row) in order.
    template<typename Destination, typename Done>
    void forEachRowInto(const Block &block, bool streaming, Destination &&destination, Done &&done) const;

    std::int64_t m_dModel;
    Layout m_layout;
    Angles m_angles;
    Eigen::ArrayXd m_w; // w_i
    Eigen::ArrayXd m_stepCos; // cos(w_i), sin(w_i): one row
    Eigen::ArrayXd m_stepSin;
    Eigen::ArrayXd m_hopCos; // cos(kHopRows w_i), sin(kHopRows w_i)
    Eigen::ArrayXd m_hopSin;
    Eigen::ArrayXf m_wFloat; // w_i rounded to float32, for float32 angles
};

} // namespace posenc
