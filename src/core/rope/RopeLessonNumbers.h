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
// The named model's numbers of its RoPE (RopeModelLessonNumbers.cpp): the max_position_embeddings
// HF's dynamic NTK reads, where its preset gives it.
QList<LessonNumbers::Entry> modelEntries();
// RoPE's float32 numbers (RopeFloat32LessonNumbers.cpp): transformers' float32 angles against exact
// ones, and where bfloat16 stops hiding the difference.
QList<LessonNumbers::Entry> float32Entries();

} // namespace posenc::RopeLessonNumbers
