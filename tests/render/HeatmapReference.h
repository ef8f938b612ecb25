#pragma once

// The heatmap filter written from its definition (AxisFilter's comment), in float64, for the
// tests of the resampler: each grid cell the Gaussian-weighted mean of the block's cells.

#include "../core/Reference.h"

#include "render/data/HeatmapResampler.h"

#include <QString>

#include <cmath>
#include <functional>
#include <vector>

namespace heatmapReference {

using namespace posenc;
using namespace Qt::StringLiterals;

// The weight of table cell i (of `total`) in grid cell g (of n): one to one when they fit;
// else a Gaussian of 0.6 grid cells around the grid cell's centre, written from the
// definition in table coordinates (cell i spans [i, i + 1), grid cell g [g w, (g + 1) w)).
inline double gaussian(std::int64_t i, std::int64_t total, std::int64_t n, std::int64_t g)
{
    if (n >= total)
        return i == g ? 1.0 : 0.0;
    const double width = double(total) / double(n); // table cells per grid cell
    const double centre = (double(g) + 0.5) * width; // of grid cell g
    const double distance = (double(i) + 0.5 - centre) / (0.6 * width);
    return std::exp(-0.5 * distance * distance);
}

// The filtered grid of `table` (the block's cells, float64 from here on), separably: each
// grid row's weighted sum of table rows, then each grid column's of those.
inline std::vector<double> referenceGrid(const std::function<double(std::int64_t, std::int64_t)> &cell,
                                         const Block &block, int rows, int cols)
{
    std::vector<double> grid(std::size_t(rows) * cols);
    std::vector<double> filteredRow(std::size_t(block.cols));
    // Each table cell once (a table row falls in the windows of many grid rows), where they fit.
    const bool kept = block.rows * block.cols <= std::int64_t(1) << 24;
    std::vector<double> cells(kept ? std::size_t(block.rows * block.cols) : 0);
    for (std::int64_t r = 0; kept && r < block.rows; ++r)
        for (std::int64_t c = 0; c < block.cols; ++c)
            cells[std::size_t(r * block.cols + c)] = cell(block.row0 + r, block.col0 + c);
    const auto at = [&](std::int64_t r, std::int64_t c) {
        return kept ? cells[std::size_t(r * block.cols + c)] : cell(block.row0 + r, block.col0 + c);
    };
    for (int a = 0; a < rows; ++a) {
        std::fill(filteredRow.begin(), filteredRow.end(), 0.0);
        double rowTotal = 0.0;
        for (std::int64_t r = 0; r < block.rows; ++r) {
            // Rows beyond 11.7 sigma weigh under 1e-30 of the peak: their sum is under 1e-25 of the
            // cell's, far below any tolerance the tests take, and skipping them keeps the
            // reference a third of the work at thousands of rows a pixel.
            const double w = gaussian(r, block.rows, rows, a);
            if (w < 1e-30)
                continue;
            rowTotal += w;
            for (std::int64_t c = 0; c < block.cols; ++c)
                filteredRow[std::size_t(c)] += w * at(r, c);
        }
        for (int b = 0; b < cols; ++b) {
            double sum = 0.0, total = 0.0;
            for (std::int64_t c = 0; c < block.cols; ++c) {
                const double w = gaussian(c, block.cols, cols, b);
                sum += w * filteredRow[std::size_t(c)];
                total += w;
            }
            grid[std::size_t(a) * cols + b] = sum / (rowTotal * total);
        }
    }
    return grid;
}

// The float64 PE of a cell.
inline std::function<double(std::int64_t, std::int64_t)> peCell(const Params &p)
{
    return [p](std::int64_t r, std::int64_t c) {
        return reference::preciseValue(r, c, p.dModel, p.sinusoidal.base, p.sinusoidal.layout);
    };
}

// The cells of a table the engine computed, in float64.
inline std::function<double(std::int64_t, std::int64_t)> tableCell(const RowMatrixXf &table, const Block &block)
{
    return [&table, block](std::int64_t r, std::int64_t c) { return double(table(r - block.row0, c - block.col0)); };
}

// The largest difference between a grid and a reference, and where.
inline QString worstDifference(const HeatmapGrid &grid, const std::vector<double> &expected, double tolerance)
{
    double worst = 0.0;
    QString where;
    for (int a = 0; a < grid.rows; ++a)
        for (int b = 0; b < grid.cols; ++b) {
            const double d = std::abs(double(grid.at(a, b)) - expected[std::size_t(a) * grid.cols + b]);
            if (d > worst) {
                worst = d;
                where = u"cell %1, %2: %3 vs %4"_s.arg(a)
                            .arg(b)
                            .arg(grid.at(a, b))
                            .arg(expected[std::size_t(a) * grid.cols + b]);
            }
        }
    return worst <= tolerance ? QString() : u"%1 off at %2"_s.arg(worst).arg(where);
}

} // namespace heatmapReference
