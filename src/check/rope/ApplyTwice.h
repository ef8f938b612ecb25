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

} // namespace posenc::ApplyTwice
