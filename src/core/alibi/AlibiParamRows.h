#pragma once

#include "core/ParamTable.h"

// ALiBi's rows of the parameter table: the heads H, the head K whose bias the tables show
// (numbered 1..H as in the paper) and the mask. Each is idle under another encoding.
namespace posenc::AlibiParamRows {

QList<ParamSpec> rows();

} // namespace posenc::AlibiParamRows
