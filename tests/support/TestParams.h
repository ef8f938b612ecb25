#pragma once

// Parameters the tests build often.
#include "core/Params.h"

#include <cstdint>

namespace TestParams {

// d_model `d` and max_len `length`, everything else the defaults.
inline posenc::Params sized(std::int64_t d, std::int64_t length)
{
    posenc::Params p;
    p.dModel = d;
    p.maxLen = length;
    return p;
}

} // namespace TestParams
