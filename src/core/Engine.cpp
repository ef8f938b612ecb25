#include "Engine.h"

#include "MemoryBudget.h"
#include "Statistics.h"
#include "StreamStore.h"
#include "TableAllocation.h"
#include "ThreadPools.h"

#include <QThreadPool>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Outputs larger than this are written with streaming stores: they cannot stay in cache.
constexpr std::int64_t kStreamingCells = std::int64_t(8) << 20;
// A tile is large enough to amortise the exact re-anchoring at its first row and small
// enough that the threads share the work evenly.
constexpr std::int64_t kTileCells = std::int64_t(1) << 21;
// Columns computed together: the double state of the PE recurrence for this many columns
// stays in the first-level cache while the rows go by.
constexpr std::int64_t kTileColumns = 1024;

std::int64_t tileRowsFor(const Block &block, int threads)
{
    const int workers = threads > 0 ? threads : std::max(1, QThreadPool::globalInstance()->maxThreadCount());
    std::int64_t rows = std::max<std::int64_t>(1, kTileCells / std::max<std::int64_t>(1, block.cols));
    rows = std::min(rows, (block.rows + 4 * workers - 1) / (4 * workers)); // at least ~4 tiles a worker
    // Start tiles on hop rows so that no tile repeats the rotations of another.
    if (rows >= PositionalTable::kHopRows)
        rows -= rows % PositionalTable::kHopRows;
    return std::max<std::int64_t>(1, rows);
}

} // namespace

Engine::Engine(Params params)
    : m_params(std::move(params))
    , m_pe(m_params.peColumns(), m_params.base, m_params.layout, m_params.angles)
    , m_embeddings(Embeddings::fromParams(m_params))
    , m_mask(m_params)
    , m_scale(static_cast<float>(m_params.scale()))
{ }

std::optional<QString> Engine::check(Quantity quantity, const Block &block) const
{
    const Shape s = shape(quantity);
    if (block.row0 < 0 || block.rows < 0 || block.rowEnd() > s.rows)
        return u"rows [%1, %2) are outside the %3 table's rows [0, %4)"_s.arg(block.row0)
            .arg(block.rowEnd())
            .arg(Quantities::name(quantity))
            .arg(s.rows);
    if (block.col0 < 0 || block.cols < 0 || block.colEnd() > s.cols)
        return u"columns [%1, %2) are outside the %3 table's columns [0, %4)"_s.arg(block.col0)
            .arg(block.colEnd())
            .arg(Quantities::name(quantity))
            .arg(s.cols);
    std::uint64_t cells = static_cast<std::uint64_t>(block.rows) * static_cast<std::uint64_t>(block.cols);
    if (quantity == Quantity::Similarity) // the PE rows of both sides, in double
        cells += 4 * static_cast<std::uint64_t>(block.rows + block.cols) * static_cast<std::uint64_t>(m_pe.columns());
    return MemoryBudget::check(
        cells, m_params.memoryBudget,
        u"the %1 x %2 block of %3"_s.arg(block.rows).arg(block.cols).arg(Quantities::name(quantity)));
}

void Engine::forEachInputRow(const Block &block, const InputRowSink &sink) const
{
    const std::int64_t end = block.colEnd();
    const bool concat = m_params.compose == Compose::Concat;
    const std::int64_t embeddingEnd = concat ? m_embeddings.columns() : m_params.dModel;
    // X columns of the two parts; PE column = X column - peOffset.
    const std::int64_t e0 = block.col0;
    const std::int64_t e1 = std::min(end, embeddingEnd);
    const std::int64_t q0 = concat ? std::max(block.col0, embeddingEnd) : block.col0;
    const std::int64_t peOffset = concat ? embeddingEnd : 0;
    const RowMatrixXf *matrix = m_embeddings.matrix();
    // A loaded matrix is read in place where the block is all embedding columns (sum).
    const bool inPlace = matrix && !concat;

    std::vector<float> embeddingPart(static_cast<std::size_t>(block.cols), 0.0f);
    std::vector<float> positionalPart;
    const auto deliver = [&](std::int64_t p, const float *positional) {
        const float *embedding = embeddingPart.data();
        if (inPlace)
            embedding = matrix->row(p).data() + block.col0;
        else if (e1 > e0)
            m_embeddings.fill(Block {p, 1, e0, e1 - e0}, Eigen::Map<RowMatrixXf>(embeddingPart.data(), 1, e1 - e0));
        sink(p, InputRow {embedding, m_scale, positional});
    };
    if (!concat) { // the PE row covers every column of the block: use it where it is
        m_pe.forEachRow(block, [&](std::int64_t p, const float *pe) { deliver(p, pe); });
        return;
    }
    positionalPart.assign(static_cast<std::size_t>(block.cols), 0.0f);
    if (end > q0) {
        float *q = positionalPart.data() + (q0 - block.col0);
        m_pe.forEachRow(Block {block.row0, block.rows, q0 - peOffset, end - q0}, [&](std::int64_t p, const float *pe) {
            std::copy(pe, pe + (end - q0), q);
            deliver(p, positionalPart.data());
        });
    } else {
        for (std::int64_t p = block.row0; p < block.rowEnd(); ++p)
            deliver(p, positionalPart.data());
    }
}

void Engine::inputParts(const Block &block, BlockRef embeddingPart, BlockRef positionalPart) const
{
    forEachInputRow(block, [&](std::int64_t p, const InputRow &x) {
        const std::int64_t r = p - block.row0;
        for (std::int64_t c = 0; c < block.cols; ++c) {
            embeddingPart(r, c) = x.scale * x.embedding[c];
            positionalPart(r, c) = x.positional[c];
        }
    });
}

void Engine::computeRows(Quantity quantity, const Block &block, BlockRef out, bool streaming) const
{
    const auto store = [&](std::int64_t p, const float *values) {
        float *dst = out.row(p - block.row0).data();
        if (streaming)
            streamCopy(dst, values, block.cols);
        else
            std::copy(values, values + block.cols, dst);
    };
    std::vector<float> row(static_cast<std::size_t>(block.cols));
    switch (quantity) {
    case Quantity::Pe:
        m_pe.fill(block, out, streaming);
        break;
    case Quantity::Error:
        m_pe.forEachErrorRow(block, store);
        break;
    case Quantity::Embedding:
        for (std::int64_t p = block.row0; p < block.rowEnd(); ++p) {
            m_embeddings.fill(Block {p, 1, block.col0, block.cols}, Eigen::Map<RowMatrixXf>(row.data(), 1, block.cols));
            for (float &v : row)
                v *= m_scale;
            store(p, row.data());
        }
        break;
    case Quantity::Mask:
        for (std::int64_t p = block.row0; p < block.rowEnd(); ++p) {
            m_mask.fillRow(p, block.col0, block.cols, row.data());
            store(p, row.data());
        }
        break;
    case Quantity::Input:
        forEachInputRow(block, [&](std::int64_t p, const InputRow &x) {
            float *dst = out.row(p - block.row0).data();
            for (std::int64_t c = 0; c < block.cols; ++c)
                dst[c] = x.scale * x.embedding[c] + x.positional[c];
        });
        break;
    case Quantity::Output:
        forEachInputRow(block, [&](std::int64_t p, const InputRow &x) {
            m_mask.applyRow(p, block.col0, block.cols, x, out.row(p - block.row0).data(), streaming);
        });
        break;
    case Quantity::Similarity:
        Statistics::similarity(m_pe, block, false, out);
        break;
    }
    if (streaming)
        streamFence();
}

void Engine::computeBlock(Quantity quantity, const Block &block, BlockRef out) const
{
    if (!block.isEmpty())
        computeRows(quantity, block, out, false);
}

bool Engine::compute(Quantity quantity, const Block &block, BlockRef out, const ComputeOptions &options) const
{
    if (options.cancel && options.cancel->load())
        return false;
    if (block.isEmpty())
        return true;
    const bool streaming = block.cells() >= kStreamingCells && quantity != Quantity::Similarity;
    const std::int64_t tileRows = tileRowsFor(block, options.threads);
    return forEachTile((block.rows + tileRows - 1) / tileRows, options.threads, options.cancel, [&](std::int64_t tile) {
        const std::int64_t r0 = tile * tileRows;
        const std::int64_t rows = std::min(tileRows, block.rows - r0);
        if (quantity == Quantity::Similarity) {
            computeRows(quantity, Block {block.row0 + r0, rows, block.col0, block.cols}, out.middleRows(r0, rows),
                        false);
            return;
        }
        // Column tiles start on multiples of the tile width, so that they line up with the
        // random generators' groups whatever the block. The split layout keeps whole rows: a
        // pair's sine and cosine lie half a row apart and are computed together.
        // The model input takes whole rows as well: the embeddings are then read and the output
        // written as one sequential stream each (measured 20% faster than 1024-column slices).
        const bool wholeRows = quantity == Quantity::Input || quantity == Quantity::Output
            || (m_params.layout == Layout::Split && quantity != Quantity::Mask && quantity != Quantity::Embedding);
        const std::int64_t width = wholeRows ? block.colEnd() : kTileColumns;
        for (std::int64_t c0 = block.col0; c0 < block.colEnd();) {
            const std::int64_t c1 = std::min(block.colEnd(), (c0 / width + 1) * width);
            computeRows(quantity, Block {block.row0 + r0, rows, c0, c1 - c0},
                        out.block(r0, c0 - block.col0, rows, c1 - c0), streaming);
            c0 = c1;
        }
    });
}

std::optional<RowMatrixXf> Engine::table(Quantity quantity, const Block &block, const ComputeOptions &options) const
{
    RowMatrixXf result = allocateTable(block.rows, block.cols);
    if (!compute(quantity, block, result, options))
        return std::nullopt;
    return result;
}

} // namespace posenc
