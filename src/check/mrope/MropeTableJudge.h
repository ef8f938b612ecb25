#pragma once

#include "check/CellTolerance.h"
#include "check/SampleScore.h"
#include "check/TableHypothesis.h"
#include "check/mrope/MropeTableReference.h"

#include <cstdint>

// How M-RoPE's table check judges a reference on a table's sample (docs/ARCHITECTURE.md, Checking a
// table): within the stored format's rounding, or within float32 angles' where they explain what
// exact angles leave (the rotary embedding's inv_freq @ position_ids in float32, transformers'
// Qwen2VLRotaryEmbedding.forward).
namespace posenc::MropeTableJudge {

CellTolerance float32Angles(CellTolerance t, const MropeTurns &turns);
CellTolerance exactTolerance(const TableEvidence &e, double amplitude);

// A reference judged on the sample: its cells beyond the tolerance, with float32 angles where
// they explain most of what exact angles leave (torch's float32 product of ids and inv_freq).
struct Judged
{
    SampleScore score;
    bool float32 = false;
    std::int64_t bad() const { return float32 ? score.badWithFloat32Angles : score.bad; }
};

Judged judge(const TableReference &reference, const TableEvidence &e, const MropeTurns &turns);

// The match's precision and tolerance: the format's, widened to float32 angles' where `f32`.
void setTolerance(TableMatch &m, const TableEvidence &e, const MropeTurns &turns, bool f32);

} // namespace posenc::MropeTableJudge
