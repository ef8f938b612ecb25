#pragma once

#include "core/ParamTable.h"

// The sinusoidal family's rows of the parameter table: base, layout, angles.
namespace posenc::SinusoidalParamRows {

QList<ParamSpec> rows();

} // namespace posenc::SinusoidalParamRows
