#pragma once

#include "check/CellTolerance.h"
#include "check/TableRows.h"
#include "check/TableSample.h"

#include <cstdint>
#include <memory>
#include <optional>

// A table that is its declared reference with every row moved by a few rows (docs/ARCHITECTURE.md,
// Checking a table, "A declared reference"; issue 56): row r holds the reference's row r - by. A
// learned table indexed from 1 where 0 is meant, a class token's row counted twice or not at all, a
// cache's offset added once too often give it (labml's absolute position embedding read at
// positions shifted by the prompt's offset). No faithful computation of the reference moves its rows:
// a mistake, position-offset, its rows past either end (rows that hold no row of the reference) said.
namespace posenc::TableRowShift {

struct Shift
{
    std::int64_t by = 0; // row r holds the reference's row r - by
    // Row r: the reference's row r - by, clamped to its rows (the rows past its ends are not compared).
    std::shared_ptr<const TableRows> shifted;
    // The rows that hold a row of the reference: [first, end); every row where the rows past one end
    // hold the reference's rows from the other (np.roll, torch.roll), `rolled`.
    std::int64_t first = 0, end = 0;
    bool rolled = false;
    // Where the reference is rows of a longer table (a RowRange: --position-table's rows from
    // --position-offset): that table, searched whole, and the reference's first row in it. Row r
    // then holds its row declaredFrom + r - by.
    std::shared_ptr<const TableRows> whole;
    std::int64_t declaredFrom = 0;
};

// The shift, any number of rows either way that leaves more than half the table's rows on rows of
// the reference (of its whole table where it is a RowRange), that makes every sampled row of `table`
// (`mine`) whose row r - by lies in it equal to it within `tolerance`, at least eight rows compared;
// the smallest such shift, or nothing. The shifts tried are those that put one of a few sampled
// rows on an equal row of the reference, found by reading the reference once (2^28 cells at most,
// the rows nearest the declared ones first): a cache's offset of any size is found.
std::optional<Shift> read(const TableRows &table, const std::shared_ptr<const TableRows> &reference,
                          const TableSample &mine, const CellTolerance &tolerance);

} // namespace posenc::TableRowShift
