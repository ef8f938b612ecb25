#pragma once

#include "check/TableHypothesis.h"

// How `posenc check` identifies a KERPLE bias table, head K's [max_len, max_len] as `posenc table
// kerple-bias` (or the authors' ParallelKerpleLog) writes it (docs/ARCHITECTURE.md, Checking a
// table): a table of offsets t = j − i holding −r1·log(1 + r2·|t|) at and before the query and, after
// it, the bias of distance 0 (torch.tril) or a mask's fill. r2 follows from the shape, the ratio of
// the bias far from the query to the bias at distance 1, log(1 + n·r2) / log(1 + r2), and r1 from
// the size; a linear bias (ALiBi's) is the limit r2 → 0, which the reference's clamp to eps = 0.01
// keeps out. One head's table tells its r1 and r2, not H or K.
namespace posenc::KerpleTableCheck {

TableHypothesis hypothesis();

} // namespace posenc::KerpleTableCheck
