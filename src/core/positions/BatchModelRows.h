#pragma once

#include "core/ParamTable.h"

// What a model's code does with the batch besides its encoding (docs/ARCHITECTURE.md, Positions in
// practice), rows of the batch's group: its mask (attention), how it adds its position term
// (positions-added: by id or by column), and Llama 4's temperature on its NoPE layers'
// queries (Llama4TextAttention.forward: log1p(floor((p + 1) / floor_scale)) * attn_scale + 1, p its
// cache_position) and its chunked attention (masking_utils.chunked_overlay: a query sees the keys of
// its chunk, (idx - left_padding) // attention_chunk_size).
namespace posenc::BatchModelRows {

QList<ParamSpec> rows();

} // namespace posenc::BatchModelRows
