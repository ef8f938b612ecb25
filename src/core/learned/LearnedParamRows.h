#pragma once

#include "core/ParamTable.h"

// The learned family's rows of the parameter table: the position table.
namespace posenc::LearnedParamRows {

QList<ParamSpec> rows();

} // namespace posenc::LearnedParamRows
