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
    switch (quantity) {
    case Quantity::Pe:
        parts.hasClosed = true;
        parts.hasDirect = !exactAngles; // float32 angles: D is their rounding error
        break;
    case Quantity::Input:
        parts.hasClosed = true;
        parts.peColumn0 = p.concatenates() ? p.embeddingColumns() : 0;
        break;
    case Quantity::Output: {
        // E[Y] = X wherever a row is kept in expectation: inverted dropout, pass-through and
        // evaluation rows; masked-fill zeroes its padding, and p = 1 zeroes X (but keeps the
        // PE of the embedding variant).
        const bool allDropped = p.training && p.dropout >= 1.0 && p.dropoutMode != DropoutMode::Embedding;
        parts.hasClosed = !allDropped;
        parts.peColumn0 = p.concatenates() ? p.embeddingColumns() : 0;
        if (p.dropoutMode == DropoutMode::MaskedFill)
            parts.peRowEnd = std::min(p.maxLen, p.sequenceLength());
        break;
    }
    case Quantity::Embedding:
    case Quantity::Mask:
    case Quantity::Similarity:
    case Quantity::Error:
    case Quantity::RopeFrequencies:
    case Quantity::RopeCos:
    case Quantity::RopeSin:
    case Quantity::RopeScore:
    case Quantity::RopeInput:
    case Quantity::MropePositions:
    case Quantity::MropeAxes:
    case Quantity::MropeCos:
    case Quantity::MropeSin:
    case Quantity::Rope2dFrequencies:
    case Quantity::Rope2dCos:
    case Quantity::Rope2dSin:
    case Quantity::Rope2dScore:
    case Quantity::AlibiSlopes:
    case Quantity::AlibiBias:
    case Quantity::T5Bucket:
    case Quantity::DebertaBucket:
        break;
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
    , m_exact(engine.params().peColumns(), engine.params().sinusoidal.base, engine.params().sinusoidal.layout,
              Angles::Exact)
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
