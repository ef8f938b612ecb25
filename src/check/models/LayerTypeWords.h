#pragma once

#include "check/ModelConfigCheck.h"

#include <QList>
#include <QString>

// A model's layer types in words, for the lessons that name them (many-layers, families): what
// places position in each and how far its queries see (docs/ARCHITECTURE.md, Lessons).
namespace posenc::LayerTypeWords {

// Whether a layer type turns its queries and keys (RoPE, M-RoPE), read as a family can compute it.
bool rotary(const ConfigLayer &l);

// Whether a layer type places no position at all (NoPE).
bool positionless(const ConfigLayer &l);

// "turn with RoPE θ = 500,000 (llama3 ×16)", "have no position".
QString positionWords(const ConfigLayer &l);

// "attend within chunks of 8,192 positions", "see the whole context"; empty for a layer with no
// attention head.
QString reachWords(const ConfigLayer &l);

// Every type in words: "36 chunked_attention layers turn with RoPE θ = 500,000 (llama3 ×16) and
// attend within chunks of 8,192 positions and 12 full_attention layers have no position and see
// the whole context". A clause every type shares is said once, after them: "12 sliding_attention
// layers attend within a window of 128 positions and 12 full_attention layers see the whole
// context, and all turn with RoPE θ = 150,000 (yarn ×32)".
QString layerTypes(const QList<const ConfigLayer *> &types);

} // namespace posenc::LayerTypeWords
