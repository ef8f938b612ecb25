#pragma once

#include "check/TableHypothesis.h"
#include "core/rope/RopeParams.h"

#include <functional>
#include <optional>

// A RoPE cos or sin table whose two copies of each pair differ (docs/ARCHITECTURE.md, Checking a
// table: a region changed): one copy shifted, offset or overwritten in a region, so that the
// layout's columns no longer repeat and RoPE's fit, which reads the layout from them, finds none.
namespace posenc::RopeOneCopy {

// RoPE's reading of the table with one copy written over the other, in either layout
// (`fitCopy`: RoPE's match of a sample of repeating columns in that layout, where its fit explains
// it), as a partial candidate (TableCandidate::partial) where that reference equals most of the
// table's own sample; the copy that leaves the fewest cells beyond it. Tried only where the
// copy's first position holds cos(0) = 1 or sin(0) = 0 throughout and its cells lie within
// [-1, 1] (as many as the fit must explain).
std::optional<TableCandidate>
read(const TableEvidence &e,
     const std::function<std::optional<TableMatch>(const TableSample &copied, RopeLayout layout)> &fitCopy);

} // namespace posenc::RopeOneCopy
