#pragma once

#include "core/ParamTable.h"

// The rotary family's rows of the parameter table, named as HF's configs name them: the head,
// rope_theta, the partial rotary factor, the layout, rope_type and each scaling's keys. Each is
// idle under another encoding and while the chosen rope_type does not read it.
namespace posenc::RopeParamRows {

QList<ParamSpec> rows();

} // namespace posenc::RopeParamRows
