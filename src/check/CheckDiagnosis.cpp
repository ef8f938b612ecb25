#include "CheckDiagnosis.h"

#include "check/TableMatch.h"
#include "core/NumberText.h"

#include <cstdlib>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc::CheckDiagnosis {

namespace {

QString roundingWords(PositionRounding rounding)
{
    // The format's own rule, true of any table: the rows the rounding moved are the report's
    // deviating rows (a 1000-row table has no position 8188 to round).
    return rounding == PositionRounding::BFloat16
        ? u"bfloat16 (which holds every whole number up to 256, then every 2nd up to 512, every 4th up to 1024, "
          "and so on: 257 becomes 256, 259 becomes 260)"_s
        : u"float16 (which holds every whole number up to 2048, then every 2nd up to 4096, every 4th up to 8192: "
          "2049 becomes 2048, 2051 becomes 2052)"_s;
}

} // namespace

QString allZero()
{
    return u"every cell is 0: no table of positions can be told from it (a table of position 0's sines, or of "
           "offset 0's biases or buckets, is 0 too)"_s;
}

QString tooFewRows(std::int64_t rows)
{
    return u"%1 row%2 with values: too few to tell a table of positions (3 at least)"_s.arg(rows).arg(
        rows == 1 ? QString() : u"s"_s);
}

QString sameRow()
{
    return u"every position holds the same row: the table was broadcast over the wrong axis "
           "(numpy-transformer#1); a table of positions differs from row to row"_s;
}

QString unknown(const QStringList &tables, const QStringList &reasons)
{
    const QString known = u"none of the tables this check knows (%1)"_s.arg(tables.join(u", "_s));
    return reasons.isEmpty() ? known : known + u": "_s + reasons.join(u"; "_s);
}

QString noReference()
{
    return u"The table matched no reference: no |table − reference| to show."_s;
}

QString declaredReference(const QString &referenceText)
{
    return u"the declared reference (%1)"_s.arg(referenceText);
}

QString noPublishedForm()
{
    return u"no published form of the family has these parameters: a variant of the formula, not a table that "
           "ships; declare the reference meant to make it correct"_s;
}

QString ambiguous(const QString &tableA, const QString &tableB)
{
    return u"two readings explain the table equally, and the check cannot tell which was meant: a %1 table or a %2 "
           "table (below); declare the family the table is meant to be"_s.arg(tableA, tableB);
}

QString otherReading(const QString &reading)
{
    return u"the same values are another family's table with a mistake, should that family be meant: %1; declare "
           "the family meant (--expect, or one of its parameters) to check it as that"_s.arg(reading);
}

QString transposed(std::int64_t rows, std::int64_t cols, const QString &table, const QString &inner)
{
    return u"the table is transposed: its %1 rows are the dimensions and its %2 columns the positions; a table of "
           "positions is L x d, a row per position. Transposed, it is a %3 table: %4"_s.arg(rows)
               .arg(cols)
               .arg(table, inner);
}

QString transposedCells(std::int64_t rows, std::int64_t cols)
{
    return u"every cell: rows and columns exchanged (%1 x %2 given, %2 x %1 meant)"_s.arg(rows).arg(cols);
}

QString transposedUnreferenced()
{
    return u"The table is transposed: its transpose is the table to compare; no |table − reference| to show."_s;
}

QString infinityRefused(std::int64_t row, std::int64_t column, StoredType stored)
{
    return u"row %1, column %2 holds %3, which none of the tables this check knows holds there"_s.arg(row)
        .arg(column)
        .arg(nonFiniteWords(std::numeric_limits<float>::infinity(), stored));
}

QString causalMaskSetAside()
{
    return u"every key after the query holds a mask's fill (−inf, or the dtype's lowest): a causal mask, set aside; "
           "the cells at and before the query are what no table this check knows holds"_s;
}

QString rowList(const std::vector<std::int64_t> &rows)
{
    QStringList words;
    for (const std::int64_t r : rows)
        words.append(QString::number(r));
    return words.join(u", "_s);
}

QString positionsFrom(std::int64_t offset)
{
    return offset == 0 ? u"positions from 0"_s
                       : u"row r holding position r %1 %2"_s.arg(offset < 0 ? u"-"_s : u"+"_s).arg(std::abs(offset));
}

QString offsetLine(std::int64_t offset, const QString &convention)
{
    const QString start = offset == 1 ? u"positions start at 1"_s : u"positions start at %1"_s.arg(offset);
    return u"%1: row r holds position r %2 %3; %4 number positions from 0, row r holding position r"_s.arg(start)
        .arg(offset < 0 ? u"-"_s : u"+"_s)
        .arg(std::abs(offset))
        .arg(convention);
}

QString offsetLine(std::int64_t found, std::int64_t declared)
{
    return u"positions start at %1 where the declared positions start at %2: row r holds position r %3 %4, the "
           "declaration's row r position r %5 %6"_s.arg(found)
        .arg(declared)
        .arg(found < 0 ? u"-"_s : u"+"_s)
        .arg(std::abs(found))
        .arg(declared < 0 ? u"-"_s : u"+"_s)
        .arg(std::abs(declared));
}

QString halfPrecisionLine(PositionRounding rounding)
{
    return u"positions were rounded to %1 before the angle was formed; the correct table takes each position "
           "exactly (position ids in float32, as transformers PR #29285 keeps them)"_s.arg(roundingWords(rounding));
}

QString float32AnglesNote()
{
    return u"the angles were formed in float32 (float(p) * float(w_i), as float32 PyTorch code forms them): their "
           "error grows with p w_i, up to (|ln w_i| + 3) 2^-23 p w_i"_s;
}

QString exactNotFloat32Note(double share)
{
    return u"not float32 angles: %1% of the cells that float32 angles would move hold the exact angles' values, "
           "so the rows are compared with the exact angles"_s.arg(NumberText::compact(100.0 * share, 3));
}

namespace {

QString rowRange(std::int64_t from, std::int64_t end)
{
    return end - from == 1 ? u"row %1"_s.arg(from) : u"rows %1..%2"_s.arg(from).arg(end - 1);
}

// "max |error| 3.1e-07 in rows 0..15 and 2.4e-05 in rows 240..255, where float32 angles predict up
// to 4e-07 and 5e-05".
QString evidenceNumbers(const AngleEvidence &e)
{
    return u"max |error| %1 in %2 and %3 in %4, where float32 angles predict up to %5 and %6"_s.arg(
        NumberText::compact(e.firstError, 3), rowRange(e.firstRow, e.firstEnd), NumberText::compact(e.lastError, 3),
        rowRange(e.lastRow, e.lastEnd), NumberText::compact(e.firstPredicted, 3),
        NumberText::compact(e.lastPredicted, 3));
}

} // namespace

QString angleEvidence(const AngleEvidence &evidence)
{
    if (evidence.supports())
        return u"the error grows with the position as float32 angles make it: "_s + evidenceNumbers(evidence);
    // Cells of float16 or bfloat16 (TableStream's verify): their rounding is no evidence either way.
    return u"allowed, not shown: the cells' own rounding (the exact angles allow %1 in the last rows) hides the growth "
           "float32 angles give; "_s.arg(NumberText::compact(evidence.lastExact, 3))
        + evidenceNumbers(evidence);
}

QString flatNotFloat32Note(const AngleEvidence &evidence)
{
    return u"not float32 angles: the error does not grow with the position as theirs does (%1; the exact angles "
           "allow %2 in the last rows), so the rows are compared with the exact angles"_s.arg(
               evidenceNumbers(evidence), NumberText::compact(evidence.lastExact, 3));
}

QString indexSet(const std::vector<std::int64_t> &indices, std::int64_t of, const QString &noun)
{
    if (indices.empty())
        return QString();
    const auto count = std::int64_t(indices.size());
    if (count == of)
        return u"every %1 (%2)"_s.arg(noun).arg(of);
    // Runs of consecutive indices, "3..7".
    QStringList runs;
    for (std::size_t i = 0; i < indices.size();) {
        std::size_t j = i + 1;
        while (j < indices.size() && indices[j] == indices[j - 1] + 1)
            ++j;
        runs.append(j - i == 1 ? QString::number(indices[i]) : u"%1..%2"_s.arg(indices[i]).arg(indices[j - 1]));
        i = j;
    }
    const QString tally = u"%1 of %2"_s.arg(count).arg(of);
    if (runs.size() <= 6)
        return u"%1s %2 (%3)"_s.arg(noun, runs.join(u", "_s), tally);
    // An even step, "every 2nd from 1".
    const std::int64_t step = indices[1] - indices[0];
    bool even = step > 1;
    for (std::size_t i = 2; i < indices.size() && even; ++i)
        even = indices[i] - indices[i - 1] == step;
    if (even) {
        const QString nth = step == 2 ? u"second"_s : step == 3 ? u"third"_s : u"%1th"_s.arg(step);
        return u"every %1 %2 from %3 to %4 (%5)"_s.arg(nth, noun).arg(indices.front()).arg(indices.back()).arg(tally);
    }
    return u"%1s %2, ... %3 (%4)"_s.arg(noun, runs.mid(0, 4).join(u", "_s), runs.back(), tally);
}

} // namespace posenc::CheckDiagnosis
