#include "Statistics.h"

#include "ThreadPools.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace posenc::Statistics {

namespace {

constexpr std::int64_t kTileRows = 256;

std::int64_t tileCount(std::int64_t rows)
{
    return (rows + kTileRows - 1) / kTileRows;
}

Block tileBlock(std::int64_t row0, std::int64_t rows, std::int64_t tile, std::int64_t cols)
{
    const std::int64_t r0 = row0 + tile * kTileRows;
    return {r0, std::min(kTileRows, row0 + rows - r0), 0, cols};
}

} // namespace

std::optional<PositionNorms> positionNorms(const Engine &engine, std::int64_t row0, std::int64_t rows,
                                           const ComputeOptions &options)
{
    PositionNorms norms;
    for (Eigen::ArrayXd *a : {&norms.pe, &norms.embedding, &norms.ratio, &norms.input, &norms.output})
        a->resize(rows);
    const std::int64_t d = engine.params().dModel;
    const bool done = forEachTile(tileCount(rows), options.threads, options.cancel, [&](std::int64_t tile) {
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
    const std::int64_t tiles = tileCount(rows);
    // Partial sums per tile, added in tile order afterwards: the same result for any thread count.
    std::vector<Eigen::ArrayXd> peSums(static_cast<std::size_t>(tiles)), embeddingSums(static_cast<std::size_t>(tiles));
    const bool done = forEachTile(tiles, options.threads, options.cancel, [&](std::int64_t tile) {
        const Block block = tileBlock(row0, rows, tile, d);
        RowMatrixXf e(block.rows, d), q(block.rows, d);
        engine.inputParts(block, e, q);
        peSums[static_cast<std::size_t>(tile)] = q.cast<double>().array().square().colwise().sum().transpose();
        embeddingSums[static_cast<std::size_t>(tile)] = e.cast<double>().array().square().colwise().sum().transpose();
    });
    if (!done)
        return std::nullopt;
    ColumnRms rms;
    rms.pe = Eigen::ArrayXd::Zero(d);
    rms.embedding = Eigen::ArrayXd::Zero(d);
    for (std::int64_t t = 0; t < tiles; ++t) {
        rms.pe += peSums[static_cast<std::size_t>(t)];
        rms.embedding += embeddingSums[static_cast<std::size_t>(t)];
    }
    rms.pe = (rms.pe / static_cast<double>(std::max<std::int64_t>(rows, 1))).sqrt();
    rms.embedding = (rms.embedding / static_cast<double>(std::max<std::int64_t>(rows, 1))).sqrt();
    rms.ratio = rms.pe / rms.embedding;
    return rms;
}

ExpectedNorms expectedNorms(const Params &params)
{
    ExpectedNorms expected;
    const std::int64_t k = params.peColumns();
    if (k % 2 == 0) // every pair holds sin^2 + cos^2 = 1
        expected.peSquared = static_cast<double>(k) / 2.0;
    const double s = params.scale();
    if (params.embeddings) {
        const auto &m = params.embeddings->values;
        const std::int64_t rows = std::min<std::int64_t>(params.maxLen, m.rows());
        expected.embeddingSquared = s * s * m.topRows(rows).cast<double>().rowwise().squaredNorm().mean();
    } else {
        const double sigma = params.sigma();
        expected.embeddingSquared = s * s * sigma * sigma * static_cast<double>(params.embeddingColumns());
    }
    return expected;
}

void similarity(const PositionalTable &table, const Block &block, bool cosine, BlockRef out)
{
    const std::int64_t k = table.columns();
    if (k == 0) {
        out.setZero();
        return;
    }
    RowMatrixXf rows(block.rows, k), cols(block.cols, k);
    table.fill(Block {block.row0, block.rows, 0, k}, rows);
    table.fill(Block {block.col0, block.cols, 0, k}, cols);
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

} // namespace posenc::Statistics
