#pragma once

#include "ParamOptions.h"

// --position-table FILE[:TENSOR]: the learned family's table, read whole.
namespace posenc::PositionTableOptions {

// Loads the table of --position-table into result.params, after the other parameters and the
// embeddings were read: without --d-model (or --pe-dims in concat) its columns set them, and
// without --max-len or --embeddings its rows past the offset set max_len. Problems go to the
// result's errors (exit 2), fileError (exit 3) or overBudget (exit 4).
void read(const ParamOptions::Given &given, ParamOptions::Result &result);

} // namespace posenc::PositionTableOptions
