#pragma once

#include "core/LessonNumbers.h"

#include <QList>

// RoPE's numbers of the lessons (docs/ARCHITECTURE.md, Lessons), each from its reference functions
// or a closed form, read from its group of the parameters whatever the encoding: its
// FamilySpec::lessonNumbers.
namespace posenc::RopeLessonNumbers {

QList<LessonNumbers::Entry> entries();
// The families figure's RoPE numbers (RopeFamiliesLessonNumbers.cpp): an aligned pair's score at the
// distances the families lesson quotes, and the settings that figure draws.
QList<LessonNumbers::Entry> familiesEntries();

} // namespace posenc::RopeLessonNumbers
