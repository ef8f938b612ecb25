#pragma once

#include "Block.h"

#include <cstdint>
#include <functional>

// A positions x positions table whose cell (i, j) depends only on the key's offset j - i from
// the query (a Toeplitz matrix): ALiBi's biases, T5's and DeBERTa's buckets (docs/ARCHITECTURE.md,
// "The quantity table"). A block's offsets run over one interval of rows + cols - 1 values,
// computed once; each row of the block is then a contiguous run of them, copied (or streamed past
// the caches). Every cell is the same function of j - i whatever the block, so a block computed
// alone equals the same cells of the whole table bit for bit.
namespace posenc {
struct Params;
}

namespace posenc::RelativeTable {

// Writes the values at offsets first, first + 1, ..., first + count - 1 to `out`.
using Values = std::function<void(std::int64_t first, std::int64_t count, float *out)>;

// The work of a block: its cells, and the rows + cols - 1 values held beside them (the quantity
// table's workCells for every relative family).
std::uint64_t workCells(const Params &params, const Block &block);

// Fills `out` (block-sized) with value(j - i) for the block's cells.
void fill(const Block &block, BlockRef out, bool streaming, const Values &values);

} // namespace posenc::RelativeTable
