#pragma once

#include "check/CellTolerance.h"
#include "check/TableRows.h"
#include "core/Block.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

// `posenc check TABLE --position-ids IDS.npy` (docs/ARCHITECTURE.md, Positions in practice): a
// table whose row r was computed at position ids[r], as a model's forward pass dumps it for a
// padded or packed batch or a later chunk. The check reads it as the table of positions
// min(ids)..max(ids), each row the
// file's first row of that id, and then compares every other row of that id with it: a faithful
// table holds one row per position, wherever the position comes.
namespace posenc::RowsAtPositions {

// Which row of the file holds each position first..max(ids), its first; and the ids, one per row.
// `first` is the smallest id: 0 for a whole sequence, the chunk's start for a later chunk of one
// (a cached decoding step, a chunked prefill: HF's position_ids 1000..1255), whose table read by
// position holds positions first.. (CheckDeclaration::firstPosition).
struct Layout
{
    std::vector<std::int64_t> firstRow; // [position - first] -> the file's row
    std::vector<std::int64_t> ids; // [file row] -> position
    std::int64_t first = 0;
};

// The layout of `ids` (one per row of a table of `tableRows` rows), or why there is none: a count
// that is not the table's, an id that is no whole number in [0, 2^24) (Params::kMaxLen: the
// positions whose float32 angles are exact), or a position between the smallest and the largest id
// that no row holds.
std::variant<Layout, QString> layout(const RowMatrixXf &ids, std::int64_t tableRows);

// The table's rows in position order: row i is the file's row firstRow[i], at position first + i.
std::shared_ptr<const TableRows> byPosition(std::shared_ptr<const TableRows> file, const Layout &layout);

// A row of the file that is not the row of its position in the table read by position.
struct Disagreement
{
    std::int64_t row = 0; // the file's row
    std::int64_t firstRow = 0; // the row holding its position
    std::int64_t position = 0;
    std::int64_t column = 0; // the column of the largest difference
    double difference = 0.0;
    std::int64_t rows = 0; // how many rows disagree in all
    // The position whose row the file's row does equal, when one does.
    std::optional<std::int64_t> holds;
};

// Every row compared with its position's row, cells within `tolerance` of it (its limit at the
// first row's value); the first disagreeing row, or nothing. Read a chunk at a time; `cancel`
// stops it (nothing then). An error reading the file is said in `error`.
std::optional<Disagreement> compare(const TableRows &file, const Layout &layout, const CellTolerance &tolerance,
                                    const std::atomic<bool> *cancel, QString &error);

} // namespace posenc::RowsAtPositions
