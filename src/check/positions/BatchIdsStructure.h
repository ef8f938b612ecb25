#pragma once

#include "PositionIdsCheck.h"

#include "core/Block.h"

#include <cstdint>

// A batch's [B, L] position ids (B > 1) given with no flag that says how it was made (docs/
// ARCHITECTURE.md, Positions in practice): each row read against transformers' generation
// (generation/utils.py, prepare_inputs_for_generation: attention_mask.long().cumsum(-1) - 1, then
// masked_fill_(attention_mask == 0, 1)) and the forms of it models use (the padding clamped to 0,
// or cumsum − 1 left unfilled). A row whose
// ids start with a run of one fill before 0, 1, 2, ... is left-padded, one whose ids end in a run of
// one fill right-padded: only a fill tells padding from a token. A batch with a row so padded is
// correct; rows that are all arange(L) are unknown, since a left-padded row under arange
// (arange-with-padding) looks the same and only --attention-mask tells them apart.
namespace posenc::BatchIdsStructure {

// `ids` as [rows, L].
PositionIdsCheck::Report read(const RowMatrixXf &ids);

} // namespace posenc::BatchIdsStructure
