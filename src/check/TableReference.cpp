#include "TableReference.h"

#include <algorithm>

namespace posenc {

void TableReference::fill(const Block &block, BlockRef out) const
{
    out.setZero();
    forEachTile(block, [&](const Tile &t) {
        for (std::int64_t r = 0; r < t.rows; ++r) {
            const float *from = t.values + r * t.stride;
            std::copy(from, from + t.cols, out.row(t.row0 - block.row0 + r).data() + (t.col0 - block.col0));
        }
    });
}

} // namespace posenc
