#include "Embeddings.h"

#include "TableAllocation.h"
#include "ThreadPools.h"

#include <algorithm>
#include <numbers>

namespace posenc {

Embeddings::Embeddings(std::uint64_t seed, double sigma, std::int64_t columns)
    : m_random(seed, RandomStream::Embedding)
    , m_sigma(static_cast<float>(sigma))
    , m_columns(columns)
{ }

Embeddings::Embeddings(std::shared_ptr<const EmbeddingMatrix> matrix)
    : m_matrix(std::move(matrix))
    , m_random(0, RandomStream::Embedding)
    , m_sigma(0.0f)
    , m_columns(m_matrix->values.cols())
{ }

Embeddings Embeddings::fromParams(const Params &params)
{
    if (params.embeddings)
        return Embeddings(params.embeddings);
    return Embeddings(params.seed, params.sigma(), params.embeddingColumns());
}

void Embeddings::fill(const Block &block, BlockRef out) const
{
    if (block.isEmpty())
        return;
    if (m_matrix) {
        out = m_matrix->values.block(block.row0, block.col0, block.rows, block.cols);
        return;
    }
    for (std::int64_t r = 0; r < block.rows; ++r)
        fillGeneratedRow(block.row0 + r, block.col0, block.cols, out.row(r).data());
}

void Embeddings::fillGeneratedRow(std::int64_t position, std::int64_t col0, std::int64_t cols, float *dst) const
{
    // Box-Muller on a fixed chunk of kChunkColumns columns: two normals per pair of words.
    // Fixed-size Eigen arrays take the vectorised path for every element, so each cell's
    // value never depends on where a block starts.
    constexpr int kPairs = kChunkColumns / 2;
    using Chunk = Eigen::Array<float, kPairs, 1>;
    constexpr float kToUnit = 1.0f / 16777216.0f; // 24 random bits to a float in [0, 1)
    const std::int64_t end = col0 + cols;
    for (std::int64_t chunk = col0 / kChunkColumns; chunk * kChunkColumns < end; ++chunk) {
        Chunk u1, u2;
        for (int g = 0; g < kPairs / 2; ++g) {
            const auto words = m_random.words(position, chunk * (kChunkColumns / 4) + g);
            for (int half = 0; half < 2; ++half) {
                // u1 in (0, 1) so that log(u1) is finite.
                u1[2 * g + half] = (static_cast<float>(words[2 * half] >> 8) + 0.5f) * kToUnit;
                u2[2 * g + half] = static_cast<float>(words[2 * half + 1] >> 8) * kToUnit;
            }
        }
        const Chunk radius = (u1.log() * -2.0f).sqrt() * m_sigma;
        const Chunk theta = u2 * static_cast<float>(2.0 * std::numbers::pi);
        const Chunk even = radius * theta.cos();
        const Chunk odd = radius * theta.sin();

        const std::int64_t chunk0 = chunk * kChunkColumns;
        const std::int64_t from = std::max(col0, chunk0);
        const std::int64_t to = std::min(end, chunk0 + kChunkColumns);
        for (std::int64_t c = from; c < to; ++c) {
            const std::int64_t k = c - chunk0;
            dst[c - col0] = (k & 1) ? odd[k / 2] : even[k / 2];
        }
    }
}

std::shared_ptr<const EmbeddingMatrix> Embeddings::materialize(const Embeddings &source, std::int64_t rows, int threads)
{
    auto matrix = std::make_shared<EmbeddingMatrix>();
    matrix->values = allocateTable(rows, source.columns());
    constexpr std::int64_t kTileRows = 64;
    RowMatrixXf &values = matrix->values;
    forEachTile((rows + kTileRows - 1) / kTileRows, threads, nullptr, [&](std::int64_t tile) {
        const std::int64_t row0 = tile * kTileRows;
        const Block block {row0, std::min(kTileRows, rows - row0), 0, source.columns()};
        source.fill(block, values.middleRows(row0, block.rows));
    });
    matrix->source = source.isGenerated() ? QStringLiteral("random init") : source.m_matrix->source;
    return matrix;
}

} // namespace posenc
