#pragma once

#include "core/Params.h"

namespace posenc::ParamRelevance {

// Whether two parameter sets give different PE tables (and table shapes).
bool peDiffers(const Params &a, const Params &b);
// Whether they give different PE or s*E tables: X differs, dropout aside.
bool inputDiffers(const Params &a, const Params &b);

} // namespace posenc::ParamRelevance
