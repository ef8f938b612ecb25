#pragma once

#include "check/TableHypothesis.h"
#include "check/rope/RopeFit.h"

#include <functional>
#include <optional>

// A RoPE cos or sin cache of half the rotary width, [L, rotary_dim / 2]: the frequencies' cos or
// sin before they are repeated for both columns of a pair, as candle keeps it
// (huggingface/candle, candle-transformers/src/models/llama.rs, Cache::new: idx_theta.cos(), and
// candle-nn/src/rotary_emb.rs, rope, which takes cos of [L, D / 2]) and as vLLM's cos_sin_cache
// holds each half. Undeclared it is read as the HF table it stands for (each column read twice,
// the half layout), which RoPE's fit identifies; the reference compared with the file's columns is
// that table's first half (docs/ARCHITECTURE.md, Checking a table).
namespace posenc::RopeHalfCache {

// Fits the HF table of `sample` widened to twice its columns; nothing when it does not explain it.
using FitWidened = std::function<std::optional<RopeFit::Fit>(const TableSample &widened)>;
// The match of a fit of the widened table, as the check reports a RoPE table's.
using MatchOf = std::function<TableMatch(const RopeFit::Fit &fit)>;

// Whether the table may be such a cache: two columns or more, row 0 the amplitude in every column
// (cos 0) or 0 in every column (sin 0), every sampled cell within the amplitude, and row 1 rising
// along the columns (cos) or falling and positive (sin). A cheap test, so that no other table
// (a sinusoid or a learned table after a padding row of zeros) is searched twice.
bool mayHold(const TableEvidence &e);

// The cache's reading: the widened table's fit where it explains the sample, its reference and
// tolerance narrowed to the file's columns, the note saying how it was read.
std::optional<TableCandidate> read(const TableEvidence &e, const FitWidened &fit, const MatchOf &match);

} // namespace posenc::RopeHalfCache
