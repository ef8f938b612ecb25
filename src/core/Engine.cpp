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
// A tile is large enough to amortise the exact re-anchoring at its first row (a sine and a
// cosine per pair: at d = 4096, a tile of 2^22 cells is 1024 rows, one anchor interval) and
// small enough that the threads share the work evenly.
constexpr std::int64_t kTileCells = std::int64_t(1) << 22;
// Columns computed together where a row is cut into column tiles.
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

void Engine::forEachInputTile(const Block &block, const InputTileSink &sink) const
{
    const std::int64_t end = block.colEnd();
    const bool concat = m_params.compose == Compose::Concat;
    const std::int64_t embeddingEnd = concat ? m_embeddings.columns() : m_params.dModel;
    // X columns of the two parts; PE column = X column - peOffset.
    const std::int64_t e1 = std::min(end, embeddingEnd);
    const std::int64_t q0 = concat ? std::max(block.col0, embeddingEnd) : block.col0;
    const std::int64_t peOffset = concat ? embeddingEnd : 0;
    const RowMatrixXf *matrix = m_embeddings.matrix();
    constexpr std::int64_t kRows = PositionalTable::kRunRows;
    constexpr std::int64_t kWidth = PositionalTable::kTileColumns;
    // The part a column does not have reads as zeros.
    static const std::vector<float> zeros(static_cast<std::size_t>(kWidth), 0.0f);
    std::vector<float> generated;

    // The embedding rows of a tile: read where they are in a loaded matrix, else drawn.
    const auto withEmbedding = [&](InputTile tile) {
        if (tile.col0 >= embeddingEnd) {
            tile.embedding = zeros.data();
            tile.embeddingStride = 0;
        } else if (matrix) {
            tile.embedding = matrix->row(tile.row0).data() + tile.col0;
            tile.embeddingStride = matrix->cols();
        } else {
            generated.resize(static_cast<std::size_t>(tile.rows * tile.cols));
            m_embeddings.fill(Block {tile.row0, tile.rows, tile.col0, tile.cols},
                              Eigen::Map<RowMatrixXf>(generated.data(), tile.rows, tile.cols));
            tile.embedding = generated.data();
            tile.embeddingStride = tile.cols;
        }
        sink(tile);
    };
    const auto withPositional = [&](const Block &part) {
        m_pe.forEachTile(Block {part.row0, part.rows, part.col0 - peOffset, part.cols},
                         [&](const PositionalTable::Tile &pe) {
                             withEmbedding(InputTile {pe.row0, pe.rows, pe.col0 + peOffset, pe.cols, nullptr, 0,
                                                      m_scale, pe.values, pe.stride});
                         });
    };
    if (!concat) { // the PE covers every column of the block
        withPositional(block);
        return;
    }
    // The embedding columns of concat, without PE, in tiles of the same shape.
    for (std::int64_t p = block.row0; p < block.rowEnd(); p += kRows) {
        const std::int64_t rows = std::min(kRows, block.rowEnd() - p);
        for (std::int64_t c0 = block.col0; c0 < e1;) {
            const std::int64_t c1 = std::min(e1, (c0 / kWidth + 1) * kWidth);
            withEmbedding(InputTile {p, rows, c0, c1 - c0, nullptr, 0, m_scale, zeros.data(), 0});
            c0 = c1;
        }
    }
    if (end > q0)
        withPositional(Block {block.row0, block.rows, q0, end - q0});
}

void Engine::inputParts(const Block &block, BlockRef embeddingPart, BlockRef positionalPart) const
{
    forEachInputTile(block, [&](const InputTile &tile) {
        for (std::int64_t r = 0; r < tile.rows; ++r) {
            const InputRow x = tile.x(r);
            const std::int64_t row = tile.row0 + r - block.row0;
            for (std::int64_t c = 0; c < tile.cols; ++c) {
                embeddingPart(row, tile.col0 - block.col0 + c) = x.scale * x.embedding[c];
                positionalPart(row, tile.col0 - block.col0 + c) = x.positional[c];
            }
        }
    });
}

bool Engine::combinesInKernel(Quantity quantity) const
{
    if (m_params.compose != Compose::Sum || m_params.angles != Angles::Exact)
        return false;
    return quantity == Quantity::Input || (quantity == Quantity::Output && m_mask.probability() < 1.0);
}

void Engine::combineRows(Quantity quantity, const Block &block, BlockRef out, bool streaming) const
{
    constexpr int kRows = PositionalTable::kRunRows;
    const RowMatrixXf *matrix = m_embeddings.matrix();
    // Each row's keep bits, one word more: the kernel reads 8 bytes from a row's last bit on.
    const std::int64_t words = (block.cols + 63) / 64 + 1;
    thread_local std::vector<std::uint64_t> t_kept;
    thread_local std::vector<float> t_embedding;
    t_kept.resize(std::max(t_kept.size(), static_cast<std::size_t>(kRows * words)));
    if (!matrix)
        t_embedding.resize(std::max(t_embedding.size(), static_cast<std::size_t>(kRows * block.cols)));
    PairCombine combine {m_scale, m_mask.keepProbability(), m_params.dropoutMode == DropoutMode::Embedding, {}, {}, {}};
    bool zeroRows = false;
    m_pe.fill(block, out, streaming, [&](std::int64_t p, int count) {
        if (!matrix)
            m_embeddings.fill(Block {p, count, block.col0, block.cols},
                              Eigen::Map<RowMatrixXf>(t_embedding.data(), count, block.cols));
        for (int r = 0; r < count; ++r) {
            combine.origin[r] = out.row(p + r - block.row0).data();
            combine.embedding[r]
                = matrix ? matrix->row(p + r).data() + block.col0 : t_embedding.data() + r * block.cols;
            combine.kept[r] = nullptr; // X, as applyRow() computes pass-through rows and p = 0
            if (quantity == Quantity::Input)
                continue;
            switch (m_mask.rowRule(p + r)) {
            case DropoutMask::RowRule::Zero:
                zeroRows = true; // zeroed below, whatever the kernel stored
                break;
            case DropoutMask::RowRule::PassThrough:
                break;
            case DropoutMask::RowRule::Dropout:
                if (m_mask.probability() > 0.0) {
                    std::uint64_t *bits = t_kept.data() + r * words;
                    bits[words - 1] = 0;
                    m_mask.keepBits(p + r, block.col0, block.cols, bits);
                    combine.kept[r] = bits;
                }
                break;
            }
        }
        return &combine;
    });
    if (!zeroRows)
        return;
    if (streaming)
        streamFence(); // the kernel's non-temporal stores before the zeros that replace them
    for (std::int64_t p = block.row0; p < block.rowEnd(); ++p) {
        if (m_mask.rowRule(p) == DropoutMask::RowRule::Zero)
            out.row(p - block.row0).setZero();
    }
}

void Engine::computeRows(Quantity quantity, const Block &block, BlockRef out, bool streaming) const
{
    if (combinesInKernel(quantity)) {
        combineRows(quantity, block, out, streaming);
        if (streaming)
            streamFence();
        return;
    }
    const auto store = [&](std::int64_t p, const float *values) {
        float *dst = out.row(p - block.row0).data();
        if (streaming)
            streamCopy(dst, values, block.cols);
        else
            std::copy(values, values + block.cols, dst);
    };
    // Where cell (p, column) of the table goes.
    const auto at
        = [&](std::int64_t p, std::int64_t column) { return out.row(p - block.row0).data() + (column - block.col0); };
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
    case Quantity::Mask: {
        // Concat's PE columns in embedding mode are kept whatever the dice say (Y = PE there).
        const std::int64_t kept0 = std::clamp(m_params.droppableColumns() - block.col0, std::int64_t(0), block.cols);
        for (std::int64_t p = block.row0; p < block.rowEnd(); ++p) {
            m_mask.fillRow(p, block.col0, block.cols, row.data());
            std::fill(row.begin() + kept0, row.end(), 1.0f);
            store(p, row.data());
        }
        break;
    }
    case Quantity::Input:
        forEachInputTile(block, [&](const InputTile &tile) {
            for (std::int64_t r = 0; r < tile.rows; ++r)
                addScaled(tile.x(r), tile.cols, at(tile.row0 + r, tile.col0), streaming);
        });
        break;
    case Quantity::Output:
        forEachInputTile(block, [&](const InputTile &tile) {
            for (std::int64_t r = 0; r < tile.rows; ++r)
                m_mask.applyRow(tile.row0 + r, tile.col0, tile.cols, tile.x(r), at(tile.row0 + r, tile.col0),
                                streaming);
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
        // random generators' groups whatever the block. The model input keeps whole rows: it goes
        // through the columns in tiles of its own, and its output is written as a few sequential
        // streams. So does the PE, whose fill takes a chunk of pairs through all the rows at a
        // time (PositionalTable::fill), in the split layout too, where a pair's sine and cosine
        // lie half a row apart; and the split layout's float32 error, for the same reason.
        const bool wholeRows = quantity == Quantity::Input || quantity == Quantity::Output || quantity == Quantity::Pe
            || (m_params.layout == Layout::Split && quantity == Quantity::Error);
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
