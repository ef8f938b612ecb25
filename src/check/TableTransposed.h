#pragma once

#include "check/CellTolerance.h"
#include "check/TableRows.h"
#include "check/TableSample.h"

#include <cstdint>
#include <memory>
#include <optional>

// A square table of scores' biases that is its reference transposed (docs/ARCHITECTURE.md, Checking
// a table, "A declared reference"; issue 56): cell (i, j) holds the reference's (j, i), the query
// and the key exchanged. Of a reference that is a function of the offset j − i alone (T5's
// position_bias, compute_bias's relative_position = memory_position − context_position in
// transformers' models/t5/modeling_t5.py; an ALiBi or a KERPLE bias) that is the offset mirrored,
// buckets of i − j where j − i is meant: the mistake relative-position-reversed. No faithful
// computation of the reference exchanges its query and key.
namespace posenc::TableTransposed {

struct Transposed
{
    // The reference transposed: row r its column r. Every row is streamed against it.
    std::shared_ptr<const TableRows> rows;
    // Whether the reference's sampled cells depend on the offset j − i alone.
    bool ofOffset = false;
};

// The largest reference transposed (its cells held in memory).
inline constexpr std::int64_t kMostCells = std::int64_t(1) << 24;

// Where `table` (sampled as `mine`) and `reference` are square, of the same size, and every sampled
// cell of the table is the reference's transposed cell within `tolerance`, some of them not the
// reference's own: the reference transposed; nothing otherwise.
std::optional<Transposed> read(const TableRows &table, const std::shared_ptr<const TableRows> &reference,
                               const TableSample &mine, const CellTolerance &tolerance);

} // namespace posenc::TableTransposed
