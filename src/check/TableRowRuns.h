#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

// A table against --expect-table's reference whose deviating rows are one run that holds the other
// table's rows from elsewhere (docs/ARCHITECTURE.md, Checking a table, "A declared reference"): a
// packed batch's rows where one side restarts its positions at a document's start and the other runs
// on (Megatron's rotary_pos_emb(seq_length) where the pack's position_ids restart), a cache's rows
// computed from another offset. No faithful computation moves some rows and not others: the rows
// and the positions they hold are named, position-offset, as --position-ids names a row not at its id.
namespace posenc::TableCheck {

// Where `match` is a mistake with none named and the rows that deviate from `reference` are one run
// [a, b): the run cut into parts, each part's rows the other table's rows from elsewhere (row r of
// the reference the table's row r - s, a shift s of its own per part: a pack's documents each
// restarting), first with the reference's rows found in the table, else the table's in the
// reference; every row of the run in some part of at least 4 rows, at most 64 parts. Then position-offset named with
// each part's rows and the positions they hold against the reference's. Tables of at most 2^22
// cells are read whole; larger ones are left as they are.
void nameRowRun(TableMatch &match, const TableRows &table, const TableRows &reference);

} // namespace posenc::TableCheck
