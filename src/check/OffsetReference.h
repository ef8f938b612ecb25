#pragma once

#include "check/TableReference.h"

#include <cstdint>
#include <functional>

namespace posenc {

// A reference whose cell (i, j) is a function of the key's offset j - i from the query alone: a
// table of relative biases or buckets (a Toeplitz table, docs/ARCHITECTURE.md, Checking a
// table). A block's offsets are one run of rows + cols - 1 values, computed once; each row of the
// block is a stretch of them, handed out in place. Every row is compared; row i is the query at
// position i + start (queryStart: the last queries of the keys with a cache, check/OffsetProfile.h).
class OffsetReference final : public TableReference
{
public:
    // Writes the values at offsets first, first + 1, ..., first + count - 1 to `out`.
    using Values = std::function<void(std::int64_t first, std::int64_t count, float *out)>;

    // `start`: the position of row 0's query; `infinities`: some value is infinite (a causal mask's -inf).
    OffsetReference(std::int64_t cols, std::int64_t start, Values values, bool infinities = false);

    std::int64_t cols() const override { return m_cols; }
    bool compared(std::int64_t) const override { return true; }
    std::int64_t position(std::int64_t row) const override { return row; }
    void forEachTile(const Block &block, const TileSink &sink) const override;
    bool holdsInfinities() const override { return m_infinities; }

private:
    std::int64_t m_cols;
    std::int64_t m_start;
    Values m_values;
    bool m_infinities;
};

} // namespace posenc
