#pragma once

#include "check/CellTolerance.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <functional>
#include <variant>

// A table whose values are a half format's (bfloat16, float16) rounded another way than to nearest
// (docs/ARCHITECTURE.md, Checking a table): each float32 value's low bits cut (toward zero), or
// rounded down or up. Such a cell lies a whole unit of the format from the value it was rounded
// from, always on one side, where a rounding to nearest leaves half a unit either side: posenc's
// own sinusoid, its low 16 bits cut, read as the sinusoid times c = 0.997. A scale (or any reading
// that names more) is claimed only where it explains the table better than a rounding of the
// reference at the table's precision: the table is read again as each directed rounding would leave
// it, its values moved half a unit back toward where they were rounded from (within half a unit of
// them then, as a rounding to nearest), and a better reading so is the table's, its reference moved
// the other way by half a unit for the stream.
namespace posenc::TableRounding {

// Of `identified`, the reading of `table` as it is: where a directed rounding of the table's half
// format reads better (`again` of the table moved back), that reading, its precision's rounding
// said. Nothing changes for a correct reading, a float32 table, or text and integer tables.
using Identify = std::function<std::variant<TableMatch, QString>(const TableRows &)>;
void readDirected(std::variant<TableMatch, QString> &identified, const TableRows &table, const Identify &again);

// The table's values in `format` moved back by half a unit the way `rounding` took them: what the
// check reads as the table before that rounding, within half a unit.
float movedBack(float value, ValueFormat format, Rounding rounding);
// A reference's value moved by half a unit the way `rounding` takes a value: what a table rounded
// so is within half a unit of.
double movedOn(double value, ValueFormat format, Rounding rounding);

} // namespace posenc::TableRounding
