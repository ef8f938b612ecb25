#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <cstdint>
#include <memory>

// A rotary cache that keeps cos and sin side by side in one tensor, [positions, rotary_dim] =
// cat(cos(freqs), sin(freqs)) along the last dimension, as vLLM keeps it
// (vllm-project/vllm, vllm/model_executor/layers/rotary_embedding.py,
// RotaryEmbedding._compute_cos_sin_cache; docs/ARCHITECTURE.md, Checking a table, "Shapes"). The
// layout is the tensor's: each half is the frequencies' cos or sin before they are repeated for
// both columns of a pair, so each half is checked as the HF table it stands for.
namespace posenc::CosSinCache {

// Whether the table is such a cache: an even width of two pairs or more, every sampled row's pair
// (column i, column i + d/2) on one circle (cos² + sin² the same for every pair, to the cells'
// rounding), the halves not equal, and the slowest pair's cos before its sin (its angle small).
bool holds(const TableRows &rows);

// The half of `rows` (the sines' when `sines`) widened to the HF table of its frequencies: each
// column repeated as the layout repeats it (cat for the half layout, both columns of a pair for
// interleaved).
std::shared_ptr<const TableRows> half(std::shared_ptr<const TableRows> rows, bool sines, bool interleaved);

// The two halves' matches as the cache's: the worse verdict (the cos half's when they tie), the
// other half's verdict in a note, the worst cell's column the file's.
TableMatch combine(TableMatch cos, TableMatch sin, std::int64_t pairs, bool interleaved);

} // namespace posenc::CosSinCache
