#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <cstdint>
#include <optional>
#include <vector>

// A declared Qwen-VL vision table (2-D RoPE's qwen-vit style, spatial_merge_size m) whose rows are
// the reference's merge blocks in Qwen2.5-VL's window order (docs/ARCHITECTURE.md, Checking a table,
// "A declared reference"): the vision encoder's forward reorders rot_pos_emb's rows by
// get_window_index before it takes their cos and sin (transformers models/qwen2_5_vl/
// modeling_qwen2_5_vl.py, Qwen2_5_VisionTransformerPretrainedModel.get_window_index and forward:
// rotary_pos_emb[window_index, :, :]). A published order, but not the one --grid declares
// (rot_pos_emb's): unknown, never a mistake, with the way to declare it (the rows' ids).
namespace posenc::Rope2dWindowOrder {

// get_window_index's order of the blocks of an h x w grid of merge blocks, windows of `window` x
// `window` blocks: the blocks window by window, row-major inside each, each block's index in
// rot_pos_emb's order (row-major).
std::vector<std::int64_t> windowIndex(std::int64_t h, std::int64_t w, std::int64_t window);

// The declared match (qwen-vit, spatial_merge_size 2 or more) made unknown where every row of
// `table` is the reference's row of get_window_index's order at some window size; nothing otherwise.
std::optional<TableMatch> name(const TableMatch &declared, const TableRows &table);

} // namespace posenc::Rope2dWindowOrder
