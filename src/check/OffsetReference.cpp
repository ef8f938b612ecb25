#include "OffsetReference.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace posenc {

namespace {

// Rows per tile: the comparison takes four rows at a time.
constexpr std::int64_t kTileRows = 4;

} // namespace

OffsetReference::OffsetReference(std::int64_t cols, std::int64_t start, Values values, bool infinities)
    : m_cols(cols)
    , m_start(start)
    , m_values(std::move(values))
    , m_infinities(infinities)
{ }

void OffsetReference::forEachTile(const Block &block, const TileSink &sink) const
{
    if (block.isEmpty())
        return;
    // Offsets from the block's bottom-left cell to its top-right one.
    const std::int64_t first = block.col0 - (block.rowEnd() - 1 + m_start);
    const std::int64_t count = block.rows + block.cols - 1;
    thread_local std::vector<float> t_values;
    t_values.resize(static_cast<std::size_t>(count));
    m_values(first, count, t_values.data());
    // Row i starts at offset col0 - i: one value before the row above it.
    for (std::int64_t r = 0; r < block.rows; r += kTileRows) {
        const std::int64_t row = block.row0 + r;
        const float *start = t_values.data() + (block.col0 - (row + m_start) - first);
        sink(Tile {row, std::min(kTileRows, block.rows - r), block.col0, block.cols, start, -1});
    }
}

} // namespace posenc
