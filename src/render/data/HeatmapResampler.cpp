#include "HeatmapResampler.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace posenc::HeatmapResampler {

namespace {

// Rows computed at once: large enough for the engine's threads, small enough for the cache.
constexpr std::int64_t kBandCells = std::int64_t(1) << 18;

// How one table cell (row or column) i of `total` enters n <= total grid cells: grid cells
// first .. first + count - 1 take w[0 ..] of it. One to one when n == total. Otherwise a
// Gaussian filter of sigma kSigma grid cells, cut at kRadius. A plain box average (each grid
// cell the mean of the cells under it) passes 0.4 to 0.6 of the amplitude of wavelengths
// between one and two grid cells, which alias into fringes of arcs across the PE heatmap;
// this Gaussian passes 0.03 at 1.4 cells and 0.17 at 2 (measured on the PE columns), at the
// price of a slightly softer picture.
constexpr double kSigma = 0.6;
constexpr double kRadius = 2.0;
constexpr int kMaxTaps = 2 * static_cast<int>(kRadius) + 2;
const double kCutValue = std::exp(-0.5 * (kRadius / kSigma) * (kRadius / kSigma));

struct Split
{
    int first = 0;
    int count = 1;
    std::array<double, kMaxTaps> w {1.0};
};

Split split(std::int64_t i, std::int64_t total, std::int64_t n)
{
    if (n >= total)
        return {static_cast<int>(i), 1, {1.0}};
    // The cell's centre in grid units, where grid cell g is centred at g.
    const double u = (static_cast<double>(i) + 0.5) * static_cast<double>(n) / static_cast<double>(total) - 0.5;
    const auto lo = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::ceil(u - kRadius)));
    const auto hi = std::min<std::int64_t>(n - 1, static_cast<std::int64_t>(std::floor(u + kRadius)));
    Split s;
    s.first = static_cast<int>(lo);
    s.count = 0;
    for (std::int64_t g = lo; g <= hi && s.count < kMaxTaps; ++g) {
        const double d = (static_cast<double>(g) - u) / kSigma;
        // Shifted to reach zero at the cut: a cell exactly kRadius away weighs nothing either way.
        s.w[static_cast<std::size_t>(s.count++)] = std::max(0.0, std::exp(-0.5 * d * d) - kCutValue);
    }
    return s;
}

// A table row to compute and the grid rows it enters.
struct SourceRow
{
    std::int64_t row = 0;
    Split weights;
};

std::vector<SourceRow> sourceRows(const Block &block, int gridRows, std::int64_t cellBudget, double *coverage)
{
    std::vector<SourceRow> rows;
    if (block.rows * block.cols <= cellBudget || gridRows == block.rows) {
        for (std::int64_t r = 0; r < block.rows; ++r)
            rows.push_back({block.row0 + r, split(r, block.rows, gridRows)});
        *coverage = 1.0;
        return rows;
    }
    // Over the budget: grid row a averages n evenly spaced rows of its stratum.
    const std::int64_t budgetRows = std::max<std::int64_t>(1, cellBudget / block.cols);
    const std::int64_t perGroup = std::max<std::int64_t>(1, budgetRows / gridRows);
    for (int a = 0; a < gridRows; ++a) {
        const std::int64_t first = block.rows * a / gridRows;
        const std::int64_t count = block.rows * (a + 1) / gridRows - first;
        const std::int64_t n = std::min(count, perGroup);
        for (std::int64_t s = 0; s < n; ++s)
            rows.push_back({block.row0 + first + (count * (2 * s + 1)) / (2 * n), {a, 1, {1.0}}});
    }
    *coverage = static_cast<double>(rows.size()) / static_cast<double>(block.rows);
    return rows;
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

std::optional<HeatmapGrid> resample(const Engine &engine, const HeatmapRequest &request, const ComputeOptions &options)
{
    const Block &block = request.block;
    const Shape shape = engine.shape(request.quantity);
    if (block.isEmpty() || block.row0 < 0 || block.col0 < 0 || block.rowEnd() > shape.rows
        || block.colEnd() > shape.cols)
        return std::nullopt;
    // The block is never allocated whole: only bands of rows, each within the budget.
    if (engine.check(request.quantity,
                     {block.row0, std::min(block.rows, kBandCells / block.cols + 1), block.col0, block.cols}))
        return std::nullopt;
    HeatmapGrid grid;
    grid.quantity = request.quantity;
    grid.block = block;
    grid.rows = static_cast<int>(std::min<std::int64_t>(block.rows, std::max(1, request.pixelRows)));
    grid.cols = static_cast<int>(std::min<std::int64_t>(block.cols, std::max(1, request.pixelCols)));

    const std::vector<SourceRow> rows = sourceRows(block, grid.rows, request.cellBudget, &grid.rowCoverage);
    std::vector<Split> colWeights(static_cast<std::size_t>(block.cols));
    std::vector<double> colTotal(static_cast<std::size_t>(grid.cols), 0.0);
    for (std::int64_t c = 0; c < block.cols; ++c) {
        const Split &w = colWeights[static_cast<std::size_t>(c)] = split(c, block.cols, grid.cols);
        for (int t = 0; t < w.count; ++t)
            colTotal[static_cast<std::size_t>(w.first + t)] += w.w[static_cast<std::size_t>(t)];
    }

    const std::size_t stride = static_cast<std::size_t>(grid.cols);
    std::vector<double> sums(static_cast<std::size_t>(grid.rows) * stride, 0.0);
    std::vector<double> rowTotal(static_cast<std::size_t>(grid.rows), 0.0);
    std::vector<double> reduced(stride);
    const std::int64_t bandRows = std::max<std::int64_t>(1, kBandCells / block.cols);
    RowMatrixXf band;
    std::size_t next = 0;
    while (next < rows.size()) {
        // A band is a run of consecutive source rows (all rows, or the samples of one stratum).
        std::size_t end = next + 1;
        while (end < rows.size() && rows[end].row == rows[end - 1].row + 1
               && static_cast<std::int64_t>(end - next) < bandRows)
            ++end;
        const Block part {rows[next].row, static_cast<std::int64_t>(end - next), block.col0, block.cols};
        band.resize(part.rows, part.cols);
        if (!engine.compute(request.quantity, part, band, options))
            return std::nullopt;
        for (std::int64_t r = 0; r < part.rows; ++r) {
            if (options.cancel && (r & 63) == 0 && options.cancel->load(std::memory_order_relaxed))
                return std::nullopt;
            std::fill(reduced.begin(), reduced.end(), 0.0);
            const float *values = band.row(r).data();
            for (std::int64_t c = 0; c < part.cols; ++c) {
                const Split &w = colWeights[static_cast<std::size_t>(c)];
                const double v = values[c];
                double *target = reduced.data() + w.first;
                for (int t = 0; t < w.count; ++t)
                    target[t] += w.w[static_cast<std::size_t>(t)] * v;
            }
            const Split &rw = rows[next + static_cast<std::size_t>(r)].weights;
            for (int t = 0; t < rw.count; ++t) {
                const int a = rw.first + t;
                const double weight = rw.w[static_cast<std::size_t>(t)];
                double *sumRow = sums.data() + static_cast<std::size_t>(a) * stride;
                for (int b = 0; b < grid.cols; ++b)
                    sumRow[b] += weight * reduced[static_cast<std::size_t>(b)];
                rowTotal[static_cast<std::size_t>(a)] += weight;
            }
        }
        next = end;
    }

    grid.values.resize(static_cast<std::size_t>(grid.rows) * grid.cols);
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (int a = 0; a < grid.rows; ++a) {
        for (int b = 0; b < grid.cols; ++b) {
            const double mean = sums[static_cast<std::size_t>(a) * stride + b]
                / (rowTotal[static_cast<std::size_t>(a)] * colTotal[static_cast<std::size_t>(b)]);
            grid.values[static_cast<std::size_t>(a) * grid.cols + b] = static_cast<float>(mean);
            lo = std::min(lo, mean);
            hi = std::max(hi, mean);
        }
    }
    grid.minValue = lo;
    grid.maxValue = hi;
    return grid;
}

} // namespace posenc::HeatmapResampler
