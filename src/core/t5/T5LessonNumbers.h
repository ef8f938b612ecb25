#pragma once

#include "core/LessonNumbers.h"

#include <QList>

// T5's numbers of the lessons (docs/ARCHITECTURE.md, Lessons), each from its reference functions
// or a closed form, read from its group of the parameters whatever the encoding: its
// FamilySpec::lessonNumbers.
namespace posenc::T5LessonNumbers {

QList<LessonNumbers::Entry> entries();

} // namespace posenc::T5LessonNumbers
