#pragma once

#include "CheckExpect.h"
#include "CheckTensor.h"

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <QTextStream>

#include <cstdint>
#include <functional>
#include <variant>

// The windows of a relative map's queries over its keys that `posenc check FILE` tries
// (docs/ARCHITECTURE.md, Checking a table, "A step with a cache"): the window a parameter passed down
// to the check (CheckDeclaration::queryStart), never state of a thread.
namespace posenc::CheckQueryWindows {

using Run = CheckTensor::Run;
// The check of a table as it is, at the run's declaration (CheckTensor's).
using AsIs = std::function<std::variant<TableMatch, int>(const TableRows &, const Run &,
                                                         const CheckExpect::Expectation &, QTextStream &)>;

// A relative map of q queries over k > q keys (docs/ARCHITECTURE.md, Checking a table, "A window of
// positions"): its queries are a window of its keys, a parameter of the check (checkAt). Undeclared,
// the last q (a step with a cache, queryStart), then the first q (a map computed without one,
// DeBERTa's build_relative_position) are read, and a window at which the map is a family's is said,
// not judged: both are faithful, and the check cannot tell which the caller meant. Declared
// (--positions, or --expect-config's model, whose step keeps the last queries as T5Attention.forward
// does), the map is read at that window; one that deviates there and reads at the other as a family's
// correct map or a variant is position-offset, both windows said (candle#899, x-transformers#103).
// Tried only where the table may be such a map (PositionWindows::mayBeQueryWindow); a reference
// table is compared as it is: its rows and the table's are the same queries. Any other table under
// --expect FAMILY, which declares no positions, whose comparison names position-offset alone (a later
// chunk of a sequence) is compared again at the window found, said and not judged (a faithful slice).
std::variant<TableMatch, int> checkRows(const TableRows &table, const Run &run,
                                        const CheckExpect::Expectation &expected, QTextStream &err, const AsIs &asIs);

// A stack of maps its family read at a window of its keys (T5's position_bias, the last or the first
// queries: PositionWindow::queries), against a declared window (--positions, or a config's model,
// whose step keeps the last queries): another window is position-offset, both said.
void judgeQueries(TableMatch &m, const Run &run, const CheckExpect::Expectation &expected, std::int64_t keys);

} // namespace posenc::CheckQueryWindows
