#pragma once

#include "core/LessonNumbers.h"

#include <QList>

// NoPE's numbers of the lessons (docs/ARCHITECTURE.md, Lessons): how a layer without position
// still tells positions apart (NopeOrder), from the shared parameters d, s, σ and L whatever the
// encoding: uniform attention's weight of the first key under the causal mask, the expected and
// this seed's norm of the output, and the position that norm reads back as. Its
// FamilySpec::lessonNumbers.
namespace posenc::NoneLessonNumbers {

// The query position the lesson quotes beside t = 0: keys 0 … 99.
inline constexpr std::int64_t kQuoted = 99;

QList<LessonNumbers::Entry> entries();

} // namespace posenc::NoneLessonNumbers
