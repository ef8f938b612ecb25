#pragma once

#include "core/ParamTable.h"

// The learned family's rows of the parameter table: the position table and its offset.
namespace posenc::LearnedParamRows {

QList<ParamSpec> rows();

} // namespace posenc::LearnedParamRows
