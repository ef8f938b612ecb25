#pragma once

#include "core/LessonNumbers.h"

// The lessons' numbers of a model's layer types (docs/ARCHITECTURE.md, Lessons; Model knowledge):
// read from the config the lesson's model comes with (LessonModel::config), each layer type's
// count, what places position in it, how far it attends, its slowest rotary pair and its query
// scale. Missing where the model comes with no config. Core cannot read a config, so the layers
// that read lessons give these to LessonNumbers as its `more`.
namespace posenc::LayerLessonNumbers {

// Made once.
const QList<LessonNumbers::Entry> &entries();

} // namespace posenc::LayerLessonNumbers
