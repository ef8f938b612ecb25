#include "MagnitudesData.h"

#include "EmbeddingMoments.h"
#include "FigureText.h"

#include "core/ClosedForms.h"
#include "core/ColumnStatistics.h"
#include "core/Statistics.h"
#include "core/ThreadPools.h"
#include "core/sinusoidal/Frequencies.h"

#include <QMutex>

using namespace Qt::StringLiterals;

#include <algorithm>
#include <cmath>
#include <vector>

namespace posenc::MagnitudesCompute {

namespace {

// Passes of the exact statistics: each over 8 times the positions of the one before.
constexpr std::int64_t kPassGrowth = 8;
constexpr int kMaxPasses = 5;

template<typename Array> QList<double> toList(const Array &a)
{
    return QList<double>(a.data(), a.data() + a.size());
}

// Rows of s*E a preview takes for each of its two parts, the per-column estimate and the
// per-position norms: together half the preview budget, so that the figure follows a moving
// control at any d, and at least enough rows to show the level and the spread.
std::int64_t previewRows(std::int64_t d)
{
    return std::max<std::int64_t>(16, Budget::cells(Detail::Preview) / (4 * std::max<std::int64_t>(d, 1)));
}

// ||PE_p|| in closed form: each whole sine and cosine pair adds sin^2 + cos^2 = 1 whatever its
// angle (float32 angles too), and an odd number k of PE columns adds the square of its lone
// sine, the last pair's (column k - 1 interleaved, (k - 1) / 2 split).
double peNorm(const Engine &engine, std::int64_t position)
{
    const Params &p = engine.params();
    const std::int64_t k = p.peColumns();
    double squares = ClosedForms::pePairsNormSquared(k);
    if (k % 2 == 1) {
        float lone = 0.0f;
        const std::int64_t column = Frequencies::column({(k - 1) / 2, false}, k, p.sinusoidal);
        engine.computeBlock(Quantity::Pe, {position, 1, column, 1}, Eigen::Map<RowMatrixXf>(&lone, 1, 1));
        squares += static_cast<double>(lone) * static_cast<double>(lone);
    }
    return std::sqrt(squares);
}

// ||PE_p|| (peNorm) and ||s*E_p|| at the positions `rows`, row by row.
struct Sampled
{
    std::vector<double> pe, embedding;
};

std::optional<Sampled> sampleRows(const Engine &engine, const std::vector<std::int64_t> &rows,
                                  const ComputeOptions &options)
{
    const std::int64_t cols = engine.params().embeddingColumns();
    constexpr std::int64_t kRowsPerTile = 32;
    const std::int64_t count = static_cast<std::int64_t>(rows.size());
    const std::int64_t tiles = (count + kRowsPerTile - 1) / kRowsPerTile;
    Sampled s;
    s.pe.resize(rows.size());
    s.embedding.resize(rows.size());
    const bool done = forEachTile(tiles, options.threads, options.cancel, [&](std::int64_t tile) {
        RowMatrixXf e(1, cols);
        for (std::int64_t i = tile * kRowsPerTile; i < std::min(count, (tile + 1) * kRowsPerTile); ++i) {
            const std::int64_t position = rows[static_cast<std::size_t>(i)];
            engine.computeBlock(Quantity::Embedding, {position, 1, 0, cols}, e);
            s.pe[static_cast<std::size_t>(i)] = peNorm(engine, position);
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

// The statistics per column over positions [0, rows): at exact angles the PE's in closed form
// (ColumnStatistics::sinusoidMoments), or none without a PE, and s*E's from its kept moments
// (EmbeddingMoments), with ||s*E_p|| for every one of those positions when `norms` is given; at
// float32 angles the PE's too are computed row by row (ColumnStatistics). Nothing when cancelled.
std::optional<ColumnStats> columnStats(const Engine &engine, std::int64_t rows, Eigen::ArrayXd *norms,
                                       const ComputeOptions &options)
{
    const Params &p = engine.params();
    const bool exact = rows >= p.maxLen;
    if (ColumnStatistics::check(engine))
        return std::nullopt; // refused: over the memory budget
    // The PE's statistics from its rows (float32 angles, a learned table); without a PE (T5, ALiBi, NoPE:
    // X = s*E) there are none to take, and s*E's come from its kept moments as beside the closed forms,
    // not from every cell generated again (two thirds of the view's time at L 65,536, d 768).
    if (!engine.positionTerm().hasClosedForms() && p.peColumns() > 0) {
        if (norms) {
            auto e = EmbeddingMoments::compute(engine, rows, true, options);
            if (!e)
                return std::nullopt;
            *norms = std::move(e->rowNorms);
        }
        return exact ? exactColumnStats(engine, options) : ColumnStatistics::estimate(engine, rows, options);
    }
    const auto e = EmbeddingMoments::compute(engine, rows, norms != nullptr, options);
    if (!e)
        return std::nullopt;
    if (norms)
        *norms = e->rowNorms;
    ColumnStats stats;
    for (Eigen::ArrayXd *a :
         {&stats.peMean, &stats.peStd, &stats.peRms, &stats.embeddingMean, &stats.embeddingStd, &stats.embeddingRms})
        *a = Eigen::ArrayXd::Zero(p.dModel);
    const std::int64_t k = p.peColumns();
    const std::int64_t offset = p.concatenates() ? p.embeddingColumns() : 0;
    Eigen::ArrayXd mean, meanSquare;
    ColumnStatistics::sinusoidMoments(k, p.sinusoidal, p.maxLen, mean, meanSquare);
    stats.peMean.segment(offset, k) = mean;
    stats.peStd.segment(offset, k) = (meanSquare - mean.square()).max(0.0).sqrt();
    stats.peRms.segment(offset, k) = meanSquare.sqrt();
    const std::int64_t cols = p.embeddingColumns();
    stats.embeddingMean.head(cols) = e->mean;
    stats.embeddingStd.head(cols) = e->std;
    stats.embeddingRms.head(cols) = (e->mean.square() + e->std.square()).sqrt();
    stats.rows = e->rows;
    stats.maxLen = p.maxLen;
    return stats;
}

} // namespace

std::int64_t exactRows(const Engine &engine)
{
    const Params &p = engine.params();
    return std::min(p.maxLen, Budget::exactRowsWithin(std::max<std::int64_t>(p.embeddingColumns(), 1)));
}

int passCount(const Engine &engine)
{
    const Params &p = engine.params();
    const std::int64_t cells = exactRows(engine) * std::max<std::int64_t>(p.embeddingColumns(), 1);
    int passes = 1;
    for (std::int64_t first = cells; first > Budget::cells(Detail::Full) && passes < kMaxPasses; first /= kPassGrowth)
        ++passes;
    return passes;
}

std::optional<MagnitudesData> compute(const Engine &engine, int pixels, Detail detail, const ComputeOptions &options,
                                      int pass)
{
    const Params &params = engine.params();
    const std::int64_t L = params.maxLen;
    const std::int64_t d = params.dModel;
    MagnitudesData data;
    data.maxLen = L;
    data.index = TitleText::rowIndex(params);
    const ExpectedNorms expected = Statistics::expectedNorms(params);
    if (expected.peSquared)
        data.expectedPeNorm = std::sqrt(*expected.peSquared);
    data.expectedEmbeddingNorm = std::sqrt(expected.embeddingSquared);
    data.input = Quantities::label(Quantity::Input, params);
    data.hasPositionTerm = params.peColumns() > 0;
    data.parameters = FigureText::parametersText(Quantity::Input, params);
    const bool concat = params.concatenates();
    data.expectedEmbeddingFormula = params.embeddings ? u"√(s² mean‖Eₚ‖²)"_s
        : concat                                      ? u"√(s²σ²(d−k))"_s
                                                      : u"√(s²σ²d)"_s;
    data.expectedPeFormula = concat ? u"√(k/2)"_s : u"√(d/2)"_s;
    for (std::int64_t j = 0; j < d; ++j)
        data.columns.append(static_cast<double>(j));

    const bool preview = detail == Detail::Preview;
    const std::int64_t budgetRows
        = preview ? previewRows(d) : std::max<std::int64_t>(1, Budget::cells(detail) / std::max<std::int64_t>(1, d));
    // Full detail: the statistics over the first L / 8^k positions in pass k from the last, all
    // of them in the last (s*E's rows are independent draws: a first part of them is a fair
    // sample, and what one pass measured is kept for the next); past the cap of every figure,
    // the last takes the positions within it, an estimate that says so.
    const int passes = passCount(engine);
    pass = pass < 0 ? passes - 1 : std::min(pass, passes - 1);
    std::int64_t statsRows = exactRows(engine);
    for (int k = pass; k < passes - 1; ++k)
        statsRows = std::max<std::int64_t>(1, statsRows / kPassGrowth);
    const bool everyPosition = !preview && L <= budgetRows;
    Eigen::ArrayXd embeddingNorms;
    const auto stats = preview ? ColumnStatistics::estimate(engine, budgetRows, options)
                               : columnStats(engine, statsRows, everyPosition ? &embeddingNorms : nullptr, options);
    if (!stats)
        return std::nullopt;
    data.peMean = toList(stats->peMean);
    data.peStd = toList(stats->peStd);
    data.peRms = toList(stats->peRms);
    data.embeddingMean = toList(stats->embeddingMean);
    data.embeddingStd = toList(stats->embeddingStd);
    data.embeddingRms = toList(stats->embeddingRms);
    data.rmsRows = stats->rows;

    if (everyPosition) {
        // Every position, exactly: s*E's norms came with its statistics.
        for (std::int64_t p = 0; p < L; ++p) {
            const double pe = peNorm(engine, p);
            const double embedding = embeddingNorms[p];
            data.positions.append(static_cast<double>(p));
            data.peNorm.append(pe);
            data.embeddingNorm.append(embedding);
            data.ratio.append(embedding / pe);
        }
        return data;
    }
    // Evenly spaced positions for the curves: in a preview a hundred or so (enough to see the
    // level and the spread), otherwise at most two per pixel, always within the budget.
    const std::int64_t perPixel = preview ? std::min(pixels, 160) : 2 * pixels;
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
