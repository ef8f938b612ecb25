#pragma once

#include "ComputeScheduler.h"

#include "render/data/FigureModel.h"

#include <atomic>
#include <chrono>
#include <functional>

namespace posenc {

// The job that computes a view's figure off the GUI thread (docs/ARCHITECTURE.md, "Background
// work"): a quick preview when the figure has one, then, once the controls have rested, the
// full data, in passes coarse to fine where it takes long; each result handed to `deliver` on
// the GUI thread, unless superseded.
namespace FigureJob {

// Called on the GUI thread with a result and the detail it was computed at.
using Deliver = std::function<void(const FigureResult &result, Detail detail)>;

enum class Start {
    WithPreview, // the figure's preview first, when it has one
    FullOnly, // a preview is shown already (the same parameters, other pixels): rest, then refine
};

// A job refines its preview only once the controls have rested this long: while a slider
// moves, refinements would only take the processor from the next preview.
inline constexpr std::chrono::milliseconds kRestBeforeRefining {80};
// Sleeps in the job's thread for `rest`; false as soon as the job is cancelled.
bool restUnlessCancelled(const std::atomic<bool> &cancel, std::chrono::milliseconds rest);

// `deliver` must stay callable after its view is gone (it captures a QPointer).
ComputeScheduler::Job make(const FigureModel &model, FigureRequest request, Deliver deliver,
                           Start start = Start::WithPreview);

} // namespace FigureJob

} // namespace posenc
