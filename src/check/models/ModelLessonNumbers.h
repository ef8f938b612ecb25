#pragma once

#include "core/LessonNumbers.h"

// The numbers the lesson "One model, many layers" quotes (docs/ARCHITECTURE.md, Lessons), read
// from the example configs of Llama 4 Scout and Gemma 3 4B as their models' code reads them
// (ModelConfig::check): the same whatever the parameters. Core's lesson numbers cannot read a
// config, so a lesson's text is filled with these after core's (LessonNumbers::fill's `more`).
namespace posenc::ModelLessonNumbers {

QList<LessonNumbers::Entry> entries();

} // namespace posenc::ModelLessonNumbers
