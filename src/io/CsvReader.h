#pragma once

#include "core/Block.h"
#include "io/ByteSource.h"
#include "io/ReadError.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace posenc {

// A table of numbers in a text file, as numpy's savetxt and pandas' to_csv (index=False) write it:
// one row a line, the cells separated by commas, or by spaces and tabs where the first row has no
// comma; lines that start with '#' and blank lines are skipped, as numpy's loadtxt skips them. A
// line of column names before the first row is a header, skipped, its names counted against the
// rows' columns: posenc table's ("pe_0,pe_1,..."; "# pe_0,pe_1,..." before it wrote pandas'), and
// pandas' of named columns.
//
// Hostile input is refused with its line and column: a cell that is not a decimal number
// (quotes, words, hex), NaN or (unless kept) an infinity, a number past float32's range, a cell longer than
// kMaxCellBytes, an empty cell, a row with more or fewer cells than the first, more columns
// than kMaxColumns. Memory stays within the cells (refused beyond `maxCells`, before anything
// is allocated for them: the file is read twice, first to count) and a fixed buffer; a read
// stops within one chunk when the source is cancelled.
namespace CsvReader {

constexpr int kMaxCellBytes = 64;
constexpr std::int64_t kMaxColumns = std::int64_t(1) << 20;

struct Table
{
    // A cell's rounding is 0.5 * 10^e for its exponent e; kExact for a short number ("0", "1.0",
    // "2e-3": "%g" and repr write exact values so), whose text shows no rounding.
    static constexpr int kExact = -128;
    static double rounding(int exponent) { return 0.5 * std::pow(10.0, double(exponent)); }

    RowMatrixXf values;
    // Half a unit in the last digit written, the one most cells of three significant digits or
    // more show: 0.5e-6 for "%.6f".
    double textRounding = 0.0;
    // Each cell's exponent where some cell shows a coarser rounding than textRounding ("1.00"
    // among "%.6f" cells), row-major: kExact for a cell that shows none coarser; empty otherwise.
    // So one cell written short widens its own tolerance only.
    std::vector<std::int8_t> cellRounding;
};

// Whether "inf" and "-inf" (as numpy's savetxt and posenc table write a mask) are read as
// infinities or refused as not finite.
enum class Infinities { Refused, Kept };

ReadResult<Table> read(ByteSource &source, std::int64_t maxCells, Infinities infinities = Infinities::Refused);

} // namespace CsvReader

} // namespace posenc
