#pragma once

#include "check/GridResize.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <QString>

#include <memory>
#include <optional>
#include <variant>

// A table checked against another table cell by cell (docs/ARCHITECTURE.md, Checking a table):
// a port against a dump of the reference implementation. The reference's rows are read a tile at
// a time as the stream reaches them, never held whole.
namespace posenc::TableCheck {

// The mistake of a table that is the reference with its columns in another order.
inline const QString kColumnsSwapped = QStringLiteral("columns-swapped");

// Why a table was not compared with its reference: their shapes (a mistake of the command line),
// or a cell of the table or of the reference that holds no number (a fault of that file, named
// in the message).
struct TableRefusal
{
    enum class Whose { Shapes, Table, Reference };
    Whose whose;
    QString message;
};

// The match of `table` against `reference`, row r with row r, column c with column c: correct
// when every cell is within the rounding of the coarser of the two tables' formats, a mistake
// with the deviating rows, columns and cells otherwise (TableCheck::verify and conclude). A
// refusal when the shapes differ or either table cannot be read; a reference's row that holds NaN
// is found as the rows are streamed, and referenceReadError names it.
// `merge`: the model's spatial_merge_size where declared (--spatial-merge-size), how a learned grid's
// resize lists its patches (GridResize).
// `vector`: both are vectors of a formula's parameters (inv_freq, ALiBi slopes), from which the
// outputs are formed: within the rounding of the formats the files store, never of a format every
// value happens to be (an inv_freq rounded to bfloat16 is the mistake, sglang-jax#1472), and read
// by no table's structure (rows moved, columns exchanged: a vector has no positions); its family
// names a deviation (TensorShapes::nameByReferenceVector).
// `resize`: the method a learned grid is resized by where declared (--resize-method, GridResize).
std::variant<TableMatch, TableRefusal> expectTable(const TableRows &table, std::shared_ptr<const TableRows> reference,
                                                   std::optional<std::int64_t> merge = std::nullopt,
                                                   bool vector = false,
                                                   std::optional<GridResize::DeclaredResize> resize = std::nullopt);

// A row of the reference that could not be read while the rows were streamed, in words; nothing
// when every row was read (or the match is not against a table).
std::optional<QString> referenceReadError(const TableMatch &match);

} // namespace posenc::TableCheck
