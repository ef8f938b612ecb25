#include "ModelInput.h"

#include "Engine.h"
#include "StreamStore.h"

#include <algorithm>
#include <vector>

namespace posenc {

ModelInput::ModelInput(const Engine &engine)
    : m_params(engine.params())
    , m_term(engine.positionTerm())
    , m_embeddings(engine.embeddings())
    , m_mask(engine.dropoutMask())
    , m_scale(static_cast<float>(engine.params().scale()))
{ }

void ModelInput::fill(Quantity quantity, const Block &block, BlockRef out, bool streaming) const
{
    if (combinesInKernel(quantity)) {
        combineRows(quantity, block, out, streaming);
        return;
    }
    // Where cell (p, column) of the table goes.
    const auto at
        = [&](std::int64_t p, std::int64_t column) { return out.row(p - block.row0).data() + (column - block.col0); };
    if (quantity == Quantity::Input) {
        forEachInputTile(block, [&](const InputTile &tile) {
            for (std::int64_t r = 0; r < tile.rows; ++r)
                addScaled(tile.x(r), tile.cols, at(tile.row0 + r, tile.col0), streaming);
        });
        return;
    }
    forEachInputTile(block, [&](const InputTile &tile) {
        for (std::int64_t r = 0; r < tile.rows; ++r)
            m_mask.applyRow(tile.row0 + r, tile.col0, tile.cols, tile.x(r), at(tile.row0 + r, tile.col0), streaming);
    });
}

void ModelInput::forEachInputTile(const Block &block, const InputTileSink &sink) const
{
    const std::int64_t end = block.colEnd();
    const bool concat = m_params.concatenates();
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
        m_term.forEachTile(Block {part.row0, part.rows, part.col0 - peOffset, part.cols},
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

void ModelInput::parts(const Block &block, BlockRef embeddingPart, BlockRef positionalPart) const
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

bool ModelInput::combinesInKernel(Quantity quantity) const
{
    const PositionalTable *kernel = m_term.kernel();
    if (m_params.concatenates() || !kernel || kernel->angles() != Angles::Exact)
        return false;
    return quantity == Quantity::Input || (quantity == Quantity::Output && m_mask.probability() < 1.0);
}

void ModelInput::combineRows(Quantity quantity, const Block &block, BlockRef out, bool streaming) const
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
    PairCombine combine {m_scale, m_mask.keepProbability(), dropoutTarget(m_params.dropoutMode), {}, {}, {}};
    bool zeroRows = false;
    m_term.kernel()->fill(block, out, streaming, [&](std::int64_t p, int count) {
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

} // namespace posenc
