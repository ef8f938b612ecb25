#pragma once

#include "check/ConfigContext.h"

// NoPE's config reader (FamilySpec::readConfig, docs/ARCHITECTURE.md, Checking a model config):
// the layers of a rotary model that place no position: attention without RoPE (Llama 4's and
// SmolLM3's NoPE layers, Cohere2's full layers) and the mixers that are not attention (linear
// attention, Mamba, a short convolution).
namespace posenc::NoneConfig {

// The groups of the model's layer plan that do not turn.
QList<ConfigLayer> layers(ConfigContext &c);

} // namespace posenc::NoneConfig
