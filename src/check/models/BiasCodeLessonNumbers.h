#pragma once

#include "core/LessonNumbers.h"

// Where the code of a model whose score bias is built from the columns or the mask builds it, and
// whether it has flash attention's varlen path: each model's own words in the model table
// (ModelSchemes.json: "bias_code", "bias_flash"), so that a new model of the kind needs a row and
// no code (docs/ARCHITECTURE.md, Model knowledge). LayerLessonNumbers gives them as core's `more`.
namespace posenc::BiasCodeLessonNumbers {

QList<LessonNumbers::Entry> entries();

} // namespace posenc::BiasCodeLessonNumbers
