#include "RelativeTable.h"

#include "StreamStore.h"

#include <algorithm>
#include <vector>

namespace posenc::RelativeTable {

std::uint64_t workCells(const Params &, const Block &block)
{
    return static_cast<std::uint64_t>(block.rows) * static_cast<std::uint64_t>(block.cols)
        + static_cast<std::uint64_t>(std::max<std::int64_t>(0, block.rows + block.cols - 1));
}

void fill(const Block &block, BlockRef out, bool streaming, const Values &values)
{
    if (block.isEmpty())
        return;
    // Row i's offsets run from col0 - i to colEnd - 1 - i: the last row's first one is the least.
    const std::int64_t first = block.col0 - (block.rowEnd() - 1);
    const std::int64_t count = block.rows + block.cols - 1;
    thread_local std::vector<float> t_values;
    t_values.resize(static_cast<std::size_t>(count));
    values(first, count, t_values.data());
    for (std::int64_t r = 0; r < block.rows; ++r) {
        const float *row = t_values.data() + (block.col0 - (block.row0 + r) - first);
        float *dst = &out(r, 0);
        if (streaming)
            streamCopy(dst, row, block.cols);
        else
            std::copy(row, row + block.cols, dst);
    }
}

} // namespace posenc::RelativeTable
