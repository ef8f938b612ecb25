#pragma once

#include "LessonNumbers.h"

// The lessons' numbers every family shares (docs/ARCHITECTURE.md, Lessons): the model's name and
// family, its width and length, the embeddings, their balance with the position term, dropout.
namespace posenc::SharedLessonNumbers {

QList<LessonNumbers::Entry> entries();

} // namespace posenc::SharedLessonNumbers
