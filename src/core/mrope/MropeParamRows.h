#pragma once

#include "core/ParamTable.h"

// Multimodal RoPE's rows of the parameter table: mrope_section and its interleave, the model whose
// get_rope_index gives the ids and the transformers era, the vision config's keys and the prompt.
// Each is idle under another encoding; RoPE's rows apply as they are (FamilySpec::borrows).
namespace posenc::MropeParamRows {

QList<ParamSpec> rows();
// --vision-positions' words: "qwen2-vl", "qwen2.5-vl", "qwen3-vl".
const QStringList &visionWords();

} // namespace posenc::MropeParamRows
