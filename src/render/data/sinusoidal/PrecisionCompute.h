#pragma once

#include "PrecisionModel.h"

#include <atomic>
#include <optional>

// The precision figure's data from the engine's `error` table (float32-angle PE minus exact PE).
namespace posenc::PrecisionCompute {

// Cells of the error table under the lower panel.
std::int64_t cellsInView(const Params &params, const PanelExtent &lower);

// The largest |error| over positions [first, end) and every PE column, exact: the columns are
// taken fastest first, and the taking stops where the bound of the next column cannot reach
// the largest error found.
double bandMaximum(const Engine &engine, std::int64_t first, std::int64_t end);

// The figure's data for its two panels; at Detail::Preview the lower panel takes every s-th
// position within the preview budget (stride s). Nothing when cancelled.
std::optional<PrecisionData> compute(const Engine &engine, const PanelExtent &upper, const PanelExtent &lower,
                                     Detail detail, int threads, const std::atomic<bool> *cancel);

} // namespace posenc::PrecisionCompute
