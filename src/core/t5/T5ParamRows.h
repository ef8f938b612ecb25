#pragma once

#include "core/ParamTable.h"

// T5's rows of the parameter table, named as HF's T5Config names them: the buckets, the max
// distance and the direction (the decoder's causal map). Each is idle under another encoding.
namespace posenc::T5ParamRows {

QList<ParamSpec> rows();

} // namespace posenc::T5ParamRows
