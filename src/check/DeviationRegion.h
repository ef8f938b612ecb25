#pragma once

#include "check/TableMatch.h"

#include <QString>

#include <cstdint>
#include <vector>

// Where the cells that deviate from a reference lie, in rows and columns (docs/ARCHITECTURE.md,
// Checking a table, "A declared reference"): what a deviation no parameter explains is shown as.
// Family-free: the stream of every row gathers it, the declared check words it.
namespace posenc {

// The deviating rows as the stream meets them, in increasing order: runs of rows at one step
// ("rows 64..127", "every second row from 1 to 999"), at most kMostRuns of them; past that the
// rows are scattered and only the first runs are kept. Its memory is the same at any L.
struct RowRuns
{
    struct Run
    {
        std::int64_t first = 0;
        std::int64_t step = 0; // 0 for a run of one row
        std::int64_t count = 0;
        std::int64_t last() const { return first + step * (count - 1); }
        friend bool operator==(const Run &, const Run &) = default;
    };
    static constexpr std::size_t kMostRuns = 8;

    std::vector<Run> runs;
    bool scattered = false;

    // Row `row`, greater than every row added before.
    void add(std::int64_t row);
};

namespace DeviationRegion {

// The facts the stream gives of the deviating cells: their rows (runs and how many), the cells
// beyond the tolerance per column, and the rows compared.
struct Facts
{
    const RowRuns &rows;
    std::int64_t deviatingRows = 0;
    std::int64_t comparedRows = 0;
    const std::vector<std::int64_t> &columnDeviations;
    std::int64_t deviatingCells = 0;
    std::int64_t tableRows = 0; // the table's rows, compared or not
};

// The rows in words: "rows 64..127 (64 of 128)", "every odd row (1, 3, ..., 999: 500 of 1000)",
// "row 12", "rows 3, 40..47 and every second row from 100 to 200 (57 of 1000)".
QString rowWords(const RowRuns &rows, std::int64_t deviatingRows, std::int64_t comparedRows, std::int64_t tableRows);
// The columns in words: "every column (32)", "columns 32..63 (32 of 64)".
QString columnWords(const std::vector<std::int64_t> &columnDeviations);
// Where the cells lie: "one cell, row 5, column 7"; "in rows 64..127 (64 of 128) and every column
// (32), every cell of them"; "in every odd row (...) and columns 0..9 (10 of 64), 3 of their 5000
// cells".
QString where(const Facts &facts);

// A declared reference's deviation that no mistake explains: its diagnosis says so, "no parameter
// of RoPE explains it" (`family`, the declared family's heading; empty for a reference table), and
// where its cells lie.
void sayUnexplained(TableMatch &match, const QString &family, const Facts &facts);

} // namespace DeviationRegion
} // namespace posenc
