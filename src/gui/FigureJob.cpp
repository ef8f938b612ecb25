#include "FigureJob.h"

#include <chrono>
#include <thread>

namespace posenc::FigureJob {

namespace {

// A job refines its preview only once the controls have rested this long: while a slider
// moves, refinements would only take the processor from the next preview.
constexpr std::chrono::milliseconds kRestBeforeRefining {80};

// Sleeps in the job's thread for `rest`; false as soon as the job is cancelled.
bool restUnlessCancelled(const std::atomic<bool> &cancel, std::chrono::milliseconds rest)
{
    constexpr std::chrono::milliseconds kStep {4};
    for (std::chrono::milliseconds slept {0}; slept < rest; slept += kStep) {
        if (cancel.load(std::memory_order_relaxed))
            return false;
        std::this_thread::sleep_for(kStep);
    }
    return !cancel.load(std::memory_order_relaxed);
}

} // namespace

ComputeScheduler::Job make(const FigureModel &model, FigureRequest request, Deliver deliver)
{
    // Models are the registry's, alive as long as the program: the job may outlive its view.
    return [model = &model, request = std::move(request),
            deliver = std::move(deliver)](const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
        const bool preview = model->hasPreview(request);
        for (const Detail detail : {Detail::Preview, Detail::Full}) {
            if (detail == Detail::Preview && !preview)
                continue;
            if (detail == Detail::Full && preview && !restUnlessCancelled(cancel, kRestBeforeRefining))
                return;
            FigureRequest pass = request;
            pass.detail = detail;
            const FigureResult result = model->compute(pass, cancel);
            if (result.isCancelled())
                return;
            publish([deliver, result, detail] { deliver(result, detail); });
            if (!result.data)
                return; // refused: nothing to refine
        }
    };
}

} // namespace posenc::FigureJob
