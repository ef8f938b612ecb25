#pragma once

#include "core/ParamTable.h"

// DeBERTa's rows of the parameter table, named as HF's DebertaV2Config names them: the position
// buckets and the span of relative positions. Each is idle under another encoding.
namespace posenc::DebertaParamRows {

QList<ParamSpec> rows();

} // namespace posenc::DebertaParamRows
