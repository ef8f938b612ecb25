#pragma once

#include "core/Block.h"
#include "io/ByteSource.h"
#include "io/ReadError.h"

#include <cstdint>

namespace posenc {

// A table of numbers in a text file without a header, as numpy's savetxt and pandas' to_csv
// (index=False, header=False) write it: one row a line, the cells separated by commas, or by
// spaces and tabs where the first row has no comma; lines that start with '#' and blank lines
// are skipped, as numpy's loadtxt skips them (posenc table's own header is such a line).
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
    RowMatrixXf values;
    // Half a unit in the last digit written, the largest over the cells of three significant
    // digits or more (shorter ones, "0", "1.0", are exact values): 0.5e-6 for "%.6f".
    double textRounding = 0.0;
};

// Whether "inf" and "-inf" (as numpy's savetxt and posenc table write a mask) are read as
// infinities or refused as not finite.
enum class Infinities { Refused, Kept };

ReadResult<Table> read(ByteSource &source, std::int64_t maxCells, Infinities infinities = Infinities::Refused);

} // namespace CsvReader

} // namespace posenc
