#include "PositionTerm.h"

#include "FamilySpec.h"
#include "StreamStore.h"

#include <algorithm>

namespace posenc {

PositionTerm::PositionTerm(const Params &params)
    : m_columns(params.peColumns())
{
    // What the family's factory makes: a kernel, a table's rows, or nothing (FamilySpec).
    const FamilySpec &family = Families::spec(params.encoding);
    if (!family.term)
        return;
    PositionTermParts parts = family.term->parts(params, m_columns);
    m_kernel = std::move(parts.kernel);
    m_matrix = parts.matrix;
    m_owner = std::move(parts.owner);
    m_rowOffset = parts.rowOffset;
    m_fill = std::move(parts.fill);
}

void PositionTerm::fill(const Block &block, BlockRef out, bool streaming) const
{
    if (block.isEmpty())
        return;
    if (m_kernel) {
        m_kernel->fill(block, out, streaming);
        return;
    }
    if (m_fill) {
        m_fill(block, out);
        return;
    }
    for (std::int64_t r = 0; r < block.rows; ++r) {
        float *dst = out.row(r).data();
        if (m_matrix) {
            const float *src = m_matrix->row(m_rowOffset + block.row0 + r).data() + block.col0;
            if (streaming)
                streamCopy(dst, src, block.cols);
            else
                std::copy(src, src + block.cols, dst);
        } else {
            std::fill(dst, dst + block.cols, 0.0f);
        }
    }
}

void PositionTerm::forEachTile(const Block &block, const PositionalTable::TileSink &sink) const
{
    if (block.isEmpty())
        return;
    if (m_kernel) {
        m_kernel->forEachTile(block, sink);
        return;
    }
    // A learned table's rows are where the matrix holds them; no term reads as zeros.
    static const std::vector<float> zeros(static_cast<std::size_t>(PositionalTable::kTileColumns), 0.0f);
    constexpr std::int64_t kRows = PositionalTable::kRunRows;
    constexpr std::int64_t kWidth = PositionalTable::kTileColumns;
    // A family's own table is computed a tile at a time into a scratch tile.
    RowMatrixXf scratch;
    for (std::int64_t p = block.row0; p < block.rowEnd(); p += kRows) {
        const std::int64_t rows = std::min(kRows, block.rowEnd() - p);
        for (std::int64_t c0 = block.col0; c0 < block.colEnd();) {
            const std::int64_t c1 = std::min(block.colEnd(), (c0 / kWidth + 1) * kWidth);
            if (m_fill) {
                scratch.resize(rows, c1 - c0);
                m_fill({p, rows, c0, c1 - c0}, scratch);
                sink({p, rows, c0, c1 - c0, scratch.data(), c1 - c0});
            } else if (m_matrix)
                sink({p, rows, c0, c1 - c0, m_matrix->row(m_rowOffset + p).data() + c0, m_matrix->cols()});
            else
                sink({p, rows, c0, c1 - c0, zeros.data(), 0});
            c0 = c1;
        }
    }
}

} // namespace posenc
