#include "TableErrorGrid.h"

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::TableErrorGrid {

namespace {

// Rows of the heatmap's block compared at a time: a few MiB of |error| in flight.
constexpr std::int64_t kGridChunkCells = std::int64_t(1) << 20;

} // namespace

std::variant<HeatmapGrid, QString> maximum(const TableMatch &match, const TableRows &table, const Block &block,
                                           int rows, int cols, const std::atomic<bool> &cancel)
{
    HeatmapGrid grid;
    grid.block = block;
    grid.rows = rows;
    grid.cols = cols;
    grid.values.assign(std::size_t(rows) * std::size_t(cols), 0.0f);
    const std::int64_t chunk
        = std::clamp<std::int64_t>(kGridChunkCells / std::max<std::int64_t>(1, block.cols), 1, std::int64_t(1) << 14);
    std::vector<int> columnBin(std::size_t(block.cols));
    for (std::int64_t c = 0; c < block.cols; ++c)
        columnBin[std::size_t(c)] = int(c * cols / block.cols);
    for (std::int64_t r0 = block.row0; r0 < block.rowEnd(); r0 += chunk) {
        if (cancel.load(std::memory_order_relaxed))
            return u"cancelled"_s;
        const Block part {r0, std::min(chunk, block.rowEnd() - r0), block.col0, block.cols};
        auto computed = TableCheck::errorBlock(match, table, part, &cancel);
        if (const auto *message = std::get_if<QString>(&computed))
            return *message;
        const RowMatrixXf &error = std::get<TableCheck::ErrorBlock>(computed).error;
        for (std::int64_t r = 0; r < part.rows; ++r) {
            const std::int64_t gridRow = (r0 + r - block.row0) * rows / block.rows;
            float *out = grid.values.data() + gridRow * cols;
            for (std::int64_t c = 0; c < part.cols; ++c) {
                float &cell = out[columnBin[std::size_t(c)]];
                cell = std::max(cell, error(r, c));
            }
        }
    }
    const auto [lo, hi] = std::minmax_element(grid.values.cbegin(), grid.values.cend());
    grid.minValue = grid.values.empty() ? 0.0 : *lo;
    grid.maxValue = grid.values.empty() ? 0.0 : *hi;
    return grid;
}

} // namespace posenc::TableErrorGrid
