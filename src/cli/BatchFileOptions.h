#pragma once

#include "ParamOptions.h"

// --attention-mask FILE and --document-ids FILE: a batch's [B, L] tables read whole, as runs
// (docs/ARCHITECTURE.md, Positions in practice).
namespace posenc::BatchFileOptions {

// Reads the tables into result.params after the other parameters: without --max-len their columns
// set it. What is wrong with their cells is the rows' checks' (exit 2); a file that cannot be read
// is fileError (exit 3), one over the memory budget overBudget (exit 4).
void read(const ParamOptions::Given &given, ParamOptions::Result &result);

} // namespace posenc::BatchFileOptions
