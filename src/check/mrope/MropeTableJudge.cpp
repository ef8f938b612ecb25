#include "MropeTableJudge.h"

#include <algorithm>

namespace posenc::MropeTableJudge {

// The tolerance of a table whose angles are float32's, as the rotary embedding forms them
// (inv_freq @ position_ids in float32): a few units of 2^-24 of each pair's angle; none for a pair
// of inverse frequency 1 (theta^0), whose float32 angle is the id itself, exactly.
CellTolerance float32Angles(CellTolerance t, const MropeTurns &turns)
{
    t.perPosition.assign(std::size_t(turns.cols()), 0.0);
    for (std::int64_t c = 0; c < turns.cols(); ++c) {
        const double inv = turns.inv[std::size_t(turns.pairOf(c))];
        t.perPosition[std::size_t(c)] = inv == 1.0 ? 0.0 : 4.0 * 0x1p-24 * inv * turns.amplitude;
    }
    return t;
}

CellTolerance exactTolerance(const TableEvidence &e, double amplitude)
{
    return cellTolerance(e.format, e.table.storedType(), e.table.textRounding(), std::max(1.0, amplitude), 2.0);
}

Judged judge(const TableReference &reference, const TableEvidence &e, const MropeTurns &turns)
{
    const CellTolerance exact = exactTolerance(e, turns.amplitude);
    const CellTolerance wide = float32Angles(exact, turns);
    Judged j;
    j.score = scoreOnSample(reference, e.sample, exact, &wide);
    // Float32 angles are a faithful computation of every M-RoPE table (the rotary embedding's
    // inv_freq @ position_ids in float32): they are the tolerance wherever they explain a cell exact
    // angles leave, a table with a mistake too (its rounding cells are no deviation).
    j.float32 = j.score.badWithFloat32Angles < j.score.bad;
    return j;
}

void setTolerance(TableMatch &m, const TableEvidence &e, const MropeTurns &turns, bool f32)
{
    m.precision = tablePrecision(e.format, f32);
    m.tolerance = exactTolerance(e, turns.amplitude);
    if (f32)
        m.tolerance = float32Angles(m.tolerance, turns);
}

} // namespace posenc::MropeTableJudge
