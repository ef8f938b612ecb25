#include "MagnitudesData.h"

#include "FigureText.h"

#include "core/ColumnStatistics.h"
#include "core/Statistics.h"
#include "core/ThreadPools.h"

#include <QMutex>

using namespace Qt::StringLiterals;

#include <algorithm>
#include <cmath>
#include <vector>

namespace posenc::MagnitudesCompute {

namespace {

template<typename Array> QList<double> toList(const Array &a)
{
    return QList<double>(a.data(), a.data() + a.size());
}

// Norms at the positions `rows`, row by row.
struct Sampled
{
    std::vector<double> pe, embedding;
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
    const bool done = forEachTile(tiles, options.threads, options.cancel, [&](std::int64_t tile) {
        RowMatrixXf e(1, d), q(1, d);
        for (std::int64_t i = tile * kRowsPerTile; i < std::min(count, (tile + 1) * kRowsPerTile); ++i) {
            engine.inputParts({rows[static_cast<std::size_t>(i)], 1, 0, d}, e, q);
            s.pe[static_cast<std::size_t>(i)] = q.row(0).cast<double>().norm();
            s.embedding[static_cast<std::size_t>(i)] = e.row(0).cast<double>().norm();
        }
    });
    if (!done)
        return std::nullopt;
    return s;
}

// The exact per-column statistics, a pure function of the parameters that takes seconds at
// L 2^20: the last ones are kept, so that a figure laid out twice (or redrawn at another size)
// computes them once.
std::optional<ColumnStats> exactColumnStats(const Engine &engine, const ComputeOptions &options)
{
    static QMutex mutex;
    static std::optional<std::pair<Params, ColumnStats>> last;
    if (options.cancel && options.cancel->load())
        return std::nullopt;
    {
        const QMutexLocker lock(&mutex);
        if (last && last->first == engine.params())
            return last->second;
    }
    auto stats = ColumnStatistics::compute(engine, options);
    if (stats) {
        const QMutexLocker lock(&mutex);
        last.emplace(engine.params(), *stats);
    }
    return stats;
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
    data.input = FigureText::quantityLabel(Quantity::Input, params);
    data.parameters = FigureText::parametersText(Quantity::Input, params);
    const bool concat = params.compose == Compose::Concat;
    data.expectedEmbeddingFormula = params.embeddings ? u"√(s² mean‖Eₚ‖²)"_s
        : concat                                      ? u"√(s²σ²(d−k))"_s
                                                      : u"√(s²σ²d)"_s;
    data.expectedPeFormula = concat ? u"√(k/2)"_s : u"√(d/2)"_s;
    for (std::int64_t j = 0; j < d; ++j)
        data.columns.append(static_cast<double>(j));

    const std::int64_t budgetRows = std::max<std::int64_t>(1, Budget::cells(detail) / std::max<std::int64_t>(1, d));
    const auto stats = detail == Detail::Full ? exactColumnStats(engine, options)
                                              : ColumnStatistics::estimate(engine, budgetRows, options);
    if (!stats)
        return std::nullopt;
    data.peMean = toList(stats->peMean);
    data.peStd = toList(stats->peStd);
    data.peRms = toList(stats->peRms);
    data.embeddingMean = toList(stats->embeddingMean);
    data.embeddingStd = toList(stats->embeddingStd);
    data.embeddingRms = toList(stats->embeddingRms);
    data.rmsRows = stats->rows;

    if (detail == Detail::Full && L <= budgetRows) {
        // Every position, exactly, through the core's statistics.
        const auto norms = Statistics::positionNorms(engine, 0, L, options);
        if (!norms)
            return std::nullopt;
        for (std::int64_t p = 0; p < L; ++p)
            data.positions.append(static_cast<double>(p));
        data.peNorm = toList(norms->pe);
        data.embeddingNorm = toList(norms->embedding);
        data.ratio = toList(norms->ratio);
        return data;
    }
    // Evenly spaced positions for the curves: in a preview a few hundred (enough to see the
    // level and the spread), otherwise at most two per pixel, always within the budget.
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
    return data;
}

} // namespace posenc::MagnitudesCompute
