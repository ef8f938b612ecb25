#pragma once

#include "check/rope/ApplyCheck.h"
#include "check/rope/ApplyPairs.h"

// An --apply check whose angles read as no RoPE frequencies, against the reference declared in
// full (docs/ARCHITECTURE.md, Checking a rotation): a rotation keeps each pair's length (times the
// attention factor) at every position, so Y whose pairs change length beyond its rounding is no
// rotation of X that any faithful computation of the reference makes: `mistake`, with the share
// of pairs that change and by how much. Where Y is X mixed pair by pair by [[cos, sin], [sin, cos]]
// at the reference's angles (x cos + rotate_half(x) sin with rotate_half's or rotate_every_two's
// minus sign lost: transformers#16298, modeling_flax_gptj.py rotate_every_two), it says so.
namespace posenc::ApplyLengths {

// `result` a mistake where it is still unknown and unnamed, a reference is declared and at least
// one sampled pair in ten changes length; left as it is otherwise.
void name(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
          double u, const ApplyCheck::Declared &declared);

} // namespace posenc::ApplyLengths
