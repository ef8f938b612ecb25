#pragma once

#include "check/TableHypothesis.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <variant>

// A window of positions (docs/ARCHITECTURE.md, Checking a table, "A window of positions"): a table
// whose rows are a family's table at positions a..b (posenc table --positions 100:164, a slice of a
// cache) is a faithful computation. Where nothing declares the rows' positions, such a window is
// read as a parameter of the table, said and not judged (issue 56); against a declared window
// (--positions, --position-ids) rows at another are position-offset, both windows said.
namespace posenc::PositionWindows {

// Identifies a table under a declaration (TableCheck's identify at one window).
using Identify = std::function<std::variant<TableMatch, QString>(const CheckDeclaration &)>;

// Of `found`, a table of `rows` rows read with position-offset where nothing declared its
// positions: the table read again with its rows at the window its fit found (row r at position r +
// found.positionOffset, a parameter passed down as CheckDeclaration::firstPosition), where that
// reading names no offset; its window said. Nothing where positions were declared, no offset was
// named, or the reading at the window is no better.
std::optional<TableMatch> readAtFound(const TableMatch &found, std::int64_t rows, const CheckDeclaration &declared,
                                      const Identify &identify);
// The same on an identification of `table`, replaced where the window's reading is taken; nothing
// is read once the check was cancelled (ScoringCancel).
void readAt(std::variant<TableMatch, QString> &identified, const TableRows &table,
            const CheckDeclaration &declared, const Identify &identify);

// The window of a table's rows from `firstRow` (rows before it padding or zeros) when row r holds
// position r + offset.
PositionWindow rowsWindow(std::int64_t offset, std::int64_t firstRow, std::int64_t rows, bool declared);

// The window said on `match`: its positions, and where nothing declared them, a note that they are a
// slice of the family's table, said and not judged, with the way to have them judged.
void say(TableMatch &match, const PositionWindow &window);

// Whether a table may be a relative map whose queries are a window of its keys: fewer rows than
// columns, and its sample a function of the key's offset j - i (OffsetProfile::isToeplitz), which
// no window changes. The windows a check tries (its first and last queries) are tried on such a
// table only.
bool mayBeQueryWindow(const TableRows &table);

// The report's line of a window, after "positions: ": "100..163 (...)", "of the queries 100..163 (...)".
QString line(const PositionWindow &window);

} // namespace posenc::PositionWindows
