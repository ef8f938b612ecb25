#pragma once

#include "core/ParamTable.h"

// KERPLE's rows of the parameter table: the heads H, the head K whose bias the tables show
// (numbered 1..H), the learned r1 and r2 (one value for every head, or one per head) and the dtype
// the reference computes in. Each is idle under another encoding.
namespace posenc::KerpleParamRows {

QList<ParamSpec> rows();

} // namespace posenc::KerpleParamRows
