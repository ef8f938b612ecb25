#pragma once

#include "check/PairReference.h"
#include "check/TableRows.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

// The words of a check's findings that no family owns: an unknown table, a table of zeros or of
// one row repeated, and the phrases several families' diagnoses share (an offset of the
// positions, positions rounded to half precision, a set of rows or columns). Core's words: they
// name no flag of the command line. A family's own words are in its folder.
namespace posenc {
struct AngleEvidence;
}

namespace posenc::CheckDiagnosis {

QString allZero();
QString tooFewRows(std::int64_t rows);
// Every position holds the same row, of no table a family recognised.
QString sameRow();
// No family claimed the table: the tables the check knows, and each family's reason.
QString unknown(const QStringList &tables, const QStringList &reasons);
// Why an unknown table shows no |table - reference|.
QString noReference();
// The reference the user declared: "the declared reference (sinusoidal, ...)".
QString declaredReference(const QString &referenceText);
// A family's formula at parameters no published form of it uses.
QString noPublishedForm();
// Two readings explain the table equally well, with different verdicts.
QString ambiguous(const QString &tableA, const QString &tableB);
// The reading not taken where the other equals a published form: what the table is if that
// other family was meant (`reading`: its table, verdict and diagnosis), and how to declare it.
QString otherReading(const QString &reading);
// A table of `rows` x `cols` that is its transpose's table of `table`, whose diagnosis is `inner`.
QString transposed(std::int64_t rows, std::int64_t cols, const QString &table, const QString &inner);
QString transposedCells(std::int64_t rows, std::int64_t cols);
QString transposedUnreferenced();
// A table whose infinity (or, stored wider than float32, a number past its range) no family's
// table holds there.
QString infinityRefused(std::int64_t row, std::int64_t column, StoredType stored);
// A causal mask no family's table holds beside its cells (TableSample::causalMask): set aside.
QString causalMaskSetAside();

// "3, 7, 12": rows by number.
QString rowList(const std::vector<std::int64_t> &rows);
// "positions from 0", "row r holding position r + 2".
QString positionsFrom(std::int64_t offset);
// "positions start at 1: row r holds position r + 1; `convention` number positions from 0, ...".
QString offsetLine(std::int64_t offset, const QString &convention);
// The same against a declared window: the rows' positions start at `found`, the declaration's at
// `declared` (--positions), both said.
QString offsetLine(std::int64_t found, std::int64_t declared);
// Positions rounded to float16 or bfloat16 before their angles were formed, and the correct way.
QString halfPrecisionLine(PositionRounding rounding);

// The note of a table whose angles were formed in float32.
QString float32AnglesNote();
// The note of a table whose fit was float32 angles where its cells hold the exact angles'
// values (`share` of the cells float32 angles would move).
QString exactNotFloat32Note(double share);
// The evidence of float32 angles: "the error grows with the position: max |error| ... in rows ...".
QString angleEvidence(const AngleEvidence &evidence);
// The note of a table fitted as float32 angles whose error does not grow as theirs does.
QString flatNotFloat32Note(const AngleEvidence &evidence);

// "columns 1, 3, 5, ..., 1023 (every 2nd from 1; 512 of 1024)": a set of indices in few words.
QString indexSet(const std::vector<std::int64_t> &indices, std::int64_t of, const QString &noun);

} // namespace posenc::CheckDiagnosis
