#include "TableErrorGrid.h"

#include "FigureJob.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::TableErrorGrid {

namespace {

// Rows of the heatmap's block compared at a time: a few MiB of |error| in flight.
constexpr std::int64_t kGridChunkCells = std::int64_t(1) << 20;

HeatmapGrid emptyGrid(const Block &block, int rows, int cols)
{
    HeatmapGrid grid;
    grid.block = block;
    grid.rows = rows;
    grid.cols = cols;
    grid.values.assign(std::size_t(rows) * std::size_t(cols), 0.0f);
    return grid;
}

// The grid column of each column of the block.
std::vector<int> columnBins(const Block &block, int cols)
{
    std::vector<int> bins(std::size_t(block.cols));
    for (std::int64_t c = 0; c < block.cols; ++c)
        bins[std::size_t(c)] = int(c * cols / block.cols);
    return bins;
}

// Each pixel of grid row `gridRow` takes the largest of its own and of the error row's cells it covers.
void poolRow(HeatmapGrid &grid, std::int64_t gridRow, const float *error, const std::vector<int> &columnBin)
{
    float *out = grid.values.data() + gridRow * grid.cols;
    for (std::size_t c = 0; c < columnBin.size(); ++c) {
        float &cell = out[columnBin[c]];
        cell = std::max(cell, error[c]);
    }
}

void setRange(HeatmapGrid &grid)
{
    const auto [lo, hi] = std::minmax_element(grid.values.cbegin(), grid.values.cend());
    grid.minValue = grid.values.empty() ? 0.0 : *lo;
    grid.maxValue = grid.values.empty() ? 0.0 : *hi;
}

} // namespace

std::variant<HeatmapGrid, QString> maximum(const TableMatch &match, const TableRows &table, const Block &block,
                                           int rows, int cols, const std::atomic<bool> &cancel)
{
    HeatmapGrid grid = emptyGrid(block, rows, cols);
    const std::int64_t chunk
        = std::clamp<std::int64_t>(kGridChunkCells / std::max<std::int64_t>(1, block.cols), 1, std::int64_t(1) << 14);
    const std::vector<int> columnBin = columnBins(block, cols);
    for (std::int64_t r0 = block.row0; r0 < block.rowEnd(); r0 += chunk) {
        if (cancel.load(std::memory_order_relaxed))
            return u"cancelled"_s;
        const Block part {r0, std::min(chunk, block.rowEnd() - r0), block.col0, block.cols};
        auto computed = TableCheck::errorBlock(match, table, part, &cancel);
        if (const auto *message = std::get_if<QString>(&computed))
            return *message;
        const RowMatrixXf &error = std::get<TableCheck::ErrorBlock>(computed).error;
        for (std::int64_t r = 0; r < part.rows; ++r)
            poolRow(grid, (r0 + r - block.row0) * rows / block.rows, &error(r, 0), columnBin);
    }
    setRange(grid);
    return grid;
}

HeatmapGrid floored(HeatmapGrid grid, double floor)
{
    for (float &v : grid.values)
        v = std::max(v, float(floor));
    return grid;
}

Block clamped(const Block &block, std::int64_t rows, std::int64_t cols)
{
    Block within;
    within.row0 = std::clamp<std::int64_t>(block.row0, 0, std::max<std::int64_t>(0, rows - 1));
    within.col0 = std::clamp<std::int64_t>(block.col0, 0, std::max<std::int64_t>(0, cols - 1));
    within.rows = std::clamp<std::int64_t>(block.rows, 1, rows - within.row0);
    within.cols = std::clamp<std::int64_t>(block.cols, 1, cols - within.col0);
    return within;
}

Block cellsIn(std::pair<double, double> x, std::pair<double, double> y, std::int64_t rows, std::int64_t cols)
{
    const auto first = [](double lower) { return std::int64_t(std::floor(lower + 0.5)); };
    const auto end = [](double upper) { return std::int64_t(std::ceil(upper - 0.5)) + 1; };
    const std::int64_t c0 = std::max<std::int64_t>(0, first(x.first));
    const std::int64_t c1 = std::min(cols, end(x.second));
    const std::int64_t r0 = std::max<std::int64_t>(0, first(y.first));
    const std::int64_t r1 = std::min(rows, end(y.second));
    return {r0, std::max<std::int64_t>(1, r1 - r0), c0, std::max<std::int64_t>(1, c1 - c0)};
}

bool hasPreview(const Block &block, int rows)
{
    return block.rows > rows;
}

std::variant<HeatmapGrid, QString> preview(const TableMatch &match, const TableRows &table, const Block &block,
                                           int rows, int cols, const std::atomic<bool> &cancel)
{
    HeatmapGrid grid = emptyGrid(block, rows, cols);
    const std::vector<int> columnBin = columnBins(block, cols);
    for (std::int64_t g = 0; g < rows; ++g) {
        if (cancel.load(std::memory_order_relaxed))
            return u"cancelled"_s;
        // Table row r is in grid row r * rows / block.rows: grid row g covers [first, end).
        const std::int64_t first = (g * block.rows + rows - 1) / rows;
        const std::int64_t end = ((g + 1) * block.rows + rows - 1) / rows;
        const Block row {block.row0 + (first + end - 1) / 2, 1, block.col0, block.cols};
        auto computed = TableCheck::errorBlock(match, table, row, &cancel);
        if (const auto *message = std::get_if<QString>(&computed))
            return *message;
        poolRow(grid, g, std::get<TableCheck::ErrorBlock>(computed).error.data(), columnBin);
    }
    setRange(grid);
    return grid;
}

void inTurn(const TableMatch &match, const TableRows &table, const Block &block, QSize grid,
            const std::atomic<bool> &cancel, const Show &show)
{
    const int rows = grid.height(), cols = grid.width();
    const bool preview = hasPreview(block, rows);
    for (const bool coarse : {true, false}) {
        if (coarse && !preview)
            continue;
        if (!coarse && preview && !FigureJob::restUnlessCancelled(cancel, FigureJob::kRestBeforeRefining))
            return;
        auto computed = coarse ? TableErrorGrid::preview(match, table, block, rows, cols, cancel)
                               : maximum(match, table, block, rows, cols, cancel);
        if (cancel.load())
            return;
        const bool stopped = std::holds_alternative<QString>(computed);
        show(std::move(computed), coarse);
        if (stopped)
            return;
    }
}

} // namespace posenc::TableErrorGrid
