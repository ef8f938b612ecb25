#pragma once

#include "check/TableHypothesis.h"

// How `posenc check` identifies a Sandwich bias table, head K's [max_len, max_len] as `posenc table
// sandwich-bias` (or NeMo's SandwichRelativePositionEmbedding) writes it (docs/ARCHITECTURE.md,
// Checking a table): a table of offsets t = j - i holding (sum_k cos(|t| w_k) - d/2) / s at and
// before the query, and after it the same (bidirectional), the bias of distance 0 (NeMo's causal
// tril), or a mask's fill. The shape of the bias against the distance names d, its size the scale
// s = 8K/H; one head's table does not tell H and K apart from their multiples.
namespace posenc::SandwichTableCheck {

TableHypothesis hypothesis();

} // namespace posenc::SandwichTableCheck
