#pragma once

#include "PrecisionModel.h"

#include <atomic>
#include <limits>
#include <optional>

// The precision figure's data from the engine's `error` table (float32-angle PE minus exact PE).
namespace posenc::PrecisionCompute {

// The lower panel's positions at full detail: 1 (all of them) within its half of the cap of every
// figure, counted at what an error cell costs; s, the last 1/s of each pixel's positions, past it.
// `block` is the panel's, positions as rows.
std::int64_t fullDetailShare(const Block &block);
// The columns of each pixel row the lower panel takes at full detail, the fastest (its first):
// 0, all of them, while one position of each of the `bands` pixels is within the panel's cap;
// past it (d 2^20: a lone row sets up every one of its columns), as many as the cap allows.
std::int64_t fastestColumns(const Block &block, int bands, int pixelRows);

// Cells of the error table under the lower panel.
std::int64_t cellsInView(const Params &params, const PanelExtent &lower);

// The largest |error| over positions [first, end) and every PE column, exact: the columns are
// taken fastest first, and the taking stops where the bound of the next column cannot reach
// the largest error found, or once `cells` cells were taken (then over the first pairs only,
// their count in `pairs`; every pair's when it is null or all were taken).
struct BandMaximum
{
    double largest = 0.0;
    std::int64_t pairs = 0; // pairs taken; the rest are within their bound, smaller than the last's
    bool complete = true; // every pair that could reach the largest was taken
};
BandMaximum bandMaximum(const Engine &engine, std::int64_t first, std::int64_t end,
                        std::int64_t cells = std::numeric_limits<std::int64_t>::max());

// The figure's data for its two panels; at Detail::Preview the lower panel takes every s-th
// position within the preview budget (stride s), and at full detail within the cap of every
// figure (Budget::kMaxExactCells, half for each panel), the upper panel's bands taking their
// first pairs within it. Nothing when cancelled.
std::optional<PrecisionData> compute(const Engine &engine, const PanelExtent &upper, const PanelExtent &lower,
                                     Detail detail, int threads, const std::atomic<bool> *cancel);

} // namespace posenc::PrecisionCompute
