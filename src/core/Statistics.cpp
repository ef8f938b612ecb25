#include "Statistics.h"

#include "FamilySpec.h"

#include "ClosedForms.h"

#include <functional>

#include "OrderedTiles.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace posenc::Statistics {

namespace {

// At most 256 rows and 2^20 cells a tile: three tiles' worth of matrices a worker, whatever d.
constexpr std::int64_t kTileRows = 256;
constexpr std::int64_t kTileCells = std::int64_t(1) << 20;
// Tiles whose partial sums are kept before they are added.
constexpr std::int64_t kChunkTiles = 16;

std::int64_t tileRowsFor(std::int64_t cols)
{
    return std::clamp<std::int64_t>(kTileCells / std::max<std::int64_t>(cols, 1), 1, kTileRows);
}

std::int64_t tileCount(std::int64_t rows, std::int64_t cols)
{
    return (rows + tileRowsFor(cols) - 1) / tileRowsFor(cols);
}

Block tileBlock(std::int64_t row0, std::int64_t rows, std::int64_t tile, std::int64_t cols)
{
    const std::int64_t r0 = row0 + tile * tileRowsFor(cols);
    return {r0, std::min(tileRowsFor(cols), row0 + rows - r0), 0, cols};
}

} // namespace

std::optional<PositionNorms> positionNorms(const Engine &engine, std::int64_t row0, std::int64_t rows,
                                           const ComputeOptions &options)
{
    PositionNorms norms;
    for (Eigen::ArrayXd *a : {&norms.pe, &norms.embedding, &norms.ratio, &norms.input, &norms.output})
        a->resize(rows);
    const std::int64_t d = engine.params().dModel;
    if (options.progress)
        options.progress->expect(rows);
    const bool done = forEachTile(tileCount(rows, d), options.threads, options.cancel, [&](std::int64_t tile) {
        const Block block = tileBlock(row0, rows, tile, d);
        RowMatrixXf e(block.rows, d), q(block.rows, d), y(block.rows, d);
        engine.inputParts(block, e, q);
        engine.computeBlock(Quantity::Output, block, y);
        const std::int64_t r0 = block.row0 - row0;
        const auto ed = e.cast<double>().array();
        const auto qd = q.cast<double>().array();
        norms.pe.segment(r0, block.rows) = qd.square().rowwise().sum().sqrt();
        norms.embedding.segment(r0, block.rows) = ed.square().rowwise().sum().sqrt();
        norms.input.segment(r0, block.rows) = (ed + qd).square().rowwise().sum().sqrt();
        norms.output.segment(r0, block.rows) = y.cast<double>().array().square().rowwise().sum().sqrt();
        if (options.progress)
            options.progress->advance(block.rows);
    });
    if (!done)
        return std::nullopt;
    norms.ratio = norms.embedding / norms.pe;
    return norms;
}

std::optional<ColumnRms> columnRms(const Engine &engine, std::int64_t row0, std::int64_t rows,
                                   const ComputeOptions &options)
{
    const std::int64_t d = engine.params().dModel;
    // Partial sums per tile, added in tile order: the same result for any thread count, with
    // a bounded number of partials alive at once.
    struct Squares
    {
        Eigen::ArrayXd pe, embedding;
    };
    ColumnRms rms;
    rms.pe = Eigen::ArrayXd::Zero(d);
    rms.embedding = Eigen::ArrayXd::Zero(d);
    const bool done = forEachTileInOrder<Squares>(
        tileCount(rows, d), kChunkTiles, options.threads, options.cancel,
        [&](std::int64_t tile) {
            const Block block = tileBlock(row0, rows, tile, d);
            RowMatrixXf e(block.rows, d), q(block.rows, d);
            engine.inputParts(block, e, q);
            return Squares {q.cast<double>().array().square().colwise().sum().transpose(),
                            e.cast<double>().array().square().colwise().sum().transpose()};
        },
        [&](std::int64_t, const Squares &part) {
            rms.pe += part.pe;
            rms.embedding += part.embedding;
        });
    if (!done)
        return std::nullopt;
    rms.pe = (rms.pe / static_cast<double>(std::max<std::int64_t>(rows, 1))).sqrt();
    rms.embedding = (rms.embedding / static_cast<double>(std::max<std::int64_t>(rows, 1))).sqrt();
    rms.ratio = rms.pe / rms.embedding;
    return rms;
}

ExpectedNorms expectedNorms(const Params &params)
{
    ExpectedNorms expected;
    const FamilySpec &family = Families::spec(params.encoding);
    if (const auto pe = family.term && family.term->normSquared ? family.term->normSquared(params) : std::nullopt)
        expected.peSquared = *pe;
    const double s = params.scale();
    if (params.embeddings) {
        const auto &m = params.embeddings->values;
        const std::int64_t rows = std::min<std::int64_t>(params.maxLen, m.rows());
        expected.embeddingSquared = s * s * m.topRows(rows).cast<double>().rowwise().squaredNorm().mean();
    } else {
        const double sigma = params.sigma();
        expected.embeddingSquared = ClosedForms::embeddingNormSquared(s, sigma, params.embeddingColumns());
    }
    return expected;
}

namespace {

// S of the rows of a table of `k` columns that `fill` gives.
void similarityOf(std::int64_t k, const std::function<void(const Block &, BlockRef)> &fill, const Block &block,
                  bool cosine, BlockRef out)
{
    if (k == 0) {
        out.setZero();
        return;
    }
    RowMatrixXf rows(block.rows, k), cols(block.cols, k);
    fill(Block {block.row0, block.rows, 0, k}, rows);
    fill(Block {block.col0, block.cols, 0, k}, cols);
    const RowMatrixXd a = rows.cast<double>();
    const RowMatrixXd b = cols.cast<double>();
    RowMatrixXd s = a * b.transpose();
    if (cosine) {
        const Eigen::ArrayXd na = a.rowwise().norm().array();
        const Eigen::ArrayXd nb = b.rowwise().norm().array();
        for (std::int64_t r = 0; r < block.rows; ++r)
            for (std::int64_t c = 0; c < block.cols; ++c) {
                const double denom = na[r] * nb[c];
                s(r, c) = denom > 0.0 ? s(r, c) / denom : 0.0;
            }
    }
    out = s.cast<float>();
}

} // namespace

void similarity(const PositionTerm &term, const Block &block, bool cosine, BlockRef out)
{
    similarityOf(
        term.columns(), [&](const Block &b, BlockRef o) { term.fill(b, o); }, block, cosine, out);
}

void similarity(const PositionalTable &table, const Block &block, bool cosine, BlockRef out)
{
    similarityOf(
        table.columns(), [&](const Block &b, BlockRef o) { table.fill(b, o); }, block, cosine, out);
}

} // namespace posenc::Statistics
