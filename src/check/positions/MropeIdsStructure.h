#pragma once

#include "PositionIdsCheck.h"

#include "core/Block.h"

#include <cstdint>
#include <optional>
#include <vector>

// M-RoPE's [3, B, L] position ids read without a prompt (docs/ARCHITECTURE.md, Positions in
// practice): their own structure against get_rope_index's (huggingface/transformers
// models/qwen2_vl/modeling_qwen2_vl.py Qwen2VLModel.get_rope_index, and Qwen2.5-VL's and
// Qwen3-VL's): text runs whose t, h and w are one id, one more each token; vision blocks, a
// (t, h, w) grid from the block's start with w running fastest, t advancing by a step a grid; the
// text after a block at its largest id + 1 (transformers 4.x) or its start + max(h, w) (5.x). The
// prompt read is said, and what a declared prompt would add.
namespace posenc::MropeIdsStructure {

// `ids` as [3·B, L], t's rows first.
PositionIdsCheck::Report read(const RowMatrixXf &ids, std::int64_t rows);

// One row's ids ([3, L]) as the prompt get_rope_index lays them out by, written as --prompt takes it
// with grids in patches at spatial merge `merge` (text:12,image:1x16x20,text:20), and whether the
// text after a vision block follows transformers 5.x's rule; or, in `problem`, why no prompt of
// --prompt's gives them: the first id no get_rope_index gives, right padding, or a video whose t advances
// by other than 1 a grid where no Qwen2.5-VL is declared. With `tokensPerSecond` (a declared
// Qwen2.5-VL's: its videos' t = trunc(k · second_per_grid · tokens_per_second), models/qwen2_5_vl/
// modeling_qwen2_5_vl.py get_rope_index), each video is written with the second_per_grid its t
// steps give (video:4x8x8@0.5 for t 0, 1, 2, 3 at tokens_per_second 2), or the problem that none does.
struct ReadPrompt
{
    QString prompt;
    bool v5 = false;
    QString problem;
    // Left padding before the prompt: its columns, at ids 1 (get_rope_index's fill), the prompt the
    // real tokens'; and whether the problem is right padding, which no prompt lays out.
    std::int64_t leftPadding = 0;
    bool padded = false;
};
ReadPrompt promptOf(const RowMatrixXf &ids, std::int64_t merge, std::optional<double> tokensPerSecond = std::nullopt);

} // namespace posenc::MropeIdsStructure
