#pragma once

#include "ComputeScheduler.h"

#include "render/data/FigureModel.h"

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

// `deliver` must stay callable after its view is gone (it captures a QPointer).
ComputeScheduler::Job make(const FigureModel &model, FigureRequest request, Deliver deliver,
                           Start start = Start::WithPreview);

} // namespace FigureJob

} // namespace posenc
