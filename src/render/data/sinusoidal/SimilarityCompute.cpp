#include "SimilarityCompute.h"

#include "render/data/Detail.h"

#include "core/MemoryBudget.h"
#include "core/TableAllocation.h"
#include "core/sinusoidal/Frequencies.h"
#include "core/sinusoidal/SimilarityOffsets.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::SimilarityCompute {

namespace {

// Rows computed at once by the direct sums: large enough for the engine, small for the cache.
constexpr std::int64_t kTileCells = std::int64_t(1) << 18;
// PE columns whose band means are held at once.
constexpr std::int64_t kChunkColumns = 1024;
// The products of the grid's cells by the PE's columns a figure computes at most (Detail.h's
// bound): past it the grid is coarser, each cell still the exact mean of its positions. At d 2^20
// a grid of the panel's 400 x 400 pixels took 2^37 products, minutes.
constexpr double kMaxGridProducts = double(Budget::kMaxExactCells);
// The cosines S(k)'s curve evaluates at most, a pair's at each offset: 2^26, about a second.
constexpr double kMaxCurveCosines = double(std::int64_t(1) << 26);

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

// Whether the band means come from the closed form (exact angles; unit rows only when every
// row has the same norm, even k) or from the table's rows.
bool closedFormApplies(const Params &params, bool unit)
{
    return params.sinusoidal.angles == Angles::Exact && (!unit || params.peColumns() % 2 == 0);
}

// Columns [c0, c1) of the band means in closed form.
Eigen::MatrixXd closedFormMeans(const Params &params, std::int64_t first, std::int64_t count, int bands, bool unit,
                                std::int64_t c0, std::int64_t c1)
{
    const std::int64_t k = params.peColumns();
    Eigen::MatrixXd means(bands, c1 - c0);
    // Even k: every row has the norm sqrt(k / 2).
    const double norm = unit ? std::sqrt(0.5 * static_cast<double>(k)) : 1.0;
    for (int b = 0; b < bands; ++b) {
        const std::int64_t a = bandStart(first, count, bands, b);
        const std::int64_t n = bandStart(first, count, bands, b + 1) - a;
        // Interleaved, a pair's two columns are neighbours: its means are taken once.
        std::int64_t pair = -1;
        std::pair<double, double> mean;
        for (std::int64_t j = c0; j < c1; ++j) {
            const ColumnRole role = Frequencies::role(j, k, params.sinusoidal);
            if (role.pair != pair) {
                pair = role.pair;
                mean = meanSinCos(a, n, Frequencies::angular(role.pair, k, params.sinusoidal));
            }
            means(b, j - c0) = (role.isCos ? mean.second : mean.first) / norm;
        }
    }
    return means;
}

// The norms of the table's PE rows [first, first + count), in double.
std::optional<std::vector<double>> rowNorms(const Engine &engine, std::int64_t first, std::int64_t count, int threads,
                                            const std::atomic<bool> *cancel)
{
    const std::int64_t k = engine.params().peColumns();
    const std::int64_t tileRows = std::max<std::int64_t>(1, kTileCells / std::max<std::int64_t>(k, 1));
    std::vector<double> norms(static_cast<std::size_t>(count));
    RowMatrixXf tile;
    for (std::int64_t r0 = first; r0 < first + count; r0 += tileRows) {
        const std::int64_t rows = std::min(tileRows, first + count - r0);
        tile.resize(rows, k);
        if (!engine.compute(Quantity::Pe, {r0, rows, 0, k}, tile, {threads, cancel}))
            return std::nullopt;
        for (std::int64_t r = 0; r < rows; ++r)
            norms[static_cast<std::size_t>(r0 + r - first)] = tile.row(r).cast<double>().norm();
    }
    return norms;
}

// Columns [c0, c1) of the band means from the table's rows, each divided by its norm when
// `norms` (of the rows from `first`) is given.
std::optional<Eigen::MatrixXd> directMeans(const Engine &engine, std::int64_t first, std::int64_t count, int bands,
                                           const std::vector<double> *norms, std::int64_t c0, std::int64_t c1,
                                           int threads, const std::atomic<bool> *cancel)
{
    const std::int64_t cols = c1 - c0;
    Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(bands, cols);
    const std::int64_t tileRows = std::max<std::int64_t>(1, kTileCells / std::max<std::int64_t>(cols, 1));
    RowMatrixXf tile;
    int band = 0;
    for (std::int64_t r0 = first; r0 < first + count; r0 += tileRows) {
        const std::int64_t rows = std::min(tileRows, first + count - r0);
        tile.resize(rows, cols);
        if (!engine.compute(Quantity::Pe, {r0, rows, c0, cols}, tile, {threads, cancel}))
            return std::nullopt;
        for (std::int64_t r = 0; r < rows; ++r) {
            const std::int64_t p = r0 + r;
            while (p >= bandStart(first, count, bands, band + 1))
                ++band;
            Eigen::VectorXd row = tile.row(r).cast<double>().transpose();
            if (norms) {
                const double norm = (*norms)[static_cast<std::size_t>(p - first)];
                if (norm > 0.0)
                    row /= norm;
            }
            sums.row(band) += row.transpose();
        }
        if (cancelled(cancel))
            return std::nullopt;
    }
    for (int b = 0; b < bands; ++b)
        sums.row(b) /= static_cast<double>(bandStart(first, count, bands, b + 1) - bandStart(first, count, bands, b));
    return sums;
}

// A side of the grid: its rows of the table, cut into bands, and their norms where the band
// means need them.
struct Side
{
    std::int64_t first;
    std::int64_t count;
    int bands;
    std::optional<std::vector<double>> norms;
};

// Columns [c0, c1) of a side's band means.
std::optional<Eigen::MatrixXd> sideMeans(const Engine &engine, const Side &side, bool unit, std::int64_t c0,
                                         std::int64_t c1, int threads, const std::atomic<bool> *cancel)
{
    if (closedFormApplies(engine.params(), unit))
        return closedFormMeans(engine.params(), side.first, side.count, side.bands, unit, c0, c1);
    return directMeans(engine, side.first, side.count, side.bands, side.norms ? &*side.norms : nullptr, c0, c1, threads,
                       cancel);
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

// The grid of S over the cells of `visible`: none when no cell is in view (a view dragged off the
// table). False when cancelled.
bool fillGrid(const Engine &engine, const HeatmapRequest &visible, bool cosine, int threads,
              const std::atomic<bool> *cancel, HeatmapGrid &grid)
{
    const Params &params = engine.params();
    const Block &block = visible.block;
    grid.quantity = Quantity::Similarity;
    grid.index = TitleText::rowIndex(params);
    grid.block = block;
    grid.rows = static_cast<int>(std::min<std::int64_t>(block.rows, std::max(1, visible.pixelRows)));
    grid.cols = static_cast<int>(std::min<std::int64_t>(block.cols, std::max(1, visible.pixelCols)));
    grid.colourExtent = cosine ? 1.0 : Quantities::bound(Quantity::Similarity, params);
    if (block.isEmpty()) {
        grid.rows = grid.cols = 0;
        return true;
    }
    const double products
        = double(grid.rows) * double(grid.cols) * double(std::max<std::int64_t>(1, params.peColumns()));
    if (products > kMaxGridProducts) {
        const double shrink = std::sqrt(kMaxGridProducts / products);
        grid.rows = std::max(1, static_cast<int>(grid.rows * shrink));
        grid.cols = std::max(1, static_cast<int>(grid.cols * shrink));
    }
    // S of a cell is the dot product of its two bands' mean rows, summed over the PE's columns a
    // chunk at a time: the band means of every column at once would take (rows + cols) x k
    // doubles, gigabytes at k 2^18.
    Side rows {block.row0, block.rows, grid.rows, std::nullopt};
    Side cols {block.col0, block.cols, grid.cols, std::nullopt};
    if (cosine && !closedFormApplies(params, true)) {
        rows.norms = rowNorms(engine, rows.first, rows.count, threads, cancel);
        cols.norms = rows.norms ? rowNorms(engine, cols.first, cols.count, threads, cancel) : std::nullopt;
        if (!cols.norms)
            return false;
    }
    const std::int64_t k = params.peColumns();
    Eigen::MatrixXd s = Eigen::MatrixXd::Zero(grid.rows, grid.cols);
    for (std::int64_t c0 = 0; c0 < k; c0 += kChunkColumns) {
        const std::int64_t c1 = std::min(k, c0 + kChunkColumns);
        const auto rowMeans = sideMeans(engine, rows, cosine, c0, c1, threads, cancel);
        if (!rowMeans)
            return false;
        const auto colMeans = sideMeans(engine, cols, cosine, c0, c1, threads, cancel);
        if (!colMeans || cancelled(cancel))
            return false;
        s.noalias() += *rowMeans * colMeans->transpose();
    }
    grid.values.resize(static_cast<std::size_t>(grid.rows) * grid.cols);
    for (int a = 0; a < grid.rows; ++a)
        for (int b = 0; b < grid.cols; ++b)
            grid.values[static_cast<std::size_t>(a) * grid.cols + b] = static_cast<float>(s(a, b));
    grid.minValue = s.minCoeff();
    grid.maxValue = s.maxCoeff();
    return true;
}

} // namespace

std::optional<Eigen::MatrixXd> bandMeans(const Engine &engine, std::int64_t first, std::int64_t count, int bands,
                                         bool unit, int threads, const std::atomic<bool> *cancel)
{
    Side side {first, count, bands, std::nullopt};
    if (unit && !closedFormApplies(engine.params(), unit)) {
        side.norms = rowNorms(engine, first, count, threads, cancel);
        if (!side.norms)
            return std::nullopt;
    }
    return sideMeans(engine, side, unit, 0, engine.params().peColumns(), threads, cancel);
}

std::optional<QString> check(const Engine &engine, const HeatmapRequest &visible, bool cosine)
{
    const Params &params = engine.params();
    const Block &block = visible.block;
    const auto gridRows
        = static_cast<std::uint64_t>(std::min<std::int64_t>(block.rows, std::max(1, visible.pixelRows)));
    const auto gridCols
        = static_cast<std::uint64_t>(std::min<std::int64_t>(block.cols, std::max(1, visible.pixelCols)));
    const auto chunk = static_cast<std::uint64_t>(std::min(kChunkColumns, params.peColumns()));
    // In float32 cells: the band means of a chunk of columns for both sides and the grid, in
    // double; the norms of every row of both sides where unit rows need them; a tile of the table.
    std::uint64_t cells = 2 * (gridRows + gridCols) * chunk + 2 * gridRows * gridCols + kTileCells;
    if (cosine && !closedFormApplies(params, true))
        cells += 2 * static_cast<std::uint64_t>(block.rows + block.cols);
    return MemoryBudget::check(cells, params.memoryBudget,
                               u"the similarity of %1 x %2 positions on a %3 x %4 grid"_s.arg(block.rows)
                                   .arg(block.cols)
                                   .arg(gridRows)
                                   .arg(gridCols));
}

double closedForm(const Params &params, double k, bool cosine)
{
    const std::int64_t d = params.peColumns();
    const std::int64_t whole = d / 2;
    double sum = 0.0;
    for (std::int64_t i = 0; i < whole; ++i)
        sum += std::cos(k * Frequencies::angular(i, d, params.sinusoidal));
    double norm2 = static_cast<double>(whole);
    if (d % 2 == 1) {
        sum += 0.5 * std::cos(k * Frequencies::angular(whole, d, params.sinusoidal));
        norm2 += 0.5;
    }
    return cosine ? sum / norm2 : sum;
}

std::optional<SimilarityData> compute(const Engine &engine, const HeatmapRequest &visible, bool cosine,
                                      const ViewRange &offsets, int pixels, int width, int threads,
                                      const std::atomic<bool> *cancel)
{
    const Params &params = engine.params();
    SimilarityData data;
    data.table = engine.shape(Quantity::Similarity);
    data.cosine = cosine;
    data.peColumns = params.peColumns();
    data.translationInvariant = data.peColumns % 2 == 0 && params.sinusoidal.angles == Angles::Exact;
    if (!fillGrid(engine, visible, cosine, threads, cancel, data.grid))
        return std::nullopt;

    // S against the offset, over the offsets in view.
    // A view dragged past the last offset keeps the last: every offset measured is within the table.
    const double lastOffset = static_cast<double>(params.maxLen - 1);
    const double lo = std::clamp(std::min(offsets.lower, offsets.upper), 0.0, lastOffset);
    const double hi = std::clamp(std::max(offsets.lower, offsets.upper), lo, lastOffset);
    // One offset in view (L = 1) is one point of the closed form, not 16 alike.
    const double pairs = std::max(1.0, double(params.peColumns()) / 2.0);
    const int curveMost = static_cast<int>(std::clamp(kMaxCurveCosines / pairs, 16.0, 20000.0));
    const int dense = hi > lo ? std::clamp(2 * pixels, 16, curveMost) : 1;
    for (int i = 0; i < dense; ++i) {
        const double k = dense > 1 ? lo + (hi - lo) * i / (dense - 1) : lo;
        data.offsets.append(k);
        data.closedForm.append(closedForm(params, k, cosine));
    }
    const auto first = static_cast<std::int64_t>(std::ceil(lo));
    const auto last = static_cast<std::int64_t>(std::floor(hi));
    const std::int64_t count = last - first + 1;
    const std::int64_t shown = std::min<std::int64_t>(count, std::max(2, width / kMarkerPitch));
    for (std::int64_t i = 0; i < shown; ++i)
        data.measuredOffsets.append(static_cast<double>(shown == 1 ? first : first + (count - 1) * i / (shown - 1)));
    auto atFirst = measured(engine, 0, data.measuredOffsets, cosine, cancel);
    if (!atFirst)
        return std::nullopt;
    data.measuredFirst = std::move(*atFirst);
    data.middle = SimilarityOffsets::middleRow(params.maxLen, last);
    if (data.middle > 0) {
        auto atMiddle = measured(engine, data.middle, data.measuredOffsets, cosine, cancel);
        if (!atMiddle)
            return std::nullopt;
        data.measuredMiddle = std::move(*atMiddle);
    }
    return data;
}

} // namespace posenc::SimilarityCompute
