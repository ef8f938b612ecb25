#pragma once

#include "check/ApplyHypothesis.h"

// RoPE's apply hypothesis (docs/ARCHITECTURE.md, Checking a rotation): ApplyCheck declared from the
// command line's parameters (the pairing, a partial rotary's rotary_dim), and its share of the
// report (ApplyReport): the rotated part, the frequencies, the positions by runs of rows.
namespace posenc::RopeApply {

ApplyHypothesis hypothesis();

} // namespace posenc::RopeApply
