#pragma once

#include "check/ModelConfigCheck.h"

// What each layer type's attention does with position besides its family's parameters, as the
// model's own attention code does it (docs/ARCHITECTURE.md, Model knowledge): the mixer, where a
// head's rotating columns sit, the window or chunk, the query scaling and the softmax scale.
namespace posenc {

struct ConfigContext;

namespace LayerSchemes {

// Fills each layer's scheme (ConfigLayer::scheme) from the model's row and layer plan, once the
// families' readers have read the layers.
void fill(ConfigContext &context, QList<ConfigLayer> &layers);
// Whether the row's bidirectional key is on: the sliding window then reaches sliding_window // 2
// each side (EmbeddingGemma's use_bidirectional_attention, Gemma 4's "all").
bool bidirectional(const ConfigContext &context);

} // namespace LayerSchemes

} // namespace posenc
