#include "HeatmapParts.h"

#include <algorithm>

namespace posenc {

QuantityParts QuantityParts::of(const Engine &engine, Quantity quantity, bool closedForms)
{
    const Params &p = engine.params();
    QuantityParts parts;
    parts.quantity = quantity;
    parts.peColumns = p.peColumns();
    parts.peRowEnd = p.maxLen;
    const bool exactAngles = engine.positionTerm().hasClosedForms();
    const QuantitySpec &row = Quantities::spec(quantity);
    const std::optional<PeInCells> pe = row.peCells ? row.peCells(p) : std::nullopt;
    parts.hasClosed = pe.has_value();
    // The exact-angle PE itself has no remainder; float32 angles leave their rounding error.
    parts.hasDirect = !(pe && pe->alone && exactAngles);
    if (pe) {
        parts.peColumn0 = pe->column0;
        parts.peRowEnd = pe->rowEnd;
    }
    // Only the sinusoid has closed forms; a learned table's rows are averaged cell by cell.
    if (!closedForms || parts.peColumns == 0 || !engine.positionTerm().kernel()) {
        parts.hasClosed = false;
        parts.hasDirect = true;
    }
    return parts;
}

DirectPart::DirectPart(const Engine &engine, Quantity quantity, const QuantityParts &parts)
    : m_engine(engine)
    , m_quantity(quantity)
    , m_parts(parts)
    , m_exact(engine.params().peColumns(), engine.params().sinusoidal, Angles::Exact)
{ }

void DirectPart::compute(const Block &block, BlockRef out) const
{
    const Params &p = m_engine.params();
    if (m_parts.hasClosed && m_quantity == Quantity::Input && p.sinusoidal.angles == Angles::Exact) {
        // D is s*E itself: computed alone, without the PE it would add and take away.
        const std::int64_t eEnd = p.concatenates() ? p.embeddingColumns() : p.dModel;
        out.setZero();
        const std::int64_t c1 = std::min(block.colEnd(), eEnd);
        if (c1 > block.col0)
            m_engine.computeBlock(Quantity::Embedding, {block.row0, block.rows, block.col0, c1 - block.col0},
                                  out.leftCols(c1 - block.col0));
        return;
    }
    m_engine.computeBlock(m_quantity, block, out);
    if (!m_parts.hasClosed)
        return;
    // Take K's float32 cells away where the block meets them.
    const std::int64_t q0 = std::max(block.col0, m_parts.peColumn0);
    const std::int64_t q1 = std::min(block.colEnd(), m_parts.peColumn0 + m_parts.peColumns);
    const std::int64_t r1 = std::min(block.rowEnd(), m_parts.peRowEnd);
    if (q1 <= q0 || r1 <= block.row0)
        return;
    const Block pe {block.row0, r1 - block.row0, q0 - m_parts.peColumn0, q1 - q0};
    RowMatrixXf k(pe.rows, pe.cols);
    m_exact.fill(pe, k);
    out.block(0, q0 - block.col0, pe.rows, pe.cols) -= k;
}

} // namespace posenc
