#pragma once

#include "check/TableHypothesis.h"
#include "check/rope/RopeFit.h"

#include <functional>
#include <optional>

// An undeclared RoPE cos or sin table whose angles were formed in half precision (issue 56:
// transformers' LlamaRotaryEmbedding after model.half(), huggingface/transformers#25681; candle's
// RotaryEmbedding::new in bf16 before huggingface/candle#3005), which no published form's
// reference explains: its fast pairs' angles lose their low bits while its slow pairs' stay within
// the rounding. The base is read from the slow pairs (each pair's angles read back while they stay
// below their first turn), and the declared reading (RopeHalfAngles::name) is asked of the default
// RoPE at that base: where a half-precision pipeline gives every cell and the exact angles do not,
// the table is named half-precision-angles, the base said as read (docs/ARCHITECTURE.md, Checking a
// table, "A declared reference"). A faithful half cache (float32 angles, cos and sin rounded) is
// claimed by the fit before this is asked.
namespace posenc::RopeHalfAnglesRead {

// The match the check reports of a fit at the parameters read.
using MatchOf = std::function<TableMatch(const RopeFit::Fit &fit)>;

// rope_theta read from the slow pairs of a table in `layout` (a cos table when `cosine`, else sin)
// whose row r holds position `first + r`: the median of the pairs' readings, each pair's the median
// of its cells' angle / position; nothing where fewer than two pairs stay below their first turn.
struct SlowReading
{
    double theta = 0.0;
    std::int64_t firstPair = 0; // the slow pairs read, firstPair..lastPair
    std::int64_t lastPair = 0;
};
std::optional<SlowReading> slowTheta(const TableSample &sample, const RowFraming &framing, RopeLayout layout,
                                     bool cosine, std::int64_t first);

// The table read as the default RoPE at the base its slow pairs give (or a config's base near it)
// with its angles formed in half precision: the candidate claiming it, the mistake named; nothing
// where no such pipeline explains it.
std::optional<TableCandidate> read(const TableEvidence &e, RopeLayout layout, const MatchOf &match);

} // namespace posenc::RopeHalfAnglesRead
