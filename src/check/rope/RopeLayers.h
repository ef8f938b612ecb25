#pragma once

#include "check/FamilyCheck.h"

// RoPE's layers of a model config as the model figures and the config check read them
// (FamilyCheck::rotary, docs/ARCHITECTURE.md, Model knowledge): the frequencies of the layer's
// rope_type and scaling, and its words, which name the columns of the config's head that turn.
namespace posenc::RopeLayers {

RotaryLayers rotary();

} // namespace posenc::RopeLayers
