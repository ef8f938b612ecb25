#pragma once

#include "check/rope/RopeFit.h"

#include <vector>

// The published LongRoPE tables (docs/ARCHITECTURE.md, Checking a table): every shipped preset of
// rope_type longrope, its short and long factors per pair as the model's config.json gives them,
// read from resources/presets when posenc is built (LongRopePresets.cmake). A table of one of
// these is `correct` against the model by name.
namespace posenc::RopeLongRopeForms {

std::vector<RopeFit::Published> forms();

} // namespace posenc::RopeLongRopeForms
