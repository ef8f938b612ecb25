#pragma once

#include "core/Block.h"

#include <cstdint>
#include <functional>
#include <limits>

namespace posenc {

class PairReference;

// The correct table a checked table is compared with (docs/ARCHITECTURE.md, Checking a table): a
// family's hypothesis makes it, the check scores the sample and streams every row against it. Its
// cells are computed a tile at a time, never held whole. Immutable once made: one serves any
// number of threads.
class TableReference
{
public:
    virtual ~TableReference() = default;

    // Rows row0 .. row0 + rows - 1 of columns col0 .. col0 + cols - 1: row r's values start at
    // values + r * stride. Rows are table rows. The stride may be negative: the rows of a table of
    // offsets are one run of values, each row starting a value before the row above it.
    struct Tile
    {
        std::int64_t row0;
        std::int64_t rows;
        std::int64_t col0;
        std::int64_t cols;
        const float *values;
        std::int64_t stride;
    };
    using TileSink = std::function<void(const Tile &tile)>;

    virtual std::int64_t cols() const = 0;
    // The rows it has: a grid's patches end (a 2-D table of H x W patches has H W rows), a
    // sequence's positions do not. A block asked of it lies within them.
    virtual std::int64_t rows() const { return std::numeric_limits<std::int64_t>::max(); }
    // Whether row `row` is compared: rows before the first position and padding rows are not.
    virtual bool compared(std::int64_t row) const = 0;
    // The position row `row` holds, which a tolerance that grows with the position reads.
    virtual std::int64_t position(std::int64_t row) const = 0;
    // Hands every cell of the block's compared rows to `sink` once, in tiles of a few rows, the
    // rows in order; the values live until the sink returns.
    virtual void forEachTile(const Block &block, const TileSink &sink) const = 0;
    // As forEachTile, but a tile may hold only some of the block's columns: a row's pieces come one
    // after another, in any order of columns, each cell once. What reads cell by cell (the stream of
    // every row) takes a reference's values where they lie, not gathered into whole rows first.
    virtual void forEachPiece(const Block &block, const TileSink &sink) const { forEachTile(block, sink); }
    // Whether some cell is infinite (a causal mask's -inf), which the comparison then takes as
    // equal to itself alone.
    virtual bool holdsInfinities() const { return false; }
    // The pairs' reference whose angles this one's cells follow, column for column at the same
    // positions: itself, or the one a directed rounding moved (TableRounding). The stream allows its
    // cells float32 angles' rounding as it does the pairs' own (TableStream's verify). Null for others.
    virtual const PairReference *pairs() const { return nullptr; }

    // Fills `out` with the block: rows that are not compared hold 0.
    void fill(const Block &block, BlockRef out) const;
};

} // namespace posenc
