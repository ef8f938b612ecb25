#pragma once

#include "check/rope/ApplyCheck.h"
#include "check/rope/ApplyPairs.h"

// An --apply check whose angles read as no RoPE frequencies, against the reference declared in
// full (docs/ARCHITECTURE.md, Checking a table, "--apply"; issue 56): Y the declared rotation
// applied twice, R(p w) R(p w) X = R(2 p w) X, its amplitude the attention factor squared
// (NVIDIA/TensorRT-LLM#16378, bug 1: "The cached K ends up mscale^2-scaled and rotated by twice
// the angle"), named `rope-applied-twice` (RopeFrequencyMistakes) with both amplitudes.
namespace posenc::ApplyTwice {

// Names the mistake in `result` where Y's amplitude is the declared attention factor squared and
// every pinned angle twice the declared one at its row's position (its --position-ids, else its
// index); leaves `result` as it is otherwise.
void name(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
          double u, const ApplyCheck::Declared &declared);

// Where the angles read as the declared frequencies at twice each row's position (its --position-ids,
// else its index) and Y's amplitude is the declared attention factor squared: the same mistake, read
// by positions (R(p w) R(p w) = R(2p w)): rope-applied-twice named in place of positions-out-of-order
// and attention-factor, `lines` told so. Where the factor is 1 the amplitude cannot tell doubled
// positions from a rotation applied twice: both are named (positions-scaled: rows at 2r are in order). Whether it named it.
bool nameDoubled(ApplyCheck::Result &result, const ApplyCheck::Declared &declared,
                 const std::vector<std::int64_t> &positions, QStringList &lines);

} // namespace posenc::ApplyTwice
