#pragma once

#include "check/rope/ApplyCheck.h"
#include "check/rope/ApplyPairs.h"

// An --apply check whose rows are all turned by the same angles (docs/ARCHITECTURE.md, Checking a
// rotation; issue 56): every token of the sequence at one position, a scalar broadcast where each
// token has its own. transformers turns row r at position_ids[r], arange(past, past + L) for a
// sequence (modeling_llama.py, LlamaModel.forward: cache_position); one position for all L rows is
// the cache's length or the last position taken for every row (NVIDIA/TransformerEngine's fused
// RoPE with a scalar start position). No frequency is read from such rows, which show each pair's
// frequency times one unknown position; the position is read where a reference is declared.
namespace posenc::ApplyOnePosition {

// Where every sampled row of two or more turns each pair by the angles row 0 does, and some pair
// turns at all: positions-constant named in `result`, unknown, since one token's heads turn alike
// too (the position read against a reference declared in full, every sampled row's cells compared
// there), true; false, `result` as it was, otherwise.
bool name(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
          double u, const ApplyCheck::Declared &declared);

} // namespace posenc::ApplyOnePosition
