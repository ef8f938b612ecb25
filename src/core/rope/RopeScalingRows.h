#pragma once

#include "core/ParamTable.h"

// The rotary family's rows of each rope_type's scaling keys, as HF's configs name them: factor,
// original_max_position_embeddings, llama3's and yarn's keys, the attention factor and longrope's
// lists. Each is idle while the chosen rope_type does not read it (RopeTypes).
namespace posenc::RopeScalingRows {

QList<ParamSpec> rows();

} // namespace posenc::RopeScalingRows
