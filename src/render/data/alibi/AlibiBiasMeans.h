#pragma once

#include "render/data/HeatmapResampler.h"

#include "core/Params.h"

#include <atomic>
#include <optional>

// The alibi-bias figure's pixels, in closed form at any L (docs/ARCHITECTURE.md, "Exact at any
// size"): a pixel covers a rectangle of queries i by keys j, equal bands of the block in view, and
// shows the exact mean of the bias over its cells. Off the diagonal the bias is affine in i and j
// (-m(i - j) or -m(j - i)), so its mean is that of the band centres; a rectangle the diagonal
// crosses is summed row by row, each row's sum of |i - j| in closed form.
namespace posenc::AlibiBiasMeans {

// The grid of `block` at `rows` x `cols` pixels (at most its rows and columns) for head slope
// `slope` under `mask`. Causal: a pixel all above the diagonal (every key after its query) is
// NaN, the mask's -inf; a pixel the diagonal crosses shows the mean of its unmasked cells, j <= i.
// minValue and maxValue are the finite pixels'. Nothing when `cancel` is set.
std::optional<HeatmapGrid> grid(double slope, AlibiMask mask, const Block &block, int rows, int cols,
                                const std::atomic<bool> *cancel = nullptr);

// The share of a pixel's cells under the causal mask (keys after the query): 0 below the
// diagonal, 1 above it, between on it.
double maskedShare(const Block &rect);

} // namespace posenc::AlibiBiasMeans
