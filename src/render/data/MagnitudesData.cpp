#include "MagnitudesData.h"

#include "core/Statistics.h"
#include "core/ThreadPools.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace posenc::MagnitudesCompute {

namespace {

template<typename Array> QList<double> toList(const Array &a)
{
    return QList<double>(a.data(), a.data() + a.size());
}

// Norms and column sums of squares over the rows `rows` (any order), row by row.
struct Sampled
{
    std::vector<double> pe, embedding;
    Eigen::ArrayXd peSquares, embeddingSquares;
};

std::optional<Sampled> sampleRows(const Engine &engine, const std::vector<std::int64_t> &rows,
                                  const ComputeOptions &options)
{
    const std::int64_t d = engine.params().dModel;
    constexpr std::int64_t kRowsPerTile = 32;
    const std::int64_t count = static_cast<std::int64_t>(rows.size());
    const std::int64_t tiles = (count + kRowsPerTile - 1) / kRowsPerTile;
    Sampled s;
    s.pe.resize(rows.size());
    s.embedding.resize(rows.size());
    std::vector<Eigen::ArrayXd> peSq(static_cast<std::size_t>(tiles)), eSq(static_cast<std::size_t>(tiles));
    const bool done = forEachTile(tiles, options.threads, options.cancel, [&](std::int64_t tile) {
        RowMatrixXf e(1, d), q(1, d);
        Eigen::ArrayXd pe = Eigen::ArrayXd::Zero(d), em = Eigen::ArrayXd::Zero(d);
        for (std::int64_t i = tile * kRowsPerTile; i < std::min(count, (tile + 1) * kRowsPerTile); ++i) {
            engine.inputParts({rows[static_cast<std::size_t>(i)], 1, 0, d}, e, q);
            const Eigen::ArrayXd ed = e.row(0).transpose().cast<double>().array();
            const Eigen::ArrayXd qd = q.row(0).transpose().cast<double>().array();
            s.pe[static_cast<std::size_t>(i)] = std::sqrt(qd.square().sum());
            s.embedding[static_cast<std::size_t>(i)] = std::sqrt(ed.square().sum());
            pe += qd.square();
            em += ed.square();
        }
        peSq[static_cast<std::size_t>(tile)] = pe;
        eSq[static_cast<std::size_t>(tile)] = em;
    });
    if (!done)
        return std::nullopt;
    s.peSquares = Eigen::ArrayXd::Zero(d);
    s.embeddingSquares = Eigen::ArrayXd::Zero(d);
    for (std::int64_t t = 0; t < tiles; ++t) {
        s.peSquares += peSq[static_cast<std::size_t>(t)];
        s.embeddingSquares += eSq[static_cast<std::size_t>(t)];
    }
    return s;
}

} // namespace

std::optional<MagnitudesData> compute(const Engine &engine, int pixels, Detail detail, const ComputeOptions &options)
{
    const Params &params = engine.params();
    const std::int64_t L = params.maxLen;
    const std::int64_t d = params.dModel;
    MagnitudesData data;
    data.maxLen = L;
    const ExpectedNorms expected = Statistics::expectedNorms(params);
    if (expected.peSquared)
        data.expectedPeNorm = std::sqrt(*expected.peSquared);
    data.expectedEmbeddingNorm = std::sqrt(expected.embeddingSquared);
    for (std::int64_t j = 0; j < d; ++j)
        data.columns.append(static_cast<double>(j));

    const std::int64_t budgetRows = std::max<std::int64_t>(1, Budget::cells(detail) / std::max<std::int64_t>(1, d));
    if (detail == Detail::Full && L <= budgetRows) {
        // Every position, exactly, through the core's statistics.
        const auto norms = Statistics::positionNorms(engine, 0, L, options);
        if (!norms)
            return std::nullopt;
        const auto rms = Statistics::columnRms(engine, 0, L, options);
        if (!rms)
            return std::nullopt;
        for (std::int64_t p = 0; p < L; ++p)
            data.positions.append(static_cast<double>(p));
        data.peNorm = toList(norms->pe);
        data.embeddingNorm = toList(norms->embedding);
        data.ratio = toList(norms->ratio);
        data.peRms = toList(rms->pe);
        data.embeddingRms = toList(rms->embedding);
        data.rmsRows = L;
        return data;
    }
    // Evenly spaced positions: in a preview a few hundred (enough to see the level and the
    // spread), otherwise at most two per pixel, always within the budget.
    const std::int64_t perPixel = detail == Detail::Preview ? std::min(pixels, 160) : 2 * pixels;
    const std::int64_t wanted = std::min({L, std::max<std::int64_t>(perPixel, 16), budgetRows});
    data.positionStride = (L + wanted - 1) / wanted;
    std::vector<std::int64_t> rows;
    for (std::int64_t p = 0; p < L; p += data.positionStride)
        rows.push_back(p);
    const auto sampled = sampleRows(engine, rows, options);
    if (!sampled)
        return std::nullopt;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        data.positions.append(static_cast<double>(rows[i]));
        data.peNorm.append(sampled->pe[i]);
        data.embeddingNorm.append(sampled->embedding[i]);
        data.ratio.append(sampled->embedding[i] / sampled->pe[i]);
    }
    const double n = static_cast<double>(rows.size());
    data.peRms = toList((sampled->peSquares / n).sqrt().eval());
    data.embeddingRms = toList((sampled->embeddingSquares / n).sqrt().eval());
    data.rmsRows = static_cast<std::int64_t>(rows.size());
    return data;
}

} // namespace posenc::MagnitudesCompute
