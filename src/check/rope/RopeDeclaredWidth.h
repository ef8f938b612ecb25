#pragma once

#include "check/TableHypothesis.h"

#include <optional>

// A declared RoPE whose rotary_dim is not the table's width (docs/ARCHITECTURE.md, Checking a
// table): the table's own width read against the declared one. vLLM's bailing_moe took
// rotary_dim = head_dim where the config gives partial_rotary_factor 0.5 (vllm-project/vllm#43770),
// and its cache was twice the width the config gives; the reverse is the declared head width
// wider than the one the table was made with. A table whose columns repeat as a RoPE table's is
// compared with the declared reference at its own width, and the mistake rotary-dim named with both
// values; where its pairs are also laid out otherwise than declared (GPT-J's interleaved
// rotary_dim 64 of a 256-wide head, models/gptj/modeling_gptj.py, where a rotate_half table of the
// whole head was made), the comparison at its width names rope-layout too, never one cause alone.
namespace posenc::RopeDeclaredWidth {

// The declared parameters at the table's own width (rotary_dim its columns, every other parameter
// the declared one, the declared layout among them), where the table's columns repeat as a RoPE
// table's of that width in either layout; nothing where they do not (a table of another shape,
// refused as before).
std::optional<Params> atOwnWidth(const TableEvidence &e, const Params &declared);

// The match at the table's own width and layout (`own`), named: rotary-dim first, with the declared
// and the table's rotary_dim, then rope-layout with both pairings where they differ.
// `layoutGiven`: whether the declaration gave the layout (a flag, a config or a preset), else the
// default's layout is said as the default, not declared.
TableMatch named(TableMatch atOwnWidth, const Params &declared, const Params &own, bool layoutGiven);

// The evidence `e` declared with `own` (atOwnWidth's): its layout the one compared, whatever was
// declared, as the declaration's is named against it by `named`.
CheckDeclaration declarationAt(const TableEvidence &e, const Params &own);

} // namespace posenc::RopeDeclaredWidth
