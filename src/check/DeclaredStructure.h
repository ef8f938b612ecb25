#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

// A declared table that deviates and that, read without the declaration, is a mistake of the
// table's structure rather than of a formula's parameters (docs/ARCHITECTURE.md, Checking a table,
// "A declared reference"): every row the same (`same-row`), the table transposed, a bias that
// follows the query (RowConstant). Those readings need no family's reference, so they hold under
// any declaration: the declared path names them as the undeclared one does.
namespace posenc::TableCheck {

// Where `declared` deviates with no mistake named and `read` (the table undeclared) names only
// structural mistakes: those are named, the read diagnosis given, the declared one kept as a note;
// a repeated row is also sought among the declared reference's rows (its first `kSearchedRows`
// positions and the table's), and the position it is said. Whether it named them (the reading is
// then the verdict's, said once).
bool nameDeclaredStructure(TableMatch &declared, const TableMatch &read, const TableRows &table);

// Whether the table's first row (its first position's) is a row of `candidate`'s reference, among
// its first rows (as many as the table's, at most kSearchedRows, and kSearchedRows more), within
// the tolerance a faithful computation of it allows: of a family's tables that all deviate (RoPE's
// cos and sin), the one the table's rows are of (a cos row at position 1000 declared at 0 is a
// row of the cos table, not near the sin table's row of zeros).
bool firstRowIsReferenceRow(const TableMatch &candidate, const TableRows &table);

} // namespace posenc::TableCheck
