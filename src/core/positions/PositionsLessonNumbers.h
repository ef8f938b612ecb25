#pragma once

#include "core/LessonNumbers.h"

// The numbers the lessons about batches quote (docs/ARCHITECTURE.md, Lessons): "Left padding and
// position ids" (batch_*) and "Packing documents into one row" (pack_*), from the model's
// parameters and its batch, each token's (PositionEffect) and each row's (DocumentDistance) in
// closed form or O(rotary pairs): cheap enough for every change of the controls.
namespace posenc::PositionsLessonNumbers {

QList<LessonNumbers::Entry> entries();

} // namespace posenc::PositionsLessonNumbers
