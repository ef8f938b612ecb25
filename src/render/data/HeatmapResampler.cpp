#include "HeatmapResampler.h"

#include "Detail.h"
#include "HeatmapFilter.h"
#include "HeatmapParts.h"
#include "RowSampling.h"

#include "core/AccumulateSimd.h"
#include "core/PositionalTable.h"
#include "core/ThreadPools.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posenc::HeatmapResampler {

namespace {

// Cells of D computed at once by one worker: large enough to amortise a block's set-up, small
// enough for the cache.
constexpr std::int64_t kTileCells = std::int64_t(1) << 18;
// Tiles whose partial sums are kept before they are added, in tile order: the memory of the
// partial sums stays bounded and the result does not depend on the thread count.
constexpr std::int64_t kChunkTiles = 32;
// Windows of the closed forms filtered together (ColumnWeights reads its weights once for them).
constexpr std::int64_t kBatchWindows = 8;
constexpr std::int64_t kBatchBytes = std::int64_t(16) << 20;

struct Setup
{
    Block block;
    AxisFilter rows;
    AxisFilter cols;
    QuantityParts parts;
    RowSampling sampling;
};

std::optional<Setup> setUp(const Engine &engine, const HeatmapRequest &request)
{
    const Block &block = request.block;
    const Shape shape = engine.shape(request.quantity);
    if (block.isEmpty() || block.row0 < 0 || block.col0 < 0 || block.rowEnd() > shape.rows
        || block.colEnd() > shape.cols)
        return std::nullopt;
    const int rows = static_cast<int>(std::min<std::int64_t>(block.rows, std::max(1, request.pixelRows)));
    const int cols = static_cast<int>(std::min<std::int64_t>(block.cols, std::max(1, request.pixelCols)));
    const AxisFilter rowFilter(block.row0, block.rows, rows);
    const bool closedForms = !rowFilter.isIdentity() && rowFilter.sigma() >= GaussianSum::kMinSigma;
    return Setup {block, rowFilter, AxisFilter(block.col0, block.cols, cols),
                  QuantityParts::of(engine, request.quantity, closedForms),
                  RowSampling(block.row0, block.rows, block.cols, rowFilter.spacing(), request.cellBudget)};
}

int passesOf(const Setup &s)
{
    return s.parts.hasDirect ? s.sampling.passCount() : 1;
}

// Adds the closed-form part K to `sums` (rows x cols): the PE means of each grid row's
// window, then the column filter over the columns that are not zero; and, given `variance`, each
// column's variance over the window, E[K^2] - E[K]^2, through the same column filter. Both in one
// run over the windows, which shares the means (and the edge windows' series, the costly part).
bool addClosed(const Engine &engine, const Setup &s, const ColumnWeights &columns, std::vector<double> &sums,
               std::vector<double> *variance, const ComputeOptions &options)
{
    const Params &p = engine.params();
    const RowWindows rows = s.rows.windows(s.parts.peRowEnd - 1);
    const PeWindowMeans means(p.peColumns(), p.sinusoidal, rows, Moment::Mean);
    std::optional<PeWindowMeans> squares;
    if (variance)
        squares.emplace(p.peColumns(), p.sinusoidal, rows, Moment::Square);
    const std::int64_t q0 = std::max(s.block.col0, s.parts.peColumn0);
    const std::int64_t q1 = std::min(s.block.colEnd(), s.parts.peColumn0 + s.parts.peColumns);
    if (q1 <= q0)
        return true;
    // In PE columns: what the block holds, and where the live pairs begin (the means of the
    // pairs before are 0; their variances are not).
    const std::int64_t pe0 = q0 - s.parts.peColumn0, pe1 = q1 - s.parts.peColumn0;
    const std::int64_t live
        = p.sinusoidal.layout == Layout::Interleaved ? 2 * means.firstLivePair() : means.firstLivePair();
    const std::int64_t livePe0 = std::clamp(live, pe0, pe1);
    const std::int64_t gridCols = s.cols.cells();
    const std::int64_t band = PeWindowMeans::kAnchorWindows;
    const std::int64_t windows = s.rows.cells();
    // Windows go through the column filter a batch at a time, which reads its weights once.
    struct Batch
    {
        std::vector<double> values;
        std::vector<std::int64_t> windows;
    };
    const auto flush = [&](Batch &batch, std::vector<double> &out, std::int64_t blockFrom, std::int64_t blockTo) {
        const auto &batched = batch.windows;
        for (std::size_t r = 0; r < batched.size();) {
            // Consecutive windows share one call (their sums are gridCols apart).
            std::size_t n = 1;
            while (r + n < batched.size() && batched[r + n] == batched[r] + static_cast<std::int64_t>(n))
                ++n;
            columns.addReduced(batch.values.data() + r * static_cast<std::size_t>(blockTo - blockFrom),
                               blockTo - blockFrom, static_cast<int>(n), blockFrom, blockTo,
                               out.data() + static_cast<std::size_t>(batched[r] * gridCols), gridCols);
            r += n;
        }
        batch.values.clear();
        batch.windows.clear();
    };
    const std::int64_t toBlock = s.parts.peColumn0 - s.block.col0;
    // Away from the edges a pair before the live ones has the mean 0 and the mean square 1/2 (its
    // 2 w dies sooner still): its columns' variance is 1/2 in every such window, which the column
    // filter turns into one row, added to each window's. At d 8192 these are most columns.
    std::vector<double> deadVariance;
    if (variance && livePe0 > pe0) {
        deadVariance.assign(static_cast<std::size_t>(gridCols), 0.0);
        const std::vector<double> half(static_cast<std::size_t>(livePe0 - pe0), 0.5);
        columns.addReduced(half.data(), pe0 + toBlock, livePe0 + toBlock, deadVariance.data());
    }
    return forEachTile((windows + band - 1) / band, options.threads, options.cancel, [&](std::int64_t tile) {
        Batch meanBatch, varianceBatch;
        std::vector<double> firstMeans; // with `variance`: the means of the windows in hand
        const std::int64_t end = std::min(windows, (tile + 1) * band);
        for (std::int64_t a = tile * band; a < end;) {
            const bool edge = means.meetsEdge(a);
            std::int64_t next = a + 1;
            while (next < end && means.meetsEdge(next) == edge)
                ++next;
            if (variance && !edge && !deadVariance.empty()) {
                for (std::int64_t window = a; window < next; ++window)
                    std::transform(deadVariance.begin(), deadVariance.end(),
                                   variance->begin() + static_cast<std::ptrdiff_t>(window * gridCols),
                                   variance->begin() + static_cast<std::ptrdiff_t>(window * gridCols), std::plus<>());
            }
            const std::int64_t from = edge ? pe0 : livePe0;
            if (from < pe1) {
                const std::int64_t width = pe1 - from;
                const std::int64_t batchWindows = std::clamp<std::int64_t>(kBatchBytes / (8 * width), 1, kBatchWindows);
                // Room for the whole batch at once: grown a window at a time, it would be copied
                // over and over.
                meanBatch.values.reserve(static_cast<std::size_t>(batchWindows * width));
                if (variance)
                    varianceBatch.values.reserve(static_cast<std::size_t>(batchWindows * width));
                firstMeans.clear();
                means.forEachWindow(a, next - a, from, width, [&](std::int64_t window, const double *values) {
                    if (variance)
                        firstMeans.insert(firstMeans.end(), values, values + width);
                    meanBatch.values.insert(meanBatch.values.end(), values, values + width);
                    meanBatch.windows.push_back(window);
                    if (static_cast<std::int64_t>(meanBatch.windows.size()) == batchWindows)
                        flush(meanBatch, sums, from + toBlock, pe1 + toBlock);
                });
                flush(meanBatch, sums, from + toBlock, pe1 + toBlock);
                if (variance) {
                    squares->forEachWindow(a, next - a, from, width, [&](std::int64_t window, const double *values) {
                        // The mean of the squares less the square of the mean, column by column.
                        const double *m = firstMeans.data() + static_cast<std::size_t>((window - a) * width);
                        for (std::int64_t c = 0; c < width; ++c)
                            varianceBatch.values.push_back(values[c] - m[c] * m[c]);
                        varianceBatch.windows.push_back(window);
                        if (static_cast<std::int64_t>(varianceBatch.windows.size()) == batchWindows)
                            flush(varianceBatch, *variance, from + toBlock, pe1 + toBlock);
                    });
                    flush(varianceBatch, *variance, from + toBlock, pe1 + toBlock);
                }
            }
            a = next;
        }
    });
}

// One tile's share of the cell-by-cell means: weighted sums for the grid rows [a0, a0 + n).
struct TileSums
{
    int a0 = 0;
    int n = 0;
    std::vector<double> sums; // n x grid columns
    std::vector<double> weights; // n
};

// Adds the row-weighted, column-filtered sums of D over the rows of pass `pass` to
// `sums` and their row weights to `weights`; the rows it took to `taken`.
bool addDirect(const Engine &engine, const Setup &s, const ColumnWeights &columns, Quantity quantity, int pass,
               std::vector<double> &sums, std::vector<double> &weights, std::int64_t *taken,
               const ComputeOptions &options)
{
    const DirectPart direct(engine, quantity, s.parts);
    const std::int64_t gridCols = s.cols.cells();
    // A tile is a run's rows, as many as fit kTileCells but at least a whole run (up to
    // RowSampling::kMaxRun rows), across the columns that then fit: a block's first row sets
    // up every pair of its columns (a sine and cosine each), which single rows of a wide table
    // (d 2^20) would pay row by row, far more than their cells.
    const std::int64_t wideRows = std::max<std::int64_t>(1, kTileCells / s.block.cols);
    std::vector<Block> tiles;
    for (const RowRun &run : s.sampling.runs(pass)) {
        *taken += run.rows;
        const std::int64_t tileRows = std::max(wideRows, std::min(run.rows, RowSampling::kMaxRun));
        const std::int64_t tileCols = std::clamp<std::int64_t>(kTileCells / tileRows, 1, s.block.cols);
        for (std::int64_t r = 0; r < run.rows; r += tileRows)
            for (std::int64_t c = 0; c < s.block.cols; c += tileCols)
                tiles.push_back({run.row0 + r, std::min(tileRows, run.rows - r), s.block.col0 + c,
                                 std::min(tileCols, s.block.cols - c)});
    }
    const auto tileCount = static_cast<std::int64_t>(tiles.size());
    for (std::int64_t chunk = 0; chunk < tileCount; chunk += kChunkTiles) {
        const std::int64_t count = std::min(kChunkTiles, tileCount - chunk);
        std::vector<TileSums> parts(static_cast<std::size_t>(count));
        const bool done = forEachTile(count, options.threads, options.cancel, [&](std::int64_t t) {
            const Block &tile = tiles[static_cast<std::size_t>(chunk + t)];
            RowMatrixXf values(tile.rows, tile.cols);
            direct.compute(tile, values);
            TileSums &part = parts[static_cast<std::size_t>(t)];
            const int lo = s.rows.cellsOf(tile.row0).first;
            const int hi = s.rows.cellsOf(tile.row0 + tile.rows - 1).second;
            part.a0 = lo;
            part.n = std::max(0, hi - lo + 1);
            part.sums.assign(static_cast<std::size_t>(part.n * gridCols), 0.0);
            part.weights.assign(static_cast<std::size_t>(part.n), 0.0);
            // The rows first: each grid row's weighted sum of the tile's rows, column by column, then
            // those few sums through the column filter. A row enters about 8 grid rows and a grid column
            // reads about 13 columns (GaussianSum::kReach): filtering each row's columns first took
            // twice the products, in short dot products, and was most of an exact map's time (T5's
            // input at L 65,536, d 768: the view took 0.4 s to be exact after a change).
            RowMatrixXd rowSums = RowMatrixXd::Zero(part.n, tile.cols);
            for (std::int64_t r = 0; r < tile.rows; ++r) {
                const auto [a0, a1] = s.rows.cellsOf(tile.row0 + r);
                const float *from = values.row(r).data();
                for (int a = a0; a <= a1; ++a) {
                    const double w = s.rows.weight(tile.row0 + r, a);
                    // In the CPU's vectors, the same bits as element by element (AccumulateSimd).
                    AccumulateSimd::addWeighted(rowSums.row(a - part.a0).data(), from, w, tile.cols);
                    // A row's weight counts once, with its first columns.
                    if (tile.col0 == s.block.col0)
                        part.weights[static_cast<std::size_t>(a - part.a0)] += w;
                }
            }
            if (tile.cols == s.block.cols) {
                RowMatrixXd reduced;
                columns.reduceRows(rowSums, reduced);
                std::copy(reduced.data(), reduced.data() + reduced.size(), part.sums.begin());
            } else {
                // Part of the columns: what they add to each grid column.
                const std::int64_t from = tile.col0 - s.block.col0;
                columns.addReduced(rowSums.data(), tile.cols, part.n, from, from + tile.cols, part.sums.data(),
                                   gridCols);
            }
        });
        if (!done)
            return false;
        for (const TileSums &part : parts) {
            for (std::size_t i = 0; i < part.sums.size(); ++i)
                sums[static_cast<std::size_t>(part.a0 * gridCols) + i] += part.sums[i];
            for (int a = 0; a < part.n; ++a)
                weights[static_cast<std::size_t>(part.a0 + a)] += part.weights[static_cast<std::size_t>(a)];
        }
    }
    return true;
}

// Cells of the PE whose squares are summed one by one for the spread, where the rows are too
// few for the closed forms: past this (a short table of very many columns) no spread is given.
constexpr std::int64_t kDirectSpreadCells = std::int64_t(1) << 24;

// Each grid cell's variance of K along its rows, column by column, then through the column
// filter: from K's cells (exact angles) one by one, for grids whose rows the closed forms do not
// take.
bool addDirectVariance(const Engine &engine, const Setup &s, const ColumnWeights &columns,
                       std::vector<double> &variance, const ComputeOptions &options)
{
    const Params &p = engine.params();
    const std::int64_t q0 = std::max(s.block.col0, s.parts.peColumn0);
    const std::int64_t q1 = std::min(s.block.colEnd(), s.parts.peColumn0 + s.parts.peColumns);
    const std::int64_t r1 = std::min(s.block.rowEnd(), s.parts.peRowEnd);
    if (q1 <= q0 || r1 <= s.block.row0)
        return true;
    const PositionalTable exact(p.peColumns(), p.sinusoidal, Angles::Exact);
    const int gridRows = s.rows.cells();
    const std::int64_t cols = s.block.cols;
    // Per grid row, each table column's weighted sums of K and K^2, and the row weights.
    RowMatrixXd first = RowMatrixXd::Zero(gridRows, cols), second = RowMatrixXd::Zero(gridRows, cols);
    std::vector<double> weights(static_cast<std::size_t>(gridRows), 0.0);
    RowMatrixXf pe(1, q1 - q0);
    for (std::int64_t n = s.block.row0; n < s.block.rowEnd(); ++n) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            return false;
        if (n < r1)
            exact.fill({n, 1, q0 - s.parts.peColumn0, q1 - q0}, pe);
        const auto [a0, a1] = s.rows.cellsOf(n);
        for (int a = a0; a <= a1; ++a) {
            const double w = s.rows.weight(n, a);
            weights[static_cast<std::size_t>(a)] += w;
            for (std::int64_t j = q0; n < r1 && j < q1; ++j) {
                const double v = pe(0, j - q0);
                first(a, j - s.block.col0) += w * v;
                second(a, j - s.block.col0) += w * v * v;
            }
        }
    }
    RowMatrixXd perColumn(gridRows, cols), reduced;
    for (int a = 0; a < gridRows; ++a) {
        const double w = weights[static_cast<std::size_t>(a)];
        for (std::int64_t j = 0; j < cols; ++j) {
            const double mean = first(a, j) / w;
            perColumn(a, j) = second(a, j) / w - mean * mean;
        }
    }
    columns.reduceRows(perColumn, reduced);
    std::copy(reduced.data(), reduced.data() + reduced.size(), variance.begin());
    return true;
}

// Whether the grid has a spread: it averages rows, and holds the PE.
bool hasSpread(const Setup &s)
{
    return !s.rows.isIdentity() && s.parts.peColumns > 0;
}

// The spread of K within each grid cell along its positions: the square root of the column-
// filtered variance of each column over the cell's rows, so that a column turning faster than the
// pixel shows, and columns merely averaged side by side (a slow sine beside its cosine) do not.
// In closed form with the means where the rows allow it (`closed`, from addClosed), else from K's
// cells while they are few; empty where the grid averages no rows or holds no PE.
std::optional<std::vector<float>> spreadOf(const Engine &engine, const Setup &s, const ColumnWeights &columns,
                                           std::vector<double> closed, const ComputeOptions &options)
{
    std::vector<float> spread;
    if (!hasSpread(s))
        return spread;
    const std::size_t cells = static_cast<std::size_t>(s.rows.cells()) * static_cast<std::size_t>(s.cols.cells());
    std::vector<double> variance = std::move(closed);
    if (!s.parts.hasClosed) {
        variance.assign(cells, 0.0);
        // Only quantities that hold the PE: those whose closed forms the rows turned down.
        if (!QuantityParts::of(engine, s.parts.quantity, true).hasClosed
            || static_cast<std::int64_t>(s.rows.cells()) * s.block.cols > kDirectSpreadCells
            || s.block.cells() > 16 * kDirectSpreadCells)
            return spread;
        if (!addDirectVariance(engine, s, columns, variance, options))
            return std::nullopt;
    }
    spread.resize(cells);
    for (std::size_t i = 0; i < cells; ++i)
        spread[i] = static_cast<float>(std::sqrt(std::max(0.0, variance[i])));
    return spread;
}

} // namespace

Block visibleBlock(Shape shape, double colLo, double colHi, double rowLo, double rowHi)
{
    // Cell j covers [j - 0.5, j + 0.5].
    const auto range = [](double lo, double hi, std::int64_t size) {
        const std::int64_t first = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor(lo + 0.5)), 0, size);
        const std::int64_t last = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::ceil(hi + 0.5)), 0, size);
        return std::pair {first, std::max(first, last)};
    };
    const auto [c0, c1] = range(std::min(colLo, colHi), std::max(colLo, colHi), shape.cols);
    const auto [r0, r1] = range(std::min(rowLo, rowHi), std::max(rowLo, rowHi), shape.rows);
    return {r0, r1 - r0, c0, c1 - c0};
}

int passCount(const Engine &engine, const HeatmapRequest &request)
{
    const auto s = setUp(engine, request);
    return s ? passesOf(*s) : 1;
}

std::int64_t rowsOfPass(const Engine &engine, const HeatmapRequest &request, int pass)
{
    const auto s = setUp(engine, request);
    if (!s || !s->parts.hasDirect)
        return 0;
    std::int64_t rows = 0;
    for (const RowRun &run : s->sampling.runs(pass))
        rows += run.rows;
    return rows;
}

int lastPassWithin(const Engine &engine, const HeatmapRequest &request, std::int64_t cells)
{
    const auto s = setUp(engine, request);
    if (!s || !s->parts.hasDirect)
        return 0;
    for (int pass = passesOf(*s) - 1; pass > 0; --pass) {
        std::int64_t rows = 0;
        for (const RowRun &run : s->sampling.runs(pass))
            rows += run.rows;
        // Counted at what they cost: a wide row more than its cells (Budget::exactCost).
        if (Budget::exactCost(rows, s->block.cols) <= static_cast<double>(cells))
            return pass;
    }
    return 0;
}

std::optional<HeatmapGrid> resample(const Engine &engine, const HeatmapRequest &request, const ComputeOptions &options,
                                    int pass)
{
    const auto s = setUp(engine, request);
    if (!s)
        return std::nullopt;
    const Block &block = s->block;
    // D is never allocated whole: only tiles of rows, each within the budget.
    if (s->parts.hasDirect
        && engine.check(request.quantity,
                        {block.row0, std::min(block.rows, kTileCells / block.cols + 1), block.col0, block.cols}))
        return std::nullopt;
    if (options.cancel && options.cancel->load())
        return std::nullopt;
    HeatmapGrid grid;
    grid.quantity = request.quantity;
    grid.block = block;
    grid.rows = s->rows.cells();
    grid.cols = s->cols.cells();
    grid.passes = passesOf(*s);
    grid.pass = std::clamp(pass, 0, grid.passes - 1);
    grid.index = TitleText::rowIndex(engine.params());

    const std::size_t cells = static_cast<std::size_t>(grid.rows) * static_cast<std::size_t>(grid.cols);
    std::vector<double> closed(cells, 0.0);
    // The closed forms' variance, for the spread, in the same run as their means.
    std::vector<double> closedVariance(s->parts.hasClosed && hasSpread(*s) ? cells : 0, 0.0);
    const ColumnWeights columns(s->cols);
    if (s->parts.hasClosed
        && !addClosed(engine, *s, columns, closed, closedVariance.empty() ? nullptr : &closedVariance, options))
        return std::nullopt;
    std::vector<double> sums(cells, 0.0);
    std::vector<double> weights(static_cast<std::size_t>(grid.rows), 0.0);
    std::int64_t taken = block.rows;
    if (s->parts.hasDirect) {
        taken = 0;
        if (!addDirect(engine, *s, columns, request.quantity, grid.pass, sums, weights, &taken, options))
            return std::nullopt;
    }
    grid.rowCoverage = static_cast<double>(taken) / static_cast<double>(block.rows);

    grid.values.resize(cells);
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (int a = 0; a < grid.rows; ++a) {
        const double w = weights[static_cast<std::size_t>(a)];
        for (int b = 0; b < grid.cols; ++b) {
            const std::size_t i = static_cast<std::size_t>(a) * grid.cols + b;
            const double mean = closed[i] + (w > 0.0 ? sums[i] / w : 0.0);
            grid.values[i] = static_cast<float>(mean);
            lo = std::min(lo, mean);
            hi = std::max(hi, mean);
        }
    }
    grid.minValue = lo;
    grid.maxValue = hi;
    grid.colourExtent = Quantities::bound(request.quantity, engine.params());
    auto spread = spreadOf(engine, *s, columns, std::move(closedVariance), options);
    if (!spread)
        return std::nullopt;
    grid.spread = std::move(*spread);
    if (request.quantity == Quantity::Output && grid.isCellByCell())
        grid.marks = CellMarks::ofOutput(engine.params(), block);
    return grid;
}

} // namespace posenc::HeatmapResampler
