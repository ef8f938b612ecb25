#include "DiagonalMeans.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posenc::DiagonalMeans {

namespace {

// sum over u <= t of clamp(u, 0, w).
std::int64_t diagonalClampedPrefix(std::int64_t t, std::int64_t w)
{
    if (t <= 0)
        return 0;
    if (t <= w)
        return t * (t + 1) / 2;
    return w * (w + 1) / 2 + (t - w) * w;
}

} // namespace

std::int64_t bandStart(std::int64_t first, std::int64_t count, int bands, int band)
{
    return first + count * band / bands;
}

std::int64_t cellsUpTo(const Block &rect, std::int64_t k)
{
    // Row i holds the columns j <= i + k of [col0, colEnd): clamp(i + k - col0 + 1, 0, cols) of them.
    const std::int64_t t0 = rect.row0 + k - rect.col0 + 1;
    return diagonalClampedPrefix(t0 + rect.rows - 1, rect.cols) - diagonalClampedPrefix(t0 - 1, rect.cols);
}

std::int64_t cellsBetween(const Block &rect, std::int64_t a, std::int64_t b)
{
    if (b < a)
        return 0;
    return cellsUpTo(rect, b) - cellsUpTo(rect, a - 1);
}

std::int64_t firstDiagonal(const Block &block)
{
    return block.col0 - (block.rowEnd() - 1);
}

std::int64_t lastDiagonal(const Block &block)
{
    return block.colEnd() - 1 - block.row0;
}

std::optional<HeatmapGrid> pixels(const Block &block, int rows, int cols, const std::atomic<bool> *cancel,
                                  const std::function<std::optional<double>(int a, int b, const Block &rect)> &mean)
{
    HeatmapGrid grid;
    grid.block = block;
    grid.rows = static_cast<int>(std::clamp<std::int64_t>(rows, 1, std::max<std::int64_t>(block.rows, 1)));
    grid.cols = static_cast<int>(std::clamp<std::int64_t>(cols, 1, std::max<std::int64_t>(block.cols, 1)));
    grid.values.assign(static_cast<std::size_t>(grid.rows) * grid.cols, 0.0f);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int a = 0; a < grid.rows; ++a) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return std::nullopt;
        const std::int64_t r0 = bandStart(block.row0, block.rows, grid.rows, a);
        const std::int64_t r1 = bandStart(block.row0, block.rows, grid.rows, a + 1);
        for (int b = 0; b < grid.cols; ++b) {
            const std::int64_t c0 = bandStart(block.col0, block.cols, grid.cols, b);
            const std::int64_t c1 = bandStart(block.col0, block.cols, grid.cols, b + 1);
            const std::optional<double> m = mean(a, b, {r0, r1 - r0, c0, c1 - c0});
            float &cell = grid.values[static_cast<std::size_t>(a) * grid.cols + b];
            if (!m) {
                cell = std::numeric_limits<float>::quiet_NaN();
                continue;
            }
            cell = static_cast<float>(*m);
            lo = std::min(lo, *m);
            hi = std::max(hi, *m);
        }
    }
    grid.minValue = std::isfinite(lo) ? lo : 0.0;
    grid.maxValue = std::isfinite(hi) ? hi : 0.0;
    return grid;
}

std::optional<HeatmapGrid> grid(const std::vector<DiagonalRun> &runs, const Block &block, int rows, int cols,
                                const std::atomic<bool> *cancel)
{
    // The first run that reaches the rectangle's diagonals: sought by bisection at each row's first
    // pixel, then followed along the row, whose pixels' first diagonals only grow (a search per
    // pixel was most of DeBERTa's map: 512 runs, 360,000 pixels).
    auto rowRun = runs.begin();
    return pixels(block, rows, cols, cancel, [&runs, &rowRun](int, int b, const Block &rect) -> std::optional<double> {
        const std::int64_t kFirst = firstDiagonal(rect), kLast = lastDiagonal(rect);
        const auto before = [kFirst](const DiagonalRun &r) { return r.last < kFirst; };
        if (b == 0)
            rowRun = std::partition_point(runs.begin(), runs.end(), before);
        while (rowRun != runs.end() && before(*rowRun))
            ++rowRun;
        auto run = rowRun;
        double sum = 0.0;
        for (; run != runs.end() && run->first <= kLast; ++run) {
            const auto n = cellsBetween(rect, std::max(run->first, kFirst), std::min(run->last, kLast));
            sum += run->value * static_cast<double>(n);
        }
        return sum / static_cast<double>(rect.cells());
    });
}

} // namespace posenc::DiagonalMeans
