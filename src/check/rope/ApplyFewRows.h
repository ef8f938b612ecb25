#pragma once

#include "check/rope/ApplyCheck.h"
#include "check/rope/ApplyPairs.h"

// An --apply check of one or two rows (docs/ARCHITECTURE.md, Checking a rotation; issue 56): a decode
// step's query or key, [B, H, 1, D], what an engineer dumps when a KV cache's offset is wrong. One
// row's angles are each pair's frequency times the row's position, so they tell neither without the
// other: undeclared, the check says what the row shows (the pairing, the attention factor) and is
// unknown; against a reference declared in full, each row's position is read with the reference's
// frequencies (transformers' _compute_default_rope_parameters and the other
// _compute_*_parameters, modeling_rope_utils.py) and compared with its --position-ids: correct
// where every row is at its id, position-offset where a row is at another position.
namespace posenc::ApplyFewRows {

// Fewer rows than this are read here rather than by the frequencies' identification.
inline constexpr std::int64_t kRows = 3;

// The rows of X and Y read with the pairing `r` (the rotated columns' reading), into `result`.
void read(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
          double u, const ApplyCheck::Declared &declared);

} // namespace posenc::ApplyFewRows
