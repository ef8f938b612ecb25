#pragma once

#include "check/ModelConfigCheck.h"

// Where each number of a checked config comes from (docs/ARCHITECTURE.md, Checking a model
// config): the config key it was read from, the model class's default where the key is absent,
// the model's code where the code fixes it, or a guess where the model_type is not in posenc's
// table and Llama's (or the nearest known model's) rules stood in for its own.
namespace posenc {

struct ConfigContext;

namespace ConfigSources {

// Fills each layer's sources (ConfigLayer::sources) once its family and scheme are read.
void fill(const ConfigContext &context, QList<ConfigLayer> &layers);
// Whether a source is a guess ("guess ...").
bool isGuess(const QString &source);
// The key path a source read ("key <path>", a guess's "guess key <path>: ..."), or empty.
QString keyOf(const QString &source);

} // namespace ConfigSources

} // namespace posenc
