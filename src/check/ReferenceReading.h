#pragma once

#include "check/TableCheck.h"
#include "check/TableMatch.h"
#include "check/TableRows.h"

// A table compared with a reference table (--expect-table, the check window's reference file)
// that deviates with no mistake named: the reference read undeclared, and the table then checked
// against the family and parameters the reference is (docs/ARCHITECTURE.md, Checking a table).
namespace posenc::TableCheck {

// Whether the reference's reading may name `match`'s mistake (nameByReferenceReading): a mistake
// with no name, the reference's rows moved, or its columns in another order (a family's layout or
// its flip_sin_to_cos is such an order; the family's name, as a declaration of it gives, says why).
bool namedByReferenceReading(const TableMatch &match);

// When `match` is an unnamed mistake against `reference`: the reference read without a
// declaration, every row streamed; where every row is a family's at known parameters (`correct`,
// a published form, or a `variant`), the table is checked as declared that family at those
// parameters (streamDeclared, with its undeclared reading), and a mistake named there is named
// here, its sentence said against that reading, the verdict and the deviating cells staying those
// of the comparison with the reference table. Where the table is that reading too, at its own
// precision (float32 angles against the reference's exact ones), it is `correct` against the
// reading, the file's difference said in a note: no faithful computation is a mistake. A note says
// what the reference reads as when that names nothing. Columns moved (columns-swapped) are named by
// the family's mistake where the reading names one (rope-layout, flip-sin-to-cos: the names a
// declaration of that family gives), the columns said in a note; else they stand as they are. False
// when cancelled.
bool nameByReferenceReading(TableMatch &match, const TableRows &table, const TableRows &reference,
                            const StreamOptions &options);

// How a mistake named by the reference's own reading begins its sentence (nameByReferenceReading).
inline const QString kReferenceReads = QStringLiteral("the reference table reads, without a declaration, as");

// The reference read as posenc check reads a table without a declaration: identified from its
// sample, every row streamed; nothing where it could not be read (or was cancelled).
std::optional<TableMatch> readReference(const TableRows &reference, const StreamOptions &options);

// A table that deviates from a reference table by no more than float32 arithmetic in another order
// can (a sum of many terms: a bicubic resize's sixteen, a matrix product), at most kSummationUnits
// units of float32 at the reference's largest |value|, with no mistake named: unknown, not a
// mistake, the deviation said (issue 56: a verdict is a promise both ways).
inline constexpr double kSummationUnits = 128.0;
void unknownWithinSummation(TableMatch &match);

} // namespace posenc::TableCheck
