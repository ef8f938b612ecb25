#pragma once

#include "Block.h"
#include "Params.h"
#include "Philox.h"

#include <cstdint>
#include <memory>

namespace posenc {

// The token embeddings E (unscaled): seeded N(0, sigma^2) or U(-sqrt 3 sigma, sqrt 3 sigma)
// cells, or rows of a real matrix. A generated cell is a pure function of (seed, position,
// column): Box-Muller on Philox words, or one word per cell for the uniform law, evaluated in
// fixed chunks of kChunkColumns so that a block computed alone gives exactly the cells of the
// whole table.
class Embeddings
{
public:
    static constexpr std::int64_t kChunkColumns = 64;

    // Seeded embeddings with `columns` columns, of standard deviation `sigma`.
    Embeddings(std::uint64_t seed, double sigma, std::int64_t columns, CellLaw law = CellLaw::Normal);
    // Rows of a caller-given matrix.
    explicit Embeddings(std::shared_ptr<const EmbeddingMatrix> matrix);
    // The embeddings of `params`: the loaded matrix if any, else the seeded init.
    explicit Embeddings(const Params &params);
    static Embeddings fromParams(const Params &params) { return Embeddings(params); }

    std::int64_t columns() const { return m_columns; }
    bool isGenerated() const { return m_matrix == nullptr; }
    double sigma() const { return m_sigma; }
    CellLaw law() const { return m_law; }
    // The matrix the rows come from, or nullptr for the seeded init.
    const RowMatrixXf *matrix() const { return m_matrix ? &m_matrix->values : nullptr; }

    void fill(const Block &block, BlockRef out) const;

    // Fills the whole table rows [0, rows) into memory, in parallel: what a model holds.
    static std::shared_ptr<const EmbeddingMatrix> materialize(const Embeddings &source, std::int64_t rows,
                                                              int threads = 0);

private:
    void fillGeneratedRow(std::int64_t position, std::int64_t col0, std::int64_t cols, float *dst) const;

    std::shared_ptr<const EmbeddingMatrix> m_matrix;
    CellRandom m_random;
    float m_sigma;
    CellLaw m_law = CellLaw::Normal;
    std::int64_t m_columns;
};

} // namespace posenc
