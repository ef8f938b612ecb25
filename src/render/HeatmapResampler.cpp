#include "HeatmapResampler.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posenc::HeatmapResampler {

namespace {

// Rows computed at once: large enough for the engine's threads, small enough for the cache.
constexpr std::int64_t kBandCells = std::int64_t(1) << 20;

// Where one table cell lands among n equal grid cells over `total` table cells: grid cell
// `first` takes `w0` of it and the next one `w1` (zero unless the cell straddles an edge).
// In units of 1/n of a table cell, table cell i spans [i n, (i + 1) n) and grid cell g spans
// [g total, (g + 1) total): exact integer overlaps.
struct Split
{
    int first = 0;
    double w0 = 1.0;
    double w1 = 0.0;
};

Split split(std::int64_t i, std::int64_t total, std::int64_t n)
{
    const std::int64_t begin = i * n;
    const std::int64_t end = begin + n;
    const std::int64_t g = begin / total;
    const std::int64_t edge = (g + 1) * total;
    if (end <= edge || g + 1 >= n)
        return {static_cast<int>(g), 1.0, 0.0};
    return {static_cast<int>(g), static_cast<double>(edge - begin) / static_cast<double>(n),
            static_cast<double>(end - edge) / static_cast<double>(n)};
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
            rows.push_back({block.row0 + first + (count * (2 * s + 1)) / (2 * n), {a, 1.0, 0.0}});
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
        Split &w = colWeights[static_cast<std::size_t>(c)] = split(c, block.cols, grid.cols);
        colTotal[static_cast<std::size_t>(w.first)] += w.w0;
        if (w.w1 > 0.0)
            colTotal[static_cast<std::size_t>(w.first) + 1] += w.w1;
    }

    // One spare column so that a zero-weight second share needs no branch.
    const std::size_t stride = static_cast<std::size_t>(grid.cols) + 1;
    std::vector<double> sums((static_cast<std::size_t>(grid.rows) + 1) * stride, 0.0);
    std::vector<double> rowTotal(static_cast<std::size_t>(grid.rows) + 1, 0.0);
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
            std::fill(reduced.begin(), reduced.end(), 0.0);
            const float *values = band.row(r).data();
            for (std::int64_t c = 0; c < part.cols; ++c) {
                const Split &w = colWeights[static_cast<std::size_t>(c)];
                const double v = values[c];
                reduced[static_cast<std::size_t>(w.first)] += w.w0 * v;
                reduced[static_cast<std::size_t>(w.first) + 1] += w.w1 * v;
            }
            const Split &rw = rows[next + static_cast<std::size_t>(r)].weights;
            for (const auto &[a, weight] : {std::pair {rw.first, rw.w0}, std::pair {rw.first + 1, rw.w1}}) {
                if (weight == 0.0)
                    continue;
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
