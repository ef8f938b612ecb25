#pragma once

#include "check/TableHypothesis.h"
#include "core/Params.h"

#include <optional>

// The layout a declared RoPE cos or sin table is held to (docs/ARCHITECTURE.md, Checking a table).
// A model whose transformers code writes its interleaved rotation de-interleaved
// (RopeFit::Published::deinterleaved: modeling_deepseek_v3.py, apply_rotary_pos_emb_interleave
// permutes q and k, not the table) returns the half layout's table whatever rope_interleave says
// (DeepseekV3RotaryEmbedding.forward: cat(freqs, freqs)), and its own code turns consecutive pairs
// (deepseek-ai/DeepSeek-V3 inference/model.py, precompute_freqs_cis and apply_rotary_emb:
// view_as_complex), whose table in real numbers repeats each pair's value in place
// (repeat_interleave): either layout is the declared model's table, as either pairing is its
// rotation under `--apply` (RopePublishedForms::withRotation).
namespace posenc::RopeDeclaredLayout {

// Whether `p` is such a model's RoPE: interleaved, at a de-interleaving form's frequencies.
bool eitherLayout(const Params &p);

// The declared layout the table is held to; nothing where none is declared, or where the declared
// parameters are an interleaved form's whose transformers code de-interleaves (either layout).
std::optional<RopeLayout> of(const TableEvidence &e);

// The layout the sample's rows repeat each pair's value in: half (column j equals column j + d/2)
// or interleaved (column 2i equals column 2i + 1), in every sampled row; nothing where neither or
// both hold.
std::optional<RopeLayout> read(const TableSample &sample);

} // namespace posenc::RopeDeclaredLayout
