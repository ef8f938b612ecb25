#include "ScaleCompareData.h"

#include "core/TitleText.h"
#include "render/data/FigureText.h"

#include "core/ClosedForms.h"
#include "core/ColumnStatistics.h"
#include "core/Statistics.h"
#include "core/ThreadPools.h"

#include <cmath>
#include <vector>

#include <deque>

using namespace Qt::StringLiterals;

namespace posenc::ScaleCompareCompute {

namespace {

constexpr std::int64_t kRowsPerTile = 32;
constexpr std::int64_t kTablesPerRow = 5; // the PE and the four s*E

// mean_p ||PE_p||^2 over p < L: k/2 for whole sin/cos pairs, else the sum of the columns' mean
// squares in closed form (a lone sine column's mean square depends on L).
double meanSquaredPeNorm(const Params &params)
{
    if (const auto squared = Statistics::expectedNorms(params).peSquared)
        return *squared;
    Eigen::ArrayXd mean, meanSquare;
    ColumnStatistics::sinusoidMoments(params.peColumns(), params.sinusoidal, params.maxLen, mean, meanSquare);
    return meanSquare.sum();
}

// The squared norms' closed forms as the parameters write them.
QString embeddingSquared(const Params &params)
{
    return params.concatenates() ? u"s²σ²(d−k)"_s : u"s²σ²d"_s;
}

QString peSquared(const Params &params)
{
    if (params.peColumns() % 2 != 0)
        return u"mean‖PEₚ‖²"_s;
    return params.concatenates() ? u"k/2"_s : u"d/2"_s;
}

// sigma and s as rules of d where they follow it ("σ = d^-1/2", "s = √d"), else their values.
QString sigmaRule(const Params &params)
{
    if (params.init == InitKind::ScaledNormal)
        return u"σ = d^-1/2"_s;
    const QString sigma = u"σ = %1"_s.arg(NumberText::compact(params.sigma()));
    return params.init == InitKind::KerasUniform ? u"U(±0.05), "_s + sigma : sigma;
}

QString scaleRule(const Params &params)
{
    return params.scaleKind == ScaleKind::Sqrt ? u"s = √d"_s : u"s = %1"_s.arg(NumberText::compact(params.scale()));
}

} // namespace

QList<Params> variants(const Params &params)
{
    QList<Params> list;
    for (const InitKind init : {InitKind::Normal, InitKind::ScaledNormal}) {
        for (const ScaleKind scale : {ScaleKind::One, ScaleKind::Sqrt}) {
            Params p = params;
            p.init = init;
            p.scaleKind = scale;
            p.embeddings.reset();
            list.append(p);
        }
    }
    return list;
}

std::int64_t positionStride(const Params &params, Detail detail)
{
    const std::int64_t perRow = kTablesPerRow * std::max<std::int64_t>(1, params.dModel);
    const std::int64_t rows = std::max<std::int64_t>(1, Budget::cells(detail) / perRow);
    return (params.maxLen + rows - 1) / rows;
}

double expectedRatio(const Params &params)
{
    const double pe = ClosedForms::peNormSquared(params.peColumns());
    const double embedding
        = ClosedForms::embeddingNormSquared(params.scale(), params.sigma(), params.embeddingColumns());
    return pe > 0.0 ? std::sqrt(embedding / pe) : INFINITY;
}

RatioAgainstD ratioAgainstD(const Params &params, const QString &label, bool yours)
{
    constexpr double kFirstD = 16.0, kLastD = 16384.0;
    constexpr int kPerOctave = 4;
    RatioAgainstD curve;
    curve.label = label;
    curve.yours = yours;
    const double last
        = std::min(std::max(kLastD, 4.0 * static_cast<double>(params.dModel)), double(Params::kMaxDModel));
    const int steps = static_cast<int>(std::lround(std::log2(last / kFirstD) * kPerOctave));
    for (int i = 0; i <= steps; ++i) {
        Params p = params;
        p.dModel = static_cast<std::int64_t>(std::llround(kFirstD * std::exp2(double(i) / kPerOctave)));
        if (p.embeddingColumns() <= 0 || p.peColumns() <= 0 || p.peColumns() > p.dModel)
            continue;
        curve.d.append(static_cast<double>(p.dModel));
        curve.ratio.append(expectedRatio(p));
    }
    return curve;
}

std::optional<ScaleCompareData> compute(const Params &params, Detail detail, const ComputeOptions &options)
{
    const QList<Params> panels = variants(params);
    std::deque<Engine> engines;
    for (const Params &p : panels)
        engines.emplace_back(p);

    ScaleCompareData data;
    data.maxLen = params.maxLen;
    data.concat = params.concatenates();
    data.loadedMatrixSetAside = params.embeddings != nullptr;
    data.meanSquaredPeNorm = meanSquaredPeNorm(params);
    const QString peFormula = peSquared(params);
    data.ratioFormula = u"√(%1 / %2)"_s.arg(embeddingSquared(params),
                                            peFormula.contains(u'/') ? u"(%1)"_s.arg(peFormula) : peFormula);
    data.expectedEmbeddingFormula = u"√(%1)"_s.arg(embeddingSquared(params));
    data.expectedPeFormula = u"√(%1)"_s.arg(peSquared(params));
    QStringList parameters {TitleText::tableText(params)};
    if (data.concat)
        parameters.append(u"X = [s·E | PE]: "_s + TitleText::composeText(params));
    if (const QString variant = TitleText::peVariantText(params); !variant.isEmpty())
        parameters.append(variant);
    data.parameters = parameters.join(u"  ·  "_s);

    data.positionStride = positionStride(params, detail);
    data.index = TitleText::rowIndex(params);
    std::vector<std::int64_t> rows;
    for (std::int64_t p = 0; p < params.maxLen; p += data.positionStride)
        rows.push_back(p);
    const auto count = static_cast<std::int64_t>(rows.size());
    const std::int64_t k = params.peColumns();
    const std::int64_t dE = params.embeddingColumns();
    // Squared norms per row: the PE's, then each panel's s*E.
    std::vector<double> pe(rows.size());
    std::vector<std::vector<double>> embedding(engines.size(), std::vector<double>(rows.size()));
    const std::int64_t tiles = (count + kRowsPerTile - 1) / kRowsPerTile;
    const bool done = forEachTile(tiles, options.threads, options.cancel, [&](std::int64_t tile) {
        RowMatrixXf peRow(1, std::max<std::int64_t>(k, 1)), eRow(1, std::max<std::int64_t>(dE, 1));
        for (std::int64_t i = tile * kRowsPerTile; i < std::min(count, (tile + 1) * kRowsPerTile); ++i) {
            const auto r = static_cast<std::size_t>(i);
            engines.front().computeBlock(Quantity::Pe, {rows[r], 1, 0, k}, peRow.leftCols(k));
            pe[r] = peRow.leftCols(k).cast<double>().squaredNorm();
            for (std::size_t v = 0; v < engines.size(); ++v) {
                engines[v].computeBlock(Quantity::Embedding, {rows[r], 1, 0, dE}, eRow.leftCols(dE));
                embedding[v][r] = eRow.leftCols(dE).cast<double>().squaredNorm();
            }
        }
    });
    if (!done)
        return std::nullopt;

    double peSum = 0.0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        data.positions.append(static_cast<double>(rows[r]));
        data.peNorm.append(std::sqrt(pe[r]));
        peSum += pe[r];
    }
    for (std::size_t v = 0; v < engines.size(); ++v) {
        const Params &p = panels[static_cast<qsizetype>(v)];
        ScaleVariant variant;
        variant.init = p.init;
        variant.scale = p.scaleKind;
        variant.sigma = p.sigma();
        variant.s = p.scale();
        variant.sigmaText = TitleText::sigmaText(p);
        variant.scaleText = TitleText::scaleText(p);
        double sum = 0.0;
        for (const double squared : embedding[v]) {
            variant.embeddingNorm.append(std::sqrt(squared));
            sum += squared;
        }
        const double expectedSquared = variant.s * variant.s * variant.sigma * variant.sigma * static_cast<double>(dE);
        variant.expectedEmbeddingNorm = std::sqrt(expectedSquared);
        variant.measuredRatio = peSum > 0.0 ? std::sqrt(sum / peSum) : INFINITY;
        variant.expectedRatio
            = data.meanSquaredPeNorm > 0.0 ? std::sqrt(expectedSquared / data.meanSquaredPeNorm) : INFINITY;
        data.variants.append(variant);
        data.ratios.append(ratioAgainstD(p, u"%1, %2"_s.arg(sigmaRule(p), scaleRule(p)), false));
    }
    data.d = static_cast<double>(params.dModel);
    if (!data.loadedMatrixSetAside) {
        data.ownRatio = expectedRatio(params);
        data.ratios.append(ratioAgainstD(params, u"yours: %1, %2"_s.arg(sigmaRule(params), scaleRule(params)), true));
    }
    return data;
}

} // namespace posenc::ScaleCompareCompute
