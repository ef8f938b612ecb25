#include "Embeddings.h"

#include "EmbeddingsSimd.h"

#include "TableAllocation.h"
#include "ThreadPools.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace posenc {

Embeddings::Embeddings(std::uint64_t seed, double sigma, std::int64_t columns, CellLaw law)
    : m_random(seed, RandomStream::Embedding)
    , m_sigma(static_cast<float>(sigma))
    , m_law(law)
    , m_columns(columns)
{ }

Embeddings::Embeddings(std::shared_ptr<const EmbeddingMatrix> matrix)
    : m_matrix(std::move(matrix))
    , m_random(0, RandomStream::Embedding)
    , m_sigma(0.0f)
    , m_columns(m_matrix->values.cols())
{ }

Embeddings::Embeddings(const Params &params)
    : Embeddings(params.embeddings
                     ? Embeddings(params.embeddings)
                     : Embeddings(params.seed, params.sigma(), params.embeddingColumns(), params.cellLaw()))
{ }

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

namespace {

// Cell c from word c: u = (top 24 bits + 1/2) / 2^24 in (0, 1), the cell sigma sqrt 3 (2u - 1),
// uniform on (-sqrt 3 sigma, sqrt 3 sigma) with standard deviation sigma (to 2^-48).
void uniformCells(const std::uint32_t *words, std::int64_t cells, float sigma, float *out)
{
    const double half = std::sqrt(3.0) * static_cast<double>(sigma);
    for (std::int64_t c = 0; c < cells; ++c) {
        const double u = (static_cast<double>(words[c] >> 8) + 0.5) * 0x1p-24;
        out[c] = static_cast<float>(half * (2.0 * u - 1.0));
    }
}

} // namespace

void Embeddings::fillGeneratedRow(std::int64_t position, std::int64_t col0, std::int64_t cols, float *dst) const
{
    // Box-Muller on whole chunks of kChunkColumns columns, two normals per pair of words; the
    // kernel computes every cell the same way, so a cell's value never depends on where a block
    // starts.
    constexpr std::int64_t kGroups = kChunkColumns / 4; // Philox counters per chunk, four words each
    const std::int64_t end = col0 + cols;
    const std::int64_t chunk0 = col0 / kChunkColumns;
    const std::int64_t chunks = (end + kChunkColumns - 1) / kChunkColumns - chunk0;
    thread_local std::vector<std::uint32_t> t_words;
    thread_local std::vector<float> t_cells;
    t_words.resize(static_cast<std::size_t>(4 * kGroups * chunks));
    t_cells.resize(static_cast<std::size_t>(kChunkColumns * chunks));
    m_random.fill(position, chunk0 * kGroups, kGroups * chunks, t_words.data());
    if (m_law == CellLaw::Uniform)
        uniformCells(t_words.data(), kChunkColumns * chunks, m_sigma, t_cells.data());
    else
        normalPairs(t_words.data(), kChunkColumns / 2 * chunks, m_sigma, t_cells.data());
    const float *cells = t_cells.data() + (col0 - chunk0 * kChunkColumns);
    std::copy(cells, cells + cols, dst);
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
