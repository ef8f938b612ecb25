#pragma once

#include "CheckExpect.h"

#include <QString>

#include <variant>

// `posenc check --expect-config config.json [--layer-type TYPE]`: the reference a model's config
// computes for a layer type, through the config check's public entry (ModelConfig::check, what
// `posenc check --config` prints), as a declared family and its parameters.
namespace posenc::CheckExpect {

// The layer type's family and Params, or why not (the config unreadable: exit 3; no such layer,
// or one the config cannot compute, or of a family with no table to compare with: exit 2).
// `inputs` are the parameter flags given, by key with their text: those of the family's input
// (FamilySpec::inputKeys, M-RoPE's prompt) are laid over the config's, any other is refused.
std::variant<Expectation, Refusal> configExpectation(const QString &path, const QString &layerType,
                                                     const QList<std::pair<QString, QString>> &inputs = {});

} // namespace posenc::CheckExpect
