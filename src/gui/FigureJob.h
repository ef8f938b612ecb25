#pragma once

#include "ComputeScheduler.h"

#include "render/data/FigureModel.h"
#include "render/data/PreparedDrawing.h"

#include <atomic>
#include <chrono>
#include <functional>

namespace posenc {

// The job that computes a view's figure off the GUI thread (docs/ARCHITECTURE.md, "Background
// work"): a quick preview when the figure has one, then, once the controls have rested, the
// full data, in passes coarse to fine where it takes long; each result handed to `deliver` on
// the GUI thread, unless superseded.
namespace FigureJob {

// Called on the GUI thread with a result, the detail it was computed at and what the figure's
// drawing made of its data in the job (none without a Prepare, or when it prepares nothing).
using Deliver = std::function<void(const FigureResult &result, Detail detail,
                                   const std::shared_ptr<const PreparedDrawing> &prepared)>;

enum class Start {
    WithPreview, // the figure's preview first, when it has one
    FullOnly, // a preview is shown already (the same parameters, other pixels): what is left of the rest, then refine
};

// A job refines its preview only once the controls have rested this long: while a slider
// moves, refinements would only take the processor from the next preview.
inline constexpr std::chrono::milliseconds kRestBeforeRefining {80};
// Sleeps in the job's thread for `rest`; false as soon as the job is cancelled.
bool restUnlessCancelled(const std::atomic<bool> &cancel, std::chrono::milliseconds rest);
// The moment of the input (a change of parameters, a zoom, a resize) a request answers: its rest is
// counted from then, so that the preview's own time is part of it, and a request made again for
// the same input (axes the full result's fitting moved) does not rest a second time.
using Clock = std::chrono::steady_clock;

// What the figure's drawing makes of each result in the job (FigureDescriptor::prepare), given
// the request it was computed for.
using Prepare = std::function<std::shared_ptr<const PreparedDrawing>(const FigureData &data, const FigureRequest &request)>;

// `deliver` must stay callable after its view is gone (it captures a QPointer). `prepare`, when
// given, runs in the job on each result's data, and what it made goes to `deliver` with it. The
// full data is computed once kRestBeforeRefining has passed since `inputAt`. `previewPanels`, when
// given, are the panels the preview is computed and prepared for instead of the request's: those
// it will be drawn in, where the request's are those the full result is expected to have.
ComputeScheduler::Job make(const FigureModel &model, FigureRequest request, Deliver deliver,
                           Start start = Start::WithPreview, Prepare prepare = {},
                           Clock::time_point inputAt = Clock::now(), QList<PanelExtent> previewPanels = {});

} // namespace FigureJob

} // namespace posenc
