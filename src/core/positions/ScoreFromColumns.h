#pragma once

#include "core/Params.h"

// Where a family's score bias comes from in the reference code of the models that use it
// (docs/ARCHITECTURE.md, Positions in practice): the one record the position figures and the
// packing and left-padding lessons follow.
namespace posenc::ScoreFromColumns {

// Whether the models of `encoding` build their score bias from the sizes or the attention mask,
// never from position ids, with no varlen path (none of them declares flash attention in
// transformers):
// - MPT (models/mpt/modeling_mpt.py): MptModel.forward takes position_ids among its NOOP kwargs and
//   builds build_mpt_alibi_tensor over config.max_seq_len, which MptAttention.forward slices to the
//   last key_length columns;
// - BLOOM (models/bloom/modeling_bloom.py): BloomModel.forward builds build_alibi_tensor from the 2-D
//   attention_mask's cumsum;
// - T5, Flan-T5 (models/t5/modeling_t5.py): T5Attention.compute_bias from arange(query_length) and
//   arange(key_length);
// - DeBERTa-v2/v3 (models/deberta_v2/modeling_deberta_v2.py): build_relative_position from the
//   query's and the key's sizes.
bool builds(Encoding encoding);

} // namespace posenc::ScoreFromColumns
