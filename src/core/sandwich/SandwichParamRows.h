#pragma once

#include "core/ParamTable.h"

// Sandwich's rows of the parameter table: the heads H, the head K whose bias the tables show
// (numbered 1..H as NeMo's scales are), the per-head dim d and the mask. Each is idle under
// another encoding.
namespace posenc::SandwichParamRows {

QList<ParamSpec> rows();

} // namespace posenc::SandwichParamRows
