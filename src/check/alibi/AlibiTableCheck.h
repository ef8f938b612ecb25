#pragma once

#include "check/TableHypothesis.h"

// How `posenc check` identifies an ALiBi bias table, head K's [max_len, max_len] as `posenc table
// alibi-bias` writes it (docs/ARCHITECTURE.md, Checking a table): a table of offsets t = j - i
// holding m t for keys at or before the query, and after it the causal mask's fill (-inf, or
// float32's lowest as HF's masks fill) or the symmetric -m t. The slope names the head.
namespace posenc::AlibiTableCheck {

TableHypothesis hypothesis();

} // namespace posenc::AlibiTableCheck
