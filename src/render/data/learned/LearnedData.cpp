#include "LearnedData.h"

#include "core/ClosedForms.h"
#include "core/PositionalTable.h"

#include <algorithm>
#include <cmath>

namespace posenc::LearnedCompute {

namespace {

// Band b of n over `total` items: [b * total / n, (b + 1) * total / n).
std::int64_t bandStart(std::int64_t b, std::int64_t n, std::int64_t total)
{
    return b * total / n;
}

void setRange(HeatmapGrid &grid)
{
    const auto [lo, hi] = std::minmax_element(grid.values.begin(), grid.values.end());
    grid.minValue = grid.values.empty() ? 0.0 : *lo;
    grid.maxValue = grid.values.empty() ? 0.0 : *hi;
}

// Means of `bands` row bands of the table, in double.
Eigen::MatrixXd bandMeans(const RowMatrixXf &table, int bands)
{
    Eigen::MatrixXd means(bands, table.cols());
    for (int a = 0; a < bands; ++a) {
        const std::int64_t r0 = bandStart(a, bands, table.rows());
        const std::int64_t r1 = bandStart(a + 1, bands, table.rows());
        means.row(a) = table.middleRows(r0, r1 - r0).cast<double>().colwise().mean();
    }
    return means;
}

} // namespace

HeatmapGrid areaAverage(const RowMatrixXf &table, int maxRows, int maxCols)
{
    HeatmapGrid grid;
    grid.block = {0, table.rows(), 0, table.cols()};
    grid.rows = static_cast<int>(std::min<std::int64_t>(table.rows(), std::max(maxRows, 1)));
    grid.cols = static_cast<int>(std::min<std::int64_t>(table.cols(), std::max(maxCols, 1)));
    const Eigen::MatrixXd rows = bandMeans(table, grid.rows);
    grid.values.resize(static_cast<std::size_t>(grid.rows) * grid.cols);
    for (int b = 0; b < grid.cols; ++b) {
        const std::int64_t c0 = bandStart(b, grid.cols, table.cols());
        const std::int64_t c1 = bandStart(b + 1, grid.cols, table.cols());
        const Eigen::VectorXd column = rows.middleCols(c0, c1 - c0).rowwise().mean();
        for (int a = 0; a < grid.rows; ++a)
            grid.values[static_cast<std::size_t>(a) * grid.cols + b] = static_cast<float>(column(a));
    }
    setRange(grid);
    return grid;
}

HeatmapGrid similarity(const RowMatrixXf &table, int pixels)
{
    HeatmapGrid grid;
    grid.quantity = Quantity::Similarity;
    grid.block = {0, table.rows(), 0, table.rows()};
    grid.rows = grid.cols = static_cast<int>(std::min<std::int64_t>(table.rows(), std::max(pixels, 1)));
    const Eigen::MatrixXd means = bandMeans(table, grid.rows);
    const Eigen::MatrixXd s = means * means.transpose();
    grid.values.resize(static_cast<std::size_t>(grid.rows) * grid.cols);
    for (int a = 0; a < grid.rows; ++a)
        for (int b = 0; b < grid.cols; ++b)
            grid.values[static_cast<std::size_t>(a) * grid.cols + b] = static_cast<float>(s(a, b));
    setRange(grid);
    return grid;
}

std::optional<LearnedData> compute(const RowMatrixXf &learned, std::int64_t paddingRows, const Params &params,
                                   QSize tablePixels, int similarityPixels, const std::atomic<bool> *cancel)
{
    const auto cancelled = [cancel] { return cancel && cancel->load(); };
    LearnedData data;
    data.paddingRows = paddingRows;
    data.rows = learned.rows() - paddingRows;
    data.cols = learned.cols();
    const auto positionRows = learned.bottomRows(data.rows);
    RowMatrixXf pe(data.rows, data.cols);
    PositionalTable(data.cols, params.sinusoidal, params.sinusoidal.angles).fill({0, data.rows, 0, data.cols}, pe);
    if (cancelled())
        return std::nullopt;
    // The two tables through the heatmap view's resampler (a Gaussian area filter, so the
    // fast columns of the PE do not alias into moire): the learned one, padding rows and all, as
    // E with s = 1; the PE of the sinusoid of the same shape.
    const ComputeOptions options {1, cancel};
    const auto resample = [&](const Params &tables, Quantity q, std::int64_t rows) -> std::optional<HeatmapGrid> {
        const Engine engine(tables);
        HeatmapRequest request;
        request.quantity = q;
        request.block = {0, rows, 0, data.cols};
        request.pixelRows = std::max(tablePixels.height(), 1);
        request.pixelCols = std::max(tablePixels.width(), 1);
        return HeatmapResampler::resample(engine, request, options);
    };
    // The learned figure sets the sinusoidal table of the same shape beside the learned one: it
    // names the sinusoid, the family a learned table replaced.
    Params tables = params;
    tables.encoding = Encoding::Sinusoidal;
    tables.dModel = data.cols;
    tables.maxLen = data.rows;
    tables.compose = Compose::Sum;
    tables.scaleKind = ScaleKind::One;
    tables.seqLen.reset();
    auto sinusoidal = resample(tables, Quantity::Pe, data.rows);
    if (!sinusoidal)
        return std::nullopt;
    data.sinusoidal = std::move(*sinusoidal);
    tables.maxLen = learned.rows();
    tables.embeddings = std::make_shared<const EmbeddingMatrix>(EmbeddingMatrix {learned, QString(), QString()});
    auto table = resample(tables, Quantity::Embedding, learned.rows());
    if (!table)
        return std::nullopt;
    data.learned = std::move(*table);
    data.learned.block.row0 = -paddingRows; // row r holds position r - offset
    data.learnedSimilarity = similarity(positionRows, similarityPixels);
    if (cancelled())
        return std::nullopt;
    data.sinusoidalSimilarity = similarity(pe, similarityPixels);
    data.positions.reserve(data.rows);
    double peSum = 0.0;
    for (std::int64_t r = 0; r < learned.rows(); ++r) {
        data.learnedPositions.append(static_cast<double>(r - paddingRows));
        data.learnedNorm.append(learned.row(r).cast<double>().norm());
        if (r >= paddingRows)
            data.learnedMeanNorm += data.learnedNorm.back();
    }
    for (std::int64_t p = 0; p < data.rows; ++p) {
        data.positions.append(static_cast<double>(p));
        data.sinusoidalNorm.append(pe.row(p).cast<double>().norm());
        peSum += data.sinusoidalNorm.back();
    }
    if (data.rows > 0) {
        data.learnedMeanNorm /= static_cast<double>(data.rows);
        peSum /= static_cast<double>(data.rows);
    }
    const bool closedForm = data.cols % 2 == 0; // d / 2 sin^2 + cos^2 pairs in either layout
    data.expectedPeNorm = closedForm ? std::sqrt(ClosedForms::peNormSquared(data.cols)) : peSum;
    return data;
}

} // namespace posenc::LearnedCompute
