#pragma once

#include "check/TableHypothesis.h"

// How `posenc check` identifies a DeBERTa bucket table, [max_len, max_len] as `posenc table
// deberta-bucket` writes it (docs/ARCHITECTURE.md, Checking a table): a table of offsets t = j - i
// holding make_log_bucket_position(i - j), the distances up to buckets / 2 their own bucket and
// logarithmic after; the buckets and the range of max_position the table allows.
namespace posenc::DebertaTableCheck {

TableHypothesis hypothesis();

} // namespace posenc::DebertaTableCheck
