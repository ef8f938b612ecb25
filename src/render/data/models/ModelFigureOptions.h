#pragma once

#include "ConfigSource.h"

#include "render/data/FigureModel.h"

#include <optional>

// What the model figures (layer-stack, query-scale, head-map) share: their "config" option, a
// model config by path or an example's name (docs/ARCHITECTURE.md, Model knowledge), which the
// command line's --config also sets.
namespace posenc::ModelFigureOptions {

// The option; `defaultText` is what it reads as when not given (an example's name, or empty for
// the figure's own set of examples).
FigureOption config(const QString &defaultText);
// Why the option's value cannot be drawn: the file cannot be read, or holds a value no model could
// mean; nothing when it can.
QList<ParamError> check(const FigureState &state, const QString &defaultText);
// The config the state names, or nothing when it names none; precondition: check() passed.
std::optional<ConfigSource::Loaded> load(const FigureState &state, const QString &defaultText);

} // namespace posenc::ModelFigureOptions
