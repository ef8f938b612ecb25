#pragma once

#include "check/TableRows.h"

// HF's cos and sin caches dumped side by side, [positions, 2 rotary_dim] = cat(cos, sin) along the
// last dimension, each half the whole table of cat(freqs, freqs) (huggingface/transformers,
// models/llama/modeling_llama.py, LlamaRotaryEmbedding.forward: emb = torch.cat((freqs, freqs),
// dim=-1); cos = emb.cos(), sin = emb.sin()), or of the interleaved layout's repeat_interleave:
// each half checked as the table it is (docs/ARCHITECTURE.md, Checking a table, "Shapes").
namespace posenc::CosSinPair {

// Whether the table is such a pair: a vLLM-style cache's circle (CosSinCache::holds: column i and
// column i + half on one circle in every sampled row) whose halves each repeat their frequencies,
// column i equal to column i + half/2 (cat) or column 2i to 2i + 1 (interleaved) in every sampled
// row: a cache of the frequencies alone (vLLM's) repeats none.
bool holds(const TableRows &rows);

} // namespace posenc::CosSinPair
