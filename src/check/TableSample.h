#pragma once

#include "check/TableRows.h"
#include "core/Block.h"

#include <QString>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace posenc {

// The rows of a table a check identifies it from (docs/ARCHITECTURE.md, Checking a table): the
// first rows, which give each column's frequency, and short runs of consecutive rows spread over
// the whole table (doubling distances, even steps, the last rows), which pin the slow
// frequencies and show merged positions. A few hundred rows at most, whatever the table's
// length, so that identifying costs the same at any L.
// The margin over a cell's own rounding (TableRows::addCellRounding) that both the sample's score
// and the stream of every row allow, so that the two compare alike.
constexpr double kCellRoundingMargin = 1.01;

struct TableSample
{
    static constexpr std::int64_t kMaxLeadingRows = 64;
    static constexpr std::int64_t kRunRows = 4;
    static constexpr std::int64_t kMaxRows = 320;

    std::vector<std::int64_t> rows; // increasing
    RowMatrixXf values; // rows.size() x cols
    // Per cell, what the table allows it beyond its format's and its text's rounding
    // (TableRows::addCellRounding: a cell written with fewer digits, an angle read back from a
    // rotation): values' shape, or empty where the table allows no cell more.
    RowMatrixXf cellRounding;
    std::int64_t tableRows = 0;
    std::int64_t leadingRows = 0; // rows 0 .. leadingRows - 1 are the sample's first rows
    // The first infinite cell, table row and column, if one is (a mask's -inf): -1 when none.
    std::int64_t infiniteRow = -1;
    std::int64_t infiniteColumn = -1;
    // Whether every cell after the query (column > row) holds a mask's fill (-inf, or float32's
    // lowest: check/MaskFill.h) and no other cell is infinite: a causal mask, whose infinities the
    // check sets aside rather than refuse the table.
    bool causalMask = true;
    // The position of a relative map's query row 0: its row r is the query at r + queryStart
    // (OffsetProfile's queryStart, or the window a declaration gives).
    std::int64_t queryStart = 0;

    std::int64_t cols() const { return values.cols(); }
    std::int64_t size() const { return static_cast<std::int64_t>(rows.size()); }
    // The sample's index of table row `row`, or -1.
    std::int64_t indexOf(std::int64_t row) const;
    // What cell (index, col) is allowed beyond the table's tolerance: 0 for most.
    double extraAt(std::int64_t index, std::int64_t col) const
    {
        return cellRounding.size() == 0 ? 0.0 : double(cellRounding(index, col));
    }
    // The sample of `columns` alone, in their order (their cells' rounding with them).
    TableSample withColumns(const std::vector<std::int64_t> &columns) const;
};

// Which rows of a table hold positions: from `firstRow` on, but the padding rows (rows of zeros,
// fairseq's padding_idx) among them.
struct RowFraming
{
    std::int64_t firstRow = 0;
    std::vector<std::int64_t> paddingRows; // sorted, each >= firstRow

    // Whether row `row` holds a position: from firstRow on, but the padding rows.
    bool compared(std::int64_t row) const
    {
        return row >= firstRow && !std::binary_search(paddingRows.begin(), paddingRows.end(), row);
    }
};

// The table rows a sample of a table of `rows` x `cols` reads: at most `maxCells` cells (but
// never fewer than 16 rows, or the table's).
std::vector<std::int64_t> sampleRows(std::int64_t rows, std::int64_t cols, std::int64_t maxCells);

// Reads those rows. Nothing, with `error` set, when a row cannot be read or a cell is NaN (a
// table of positions holds numbers: NaN names its row and column). Infinities are kept, the
// first one noted: a mask holds them.
// `queryStart` is the position of a relative map's query row 0, unset for the cache's reading (the
// last queries of the keys, OffsetProfile's queryStart).
std::optional<TableSample> readSample(const TableRows &table, std::int64_t maxCells, QString &error,
                                      std::optional<std::int64_t> queryStart = std::nullopt);

} // namespace posenc
