#pragma once

#include "check/TableHypothesis.h"

// How `posenc check` identifies a learned table (docs/ARCHITECTURE.md, Checking a table): no
// formula, a structure (LearnedFit) — neighbouring rows alike, rows far apart less so — and the
// first row a position reads. It claims a table only when no family's formula does.
namespace posenc::LearnedTableCheck {

TableHypothesis hypothesis();

} // namespace posenc::LearnedTableCheck
