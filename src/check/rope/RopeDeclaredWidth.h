#pragma once

#include "check/TableHypothesis.h"

#include <optional>

// A declared RoPE whose rotary_dim is not the table's width (docs/ARCHITECTURE.md, Checking a
// table): the table's own width read against the declared one. vLLM's bailing_moe took
// rotary_dim = head_dim where the config gives partial_rotary_factor 0.5 (vllm-project/vllm#43770),
// and its cache was twice the width the config gives; the reverse is the declared head width
// wider than the one the table was made with. A table whose columns repeat as a RoPE table's, in
// the declared layout, is compared with the declared reference at its own width, and the mistake
// rotary-dim named with both values.
namespace posenc::RopeDeclaredWidth {

// The declared parameters at the table's own width (rotary_dim its columns, every other parameter
// the declared one), where the table's columns repeat as a RoPE table's of that width in the
// declared layout; nothing where they do not (a table of another shape, refused as before).
std::optional<Params> atOwnWidth(const TableEvidence &e, const Params &declared);

// The match at the table's own width, named: rotary-dim first, with the declared and the table's
// rotary_dim.
TableMatch named(TableMatch atOwnWidth, const Params &declared, std::int64_t cols);

} // namespace posenc::RopeDeclaredWidth
