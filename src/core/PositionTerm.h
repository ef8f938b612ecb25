#pragma once

#include "Block.h"
#include "Params.h"
#include "PositionalTable.h"

#include <functional>
#include <memory>
#include <optional>

namespace posenc {

// The position term of the model input X (docs/ARCHITECTURE.md, "Encoding families"): the table
// the chosen family adds to s*E, in the columns X gives it, as its FamilySpec's factory makes it:
// a table computed by the exact kernel (the sinusoid's), the rows of a table from an offset on
// (a learned one's), a family's own table computed block by block, or nothing.
class PositionTerm
{
public:
    explicit PositionTerm(const Params &params);

    // Columns of the term: d, k in concat, 0 without a term.
    std::int64_t columns() const { return m_columns; }
    // The exact kernel behind the term, or nullptr: the kernel is what computes X and Y in
    // one pass (Engine::combineRows), and its closed forms what make statistics exact at any L.
    const PositionalTable *kernel() const { return m_kernel ? &*m_kernel : nullptr; }
    // Whether the term's statistics have closed forms: the kernel's sums at exact angles.
    bool hasClosedForms() const { return m_kernel && m_kernel->angles() == Angles::Exact; }
    // The table whose rows the term reads, or nullptr; position p is its row p + rowOffset().
    const RowMatrixXf *matrix() const { return m_matrix; }
    std::int64_t rowOffset() const { return m_rowOffset; }

    // The block of the term's table (rows are positions).
    void fill(const Block &block, BlockRef out, bool streaming = false) const;
    // Hands the block to `sink` in tiles of at most PositionalTable::kRunRows rows and
    // kTileColumns columns, each cell once, the tiles of a run of rows before any later row.
    void forEachTile(const Block &block, const PositionalTable::TileSink &sink) const;

private:
    std::int64_t m_columns = 0;
    std::optional<PositionalTable> m_kernel;
    const RowMatrixXf *m_matrix = nullptr;
    std::shared_ptr<const void> m_owner; // keeps m_matrix alive
    std::int64_t m_rowOffset = 0;
    std::function<void(const Block &, BlockRef)> m_fill; // a family's own table
};

} // namespace posenc
