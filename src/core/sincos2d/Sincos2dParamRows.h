#pragma once

#include "core/ParamTable.h"

// The 2-D sin-cos table's rows of the parameter table: the patch grid (which rope-2d reads too),
// MAE's cls token and diffusers' base_size and interpolation_scale.
namespace posenc::Sincos2dParamRows {

QList<ParamSpec> rows();

} // namespace posenc::Sincos2dParamRows
