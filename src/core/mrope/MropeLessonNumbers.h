#pragma once

#include "core/LessonNumbers.h"

// Multimodal RoPE's numbers of the lessons (docs/ARCHITECTURE.md, Lessons): where the prompt's
// image and video put their tokens, and what a width offset turns each split's fastest w pair by.
namespace posenc::MropeLessonNumbers {

QList<LessonNumbers::Entry> entries();

} // namespace posenc::MropeLessonNumbers
