#pragma once

#include "render/data/HeatmapResampler.h"

#include "core/Params.h"

#include <atomic>
#include <optional>

// The sandwich-bias figure's pixels, in closed form at any L (docs/ARCHITECTURE.md, "Exact at any
// size"): a pixel covers a rectangle of queries i by keys j, equal bands of the block in view
// (DiagonalMeans::bandStart), and shows the exact mean of the bias over its cells. The sum of
// cos(w (j - i)) over a rectangle is separable, Re(conj(R) C) with R and C the geometric sums of
// e^(i w x) over its rows and its columns (sin(n w/2) / sin(w/2) times a phase); under the causal
// mask the rows of a rectangle the diagonal crosses that see only some of its keys are summed as
// a geometric sum of geometric sums, in closed form too.
namespace posenc::SandwichBiasMeans {

// The grid of `block` at `rows` x `cols` pixels (at most its rows and columns) for head K of the
// parameters' Sandwich group, under `mask`. minValue and maxValue are the pixels'. Nothing when
// `cancel` is set. Precondition: the group is valid.
std::optional<HeatmapGrid> grid(const SandwichParams &params, SandwichMask mask, const Block &block, int rows, int cols,
                                const std::atomic<bool> *cancel = nullptr);

// The exact mean of head K's bias over `rect` under `mask`, summed term by term: what grid() gives
// a pixel, for one rectangle.
double mean(const SandwichParams &params, SandwichMask mask, const Block &rect);

} // namespace posenc::SandwichBiasMeans
