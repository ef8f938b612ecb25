#pragma once

#include "core/rope/RopeFit.h"

#include <vector>

// The published LongRoPE tables: each model's short and long factors per pair, as its config.json
// gives them. The presets phi-3-mini-128k and phi-4-mini hold the same values: tst_clicheckroundtrip
// checks each preset's tables, short and long, `correct` against these by name.
namespace posenc::RopeLongRopeForms {

std::vector<RopeFit::Published> forms();

} // namespace posenc::RopeLongRopeForms
