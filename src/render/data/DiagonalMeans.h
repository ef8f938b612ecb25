#pragma once

#include "HeatmapResampler.h"

#include "core/Block.h"
#include "core/DiagonalRuns.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace posenc {

// The pixels of a map of an L x L table whose cells are a function of their diagonal k = j - i,
// in closed form at any L (docs/ARCHITECTURE.md, "Exact at any size"): a pixel covers a
// rectangle of rows (queries) by columns (keys), cut as equal bands of the block in view, and
// the cells of one diagonal in a rectangle are counted without visiting them.
namespace DiagonalMeans {

// Band `band` of `bands` equal bands of [first, first + count): [start(band), start(band + 1)).
std::int64_t bandStart(std::int64_t first, std::int64_t count, int bands, int band);
// The cells of `rect` (rows i, columns j) with j - i <= k.
std::int64_t cellsUpTo(const Block &rect, std::int64_t k);
// The cells of `rect` with j - i in [a, b].
std::int64_t cellsBetween(const Block &rect, std::int64_t a, std::int64_t b);

// The runs of a function of the diagonal (core/DiagonalRuns.h).
using DiagonalRuns::runs;

// The grid of `block` at `rows` x `cols` pixels (at most its rows and columns): each pixel the
// exact mean of the runs' values over its cells, which every run in the block's diagonals covers
// (runs of an L x L table's diagonals from col0 - (rowEnd - 1) to colEnd - 1 - row0). Its
// minValue and maxValue are the pixels'. Nothing when `cancel` is set.
std::optional<HeatmapGrid> grid(const std::vector<DiagonalRun> &runs, const Block &block, int rows, int cols,
                                const std::atomic<bool> *cancel = nullptr);

// The grid of `block` at `rows` x `cols` pixels (at most its rows and columns), pixel (a, b) the
// `mean` of its rectangle (band a of the block's rows, band b of its columns), NaN where it has none
// (every cell masked). Its minValue and maxValue are the finite pixels'. Nothing when `cancel` is
// set. What every closed-form map of an L x L table shares (the buckets', a head's bias). `mean` is
// called on the calling thread, row by row, each row's pixels from b = 0 in order (grid() follows a
// row's runs from its first pixel on).
std::optional<HeatmapGrid> pixels(const Block &block, int rows, int cols, const std::atomic<bool> *cancel,
                                  const std::function<std::optional<double>(int a, int b, const Block &rect)> &mean);
// The diagonals of `block`: col0 - (rowEnd - 1) .. colEnd - 1 - row0.
std::int64_t firstDiagonal(const Block &block);
std::int64_t lastDiagonal(const Block &block);

} // namespace DiagonalMeans

} // namespace posenc
