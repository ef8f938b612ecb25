#pragma once

#include "check/TableHypothesis.h"
#include "check/TableMatch.h"
#include "check/TableReference.h"
#include "check/TableRows.h"
#include "check/TableSample.h"

#include <QString>

#include <memory>
#include <optional>

// A bias added to attention scores is defined up to a constant per query row: the softmax over a
// row's keys ignores it (docs/ARCHITECTURE.md, Checking a table, "A constant per query row").
// BLOOM's scores hold m·j (build_alibi_tensor's key bias, the query's constant m·i left in), MPT's
// m·(j − L + 1), HF's causal ALiBi −m (i − j): one bias. A family whose table is such a bias
// (TableHypothesis::rowShiftFree) is fitted and compared with each row's constant removed, the
// value at the query's own key (row r's cell (r, r)), and the diagnosis says so; a table that,
// so reduced, is zero is a function of the query alone, which the softmax cancels: no position.
namespace posenc::RowConstant {

// A bias constant along each query's row: after the softmax it favours no key over another.
inline const QString kFollowsQuery = QStringLiteral("bias-follows-query");

// Whether the sample's rows differ at their own keys (row r's cell (r, r), r < cols, finite):
// a table of a function of j − i holds one value there, so only such a table has constants to
// remove.
bool varies(const TableSample &sample);
// Whether the sample's rows hold constants to remove: they vary, or all hold one value at their own
// keys that is not 0 (one constant added to every cell: a special case of a constant per row, which
// the softmax cancels as well).
bool holdsConstants(const TableSample &sample);

// Identify's reading of a table no formula claims as it is (`evidence`): the row-shift-free
// families fitted on the sample with each row's constant removed (to 0 at the query's own key,
// or to the first row's value there), the claim's reference given the table's constants back
// (`shifted`; correct only against a named reference, else a variant); or, where every row so
// reduced is zero, the mistake kFollowsQuery. Nothing where the rows hold no varying constant or
// nothing reads them.
std::optional<TableMatch> read(const TableEvidence &evidence);

// A declared family's match (`match`, its reference the declared one), where its table is such a
// bias (`hypothesis.rowShiftFree`), compared with the table's constants added back, where that
// explains more of the sample's cells than the reference as it is; the diagnosis then says so.
void expectShifted(TableMatch &match, const TableEvidence &evidence, const TableHypothesis &hypothesis);

// `inner` with each row's constant of `table` added: row i is inner's plus table(i, i) −
// inner(i, i) (0 where either is not finite or i ≥ cols), the largest |constant| in `largest`.
// Nothing when the table's rows cannot be read.
std::shared_ptr<const TableReference> shifted(std::shared_ptr<const TableReference> inner, const TableRows &table,
                                              double *largest = nullptr);

// The words said after a diagnosis whose comparison removed the rows' constants.
QString removedWords();

} // namespace posenc::RowConstant
