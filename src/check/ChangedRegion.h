#pragma once

#include "check/TableMatch.h"
#include "check/TableReference.h"
#include "check/TableSample.h"

// A table that equals a family's reference in most cells and not in the others (docs/
// ARCHITECTURE.md, Checking a table: a region changed), read on its sample. A table of numbers no
// formula gives is learned; one a formula gives in most cells is that formula's table, and what
// the other cells hold says whether a computation of it could give them:
// - one value throughout (0 where a causal mask holds -inf; a block overwritten);
// - the reference plus one constant (a column block shifted by an offset);
// - the reference's own cells a few rows or columns away (a block shifted along the table).
// Each is a change no faithful computation of the reference makes at any precision: a mistake,
// its region named once the rows are streamed. Cells that differ otherwise may be a form the
// check does not know: the table is then unknown, the nearest form and the changed cells named.
namespace posenc::ChangedRegion {

// The match to report for `partial`, a family's match whose reference equals most of the sample
// without explaining it (TableCandidate::partial); nothing where, read cell by cell, it does not
// equal most of the sample's cells after all.
std::optional<TableMatch> read(TableMatch partial, const TableSample &sample);

// The sample's cells where `reference` holds a mask's fill (−inf, or a dtype's lowest: MaskFill)
// and the table a value: a causal bias whose masked keys were left at 0 holds them in up to every
// cell after the query, more than half of a square table's first rows. A reference that explains
// the other cells equals the table but for its mask, whatever that region's share.
std::int64_t unmaskedCells(const TableReference &reference, const TableSample &sample);

} // namespace posenc::ChangedRegion
