#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <optional>

// A table against --expect-table's reference that is the reference times one constant in every cell
// (docs/ARCHITECTURE.md, Checking a table, "A declared reference"): a factor one side applies and the
// other does not (RoPE's attention factor applied twice or left out, a sinusoid's scale). A uniform
// ratio between two tables needs no reading of the reference (which may be a form no family reads).
namespace posenc::TableCheck {

// Where `match` (the table against `reference`) is a mistake with none named: every cell of `table`
// within the two formats' rounding of c times the reference's same cell, c > 0 and not 1, read as
// the median ratio of the cells where the reference is at least a quarter of its largest |value|.
// Then `scaled` is named with c (and 1 / c) where the reference is an amplitude table, and
// `positions-scaled` (RoPE's linear scaling with factor 1 / c, or the rates times c) where it is
// linear in a position (linearity); else `match` is left as it is. Every row of both is read, a
// chunk at a time.
// `vector`: the reference is an --expect-table vector (inv_freq, slopes), a row of rates.
void nameUniformRatio(TableMatch &match, const TableRows &table, const TableRows &reference, bool vector);
// A mistake named scaled beside another name: nameUniformRatio keeps the other name alone, which
// says what made the ratio.
bool scaledBesideAnother(const TableMatch &match);

// How a table depends on the positions: linear in the row's position (each column the position times
// a rate: RoPE's angles p inv_freq), linear in the distance i - j (a slope times it: ALiBi's bias),
// one row of rates per unit of position (an inv_freq or slopes vector, `vector`), or none of these
// (an amplitude table: cos, sin, a sinusoid; one row of a table, a decode step's cos, among them). A uniform ratio of the first three is a scale of the
// positions or of the rates (positions-scaled), of the last an amplitude (scaled).
enum class Linearity { None, InPosition, InDistance, Rates };
Linearity linearity(const TableRows &reference, bool vector);

// The constant c of the rule above where `table` is c times `reference` in every cell, c beyond a
// few units of 1; nullopt otherwise (shapes differ, a row unreadable, any cell off).
std::optional<double> uniformRatio(const TableRows &table, const TableRows &reference);

} // namespace posenc::TableCheck
