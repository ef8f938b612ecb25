#pragma once

#include "check/ModelConfigCheck.h"

#include <QJsonObject>

#include <optional>

// A diffusers model config read as a model config (docs/ARCHITECTURE.md, Checking a model config):
// the class its `_class_name` names places one thing by position, its timestep embedding
// (DiffusersTimestep), the config's one layer type, "timestep". `posenc check --config`, every
// command's --config and --expect-config read it through ModelConfig::check, as a transformers
// config is read.
namespace posenc::DiffusersConfig {

// The config's check, or nothing where it is no diffusers config (DiffusersTimestep::isConfig); a key
// the class's code would not take is the check's problem, naming the key.
std::optional<ConfigCheck> check(const QJsonObject &config);

} // namespace posenc::DiffusersConfig
