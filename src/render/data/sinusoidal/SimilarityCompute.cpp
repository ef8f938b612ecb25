#include "SimilarityCompute.h"

#include "render/data/ColourScale.h"

#include "core/TableAllocation.h"
#include "core/sinusoidal/Frequencies.h"

#include <algorithm>
#include <cmath>

namespace posenc::SimilarityCompute {

namespace {

// Rows computed at once by the direct sums: large enough for the engine, small for the cache.
constexpr std::int64_t kTileCells = std::int64_t(1) << 18;

bool cancelled(const std::atomic<bool> *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

std::int64_t bandStart(std::int64_t first, std::int64_t count, int bands, int b)
{
    return first + count * b / bands;
}

// The mean of sin(p w) and cos(p w) over p in [a, a + n): a geometric series,
// sum_p e^{ipw} = e^{i(a + (n - 1)/2)w} sin(nw/2) / sin(w/2).
std::pair<double, double> meanSinCos(std::int64_t a, std::int64_t n, double w)
{
    const double centre = (static_cast<double>(a) + 0.5 * static_cast<double>(n - 1)) * w;
    const double half = 0.5 * w;
    const double factor
        = n == 1 ? 1.0 : std::sin(static_cast<double>(n) * half) / (static_cast<double>(n) * std::sin(half));
    return {std::sin(centre) * factor, std::cos(centre) * factor};
}

Eigen::MatrixXd closedFormMeans(const Params &params, std::int64_t first, std::int64_t count, int bands, bool unit)
{
    const std::int64_t k = params.peColumns();
    const std::int64_t pairs = Frequencies::pairCount(k);
    Eigen::MatrixXd means(bands, k);
    std::vector<double> sines(static_cast<std::size_t>(pairs)), cosines(static_cast<std::size_t>(pairs));
    // Even k: every row has the norm sqrt(k / 2).
    const double norm = unit ? std::sqrt(0.5 * static_cast<double>(k)) : 1.0;
    for (int b = 0; b < bands; ++b) {
        const std::int64_t a = bandStart(first, count, bands, b);
        const std::int64_t n = bandStart(first, count, bands, b + 1) - a;
        for (std::int64_t i = 0; i < pairs; ++i) {
            const auto [s, c] = meanSinCos(a, n, Frequencies::angular(i, k, params.sinusoidal.base));
            sines[static_cast<std::size_t>(i)] = s / norm;
            cosines[static_cast<std::size_t>(i)] = c / norm;
        }
        for (std::int64_t j = 0; j < k; ++j) {
            const ColumnRole role = Frequencies::role(j, k, params.sinusoidal.layout);
            means(b, j) = (role.isCos ? cosines : sines)[static_cast<std::size_t>(role.pair)];
        }
    }
    return means;
}

std::optional<Eigen::MatrixXd> directMeans(const Engine &engine, std::int64_t first, std::int64_t count, int bands,
                                           bool unit, int threads, const std::atomic<bool> *cancel)
{
    const std::int64_t k = engine.params().peColumns();
    Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(bands, k);
    const std::int64_t tileRows = std::max<std::int64_t>(1, kTileCells / std::max<std::int64_t>(k, 1));
    RowMatrixXf tile;
    int band = 0;
    for (std::int64_t r0 = first; r0 < first + count; r0 += tileRows) {
        const std::int64_t rows = std::min(tileRows, first + count - r0);
        tile.resize(rows, k);
        if (!engine.compute(Quantity::Pe, {r0, rows, 0, k}, tile, {threads, cancel}))
            return std::nullopt;
        for (std::int64_t r = 0; r < rows; ++r) {
            const std::int64_t p = r0 + r;
            while (p >= bandStart(first, count, bands, band + 1))
                ++band;
            Eigen::VectorXd row = tile.row(r).cast<double>().transpose();
            if (unit && row.norm() > 0.0)
                row /= row.norm();
            sums.row(band) += row.transpose();
        }
        if (cancelled(cancel))
            return std::nullopt;
    }
    for (int b = 0; b < bands; ++b)
        sums.row(b) /= static_cast<double>(bandStart(first, count, bands, b + 1) - bandStart(first, count, bands, b));
    return sums;
}

// The dot products of PE rows p0 and p0 + k for the offsets `ks`, from the table.
std::optional<QList<double>> measured(const Engine &engine, std::int64_t p0, const QList<double> &ks, bool cosine,
                                      const std::atomic<bool> *cancel)
{
    const std::int64_t k = engine.params().peColumns();
    RowMatrixXf base(1, k), other(1, k);
    engine.computeBlock(Quantity::Pe, {p0, 1, 0, k}, base);
    const Eigen::VectorXd a = base.row(0).cast<double>().transpose();
    QList<double> values;
    for (const double offset : ks) {
        if (cancelled(cancel))
            return std::nullopt;
        engine.computeBlock(Quantity::Pe, {p0 + static_cast<std::int64_t>(offset), 1, 0, k}, other);
        const Eigen::VectorXd b = other.row(0).cast<double>().transpose();
        const double dot = a.dot(b);
        values.append(cosine ? dot / std::max(a.norm() * b.norm(), 1e-300) : dot);
    }
    return values;
}

} // namespace

std::optional<Eigen::MatrixXd> bandMeans(const Engine &engine, std::int64_t first, std::int64_t count, int bands,
                                         bool unit, int threads, const std::atomic<bool> *cancel)
{
    const Params &params = engine.params();
    if (params.sinusoidal.angles == Angles::Exact && (!unit || params.peColumns() % 2 == 0))
        return closedFormMeans(params, first, count, bands, unit);
    return directMeans(engine, first, count, bands, unit, threads, cancel);
}

double closedForm(const Params &params, double k, bool cosine)
{
    const std::int64_t d = params.peColumns();
    const std::int64_t whole = d / 2;
    double sum = 0.0;
    for (std::int64_t i = 0; i < whole; ++i)
        sum += std::cos(k * Frequencies::angular(i, d, params.sinusoidal.base));
    double norm2 = static_cast<double>(whole);
    if (d % 2 == 1) {
        sum += 0.5 * std::cos(k * Frequencies::angular(whole, d, params.sinusoidal.base));
        norm2 += 0.5;
    }
    return cosine ? sum / norm2 : sum;
}

std::optional<SimilarityData> compute(const Engine &engine, const HeatmapRequest &visible, bool cosine,
                                      const ViewRange &offsets, int pixels, int threads,
                                      const std::atomic<bool> *cancel)
{
    const Params &params = engine.params();
    SimilarityData data;
    data.table = engine.shape(Quantity::Similarity);
    data.cosine = cosine;
    data.peColumns = params.peColumns();
    data.translationInvariant = data.peColumns % 2 == 0 && params.sinusoidal.angles == Angles::Exact;
    const Block &block = visible.block;
    HeatmapGrid &grid = data.grid;
    grid.quantity = Quantity::Similarity;
    grid.block = block;
    grid.rows = static_cast<int>(std::min<std::int64_t>(block.rows, std::max(1, visible.pixelRows)));
    grid.cols = static_cast<int>(std::min<std::int64_t>(block.cols, std::max(1, visible.pixelCols)));
    const auto rowMeans = bandMeans(engine, block.row0, block.rows, grid.rows, cosine, threads, cancel);
    if (!rowMeans)
        return std::nullopt;
    const auto colMeans = bandMeans(engine, block.col0, block.cols, grid.cols, cosine, threads, cancel);
    if (!colMeans)
        return std::nullopt;
    const Eigen::MatrixXd s = *rowMeans * colMeans->transpose();
    grid.values.resize(static_cast<std::size_t>(grid.rows) * grid.cols);
    for (int a = 0; a < grid.rows; ++a)
        for (int b = 0; b < grid.cols; ++b)
            grid.values[static_cast<std::size_t>(a) * grid.cols + b] = static_cast<float>(s(a, b));
    grid.minValue = s.minCoeff();
    grid.maxValue = s.maxCoeff();
    grid.colourExtent = cosine ? 1.0 : ColourScale::extent(Quantity::Similarity, params);

    // S against the offset, over the offsets in view.
    const double lo = std::max(0.0, std::min(offsets.lower, offsets.upper));
    const double hi = std::clamp(std::max(offsets.lower, offsets.upper), lo, static_cast<double>(params.maxLen - 1));
    // One offset in view (L = 1) is one point of the closed form, not 16 alike.
    const int dense = hi > lo ? std::clamp(2 * pixels, 16, 20000) : 1;
    for (int i = 0; i < dense; ++i) {
        const double k = dense > 1 ? lo + (hi - lo) * i / (dense - 1) : lo;
        data.offsets.append(k);
        data.closedForm.append(closedForm(params, k, cosine));
    }
    const auto first = static_cast<std::int64_t>(std::ceil(lo));
    const auto last = static_cast<std::int64_t>(std::floor(hi));
    const std::int64_t count = last - first + 1;
    const std::int64_t shown = std::min<std::int64_t>(count, std::max(8, pixels / 3));
    for (std::int64_t i = 0; i < shown; ++i)
        data.measuredOffsets.append(static_cast<double>(shown == 1 ? first : first + (count - 1) * i / (shown - 1)));
    auto atFirst = measured(engine, 0, data.measuredOffsets, cosine, cancel);
    if (!atFirst)
        return std::nullopt;
    data.measuredFirst = std::move(*atFirst);
    data.middle = std::max<std::int64_t>(0, std::min((params.maxLen - 1) / 2, params.maxLen - 1 - last));
    if (data.middle > 0) {
        auto atMiddle = measured(engine, data.middle, data.measuredOffsets, cosine, cancel);
        if (!atMiddle)
            return std::nullopt;
        data.measuredMiddle = std::move(*atMiddle);
    }
    return data;
}

} // namespace posenc::SimilarityCompute
