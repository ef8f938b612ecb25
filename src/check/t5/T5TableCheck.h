#pragma once

#include "check/TableHypothesis.h"

// How `posenc check` identifies a T5 bucket table, [max_len, max_len] as `posenc table t5-bucket`
// writes it (docs/ARCHITECTURE.md, Checking a table): a table of offsets t = j - i holding
// _relative_position_bucket(t); bidirectional (keys after the query from buckets / 2 on) or causal
// (later keys 0); the buckets and the range of max_distance the table allows.
namespace posenc::T5TableCheck {

TableHypothesis hypothesis();

} // namespace posenc::T5TableCheck
