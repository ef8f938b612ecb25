#pragma once

#include "check/TableMatch.h"
#include "check/mrope/MropeMistakes.h"
#include "check/rope/ApplyPairs.h"
#include "core/Block.h"
#include "core/Params.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

// `posenc check --apply X Y --encoding mrope` (docs/ARCHITECTURE.md, Checking a rotation): X holds
// queries or keys before multimodal RoPE and Y after, a row per token. Each rotary pair of Y is X's
// turned by id_axis(pair) * inv_freq, the pair's axis (t, h or w) given by mrope_section, chunked
// as huggingface/transformers' models/qwen2_vl/modeling_qwen2_vl.py apply_multimodal_rotary_pos_emb
// splits cos and sin (chunk i from axis i % 3), or interleaved as
// models/qwen3_vl/modeling_qwen3_vl.py apply_interleaved_mrope (h on pairs 1, 4, 7, ..., w on 2, 5,
// 8, ..., t the rest), then q * cos + rotate_half(q) * sin. The check reads each row's (t, h, w) ids
// from its angles (ApplyPairs: each axis from its own pairs), finds the split the rotation used,
// and with a prompt compares the ids with get_rope_index's (MropeLayout), decode rows after the
// prompt at cache position + rope_deltas on every axis (Qwen2VLModel.compute_3d_position_ids). The
// mistakes it names are MropeMistakes'.
namespace posenc::MropeApplyCheck {

struct Declared
{
    Params params; // encoding mrope: RoPE's keys, the section, the interleave, the prompt's rules
    bool prompt = false; // the prompt was given: the ids are compared with get_rope_index's
    int threads = 0;
};

// One row's ids, -1 on an axis whose id could not be read.
struct RowIds
{
    std::int64_t t = -1, h = -1, w = -1;

    friend bool operator==(const RowIds &, const RowIds &) = default;
};

// The verdict, the pairing, the attention factor, the mistakes, the cells (ApplyPairs::Outcome),
// and what M-RoPE's check reads besides.
struct Result : ApplyPairs::Outcome
{
    std::vector<std::int64_t> section; // the split the rotation used
    bool interleaved = false;
    std::vector<RowIds> ids; // each row's
    std::optional<std::int64_t> idOffset; // every id the reference's plus this
    std::int64_t promptTokens = 0; // the prompt's, where given
    std::optional<std::int64_t> ropeDeltas;
    QString reference; // what the rotation was compared with
};

// The check of Y against X, or the reason it cannot be made (shapes, a section that does not
// split the pairs, a prompt that does not lay out).
std::variant<Result, QString> check(const RowMatrixXf &x, const RowMatrixXf &y, const Declared &declared);

} // namespace posenc::MropeApplyCheck
