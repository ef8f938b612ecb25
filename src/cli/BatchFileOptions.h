#pragma once

#include "ParamOptions.h"

#include <optional>

// --attention-mask FILE and --document-ids FILE: a batch's [B, L] tables read whole, as runs
// (docs/ARCHITECTURE.md, Positions in practice); and the rows' length of a batch given by lengths.
namespace posenc::BatchFileOptions {

// The rows' length a batch given on the command line by its lengths asks for: its longest row's, as
// a tokenizer pads with padding=True (--batch left:5,8,3: 8; --packed 3,4,2/5,4: 9), where the
// flags give no --max-len and no prefill (--cache) sets the rows' length; a preset's or a session's
// max_len is a context, not a batch's width. Nothing where the lengths do not parse (their flag's
// check says why).
std::optional<std::int64_t> longestRow(const ParamOptions::Given &given, const QStringList &fromFlags);

// Reads the tables into result.params after the other parameters: without --max-len their columns
// set it. What is wrong with their cells is the rows' checks' (exit 2); a file that cannot be read
// is fileError (exit 3), one over the memory budget overBudget (exit 4).
void read(const ParamOptions::Given &given, ParamOptions::Result &result);

} // namespace posenc::BatchFileOptions
