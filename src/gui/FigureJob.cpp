#include "FigureJob.h"

#include <algorithm>
#include <chrono>

namespace posenc::FigureJob {

bool restUnlessCancelled(const std::atomic<bool> &cancel, std::chrono::milliseconds rest)
{
    return ComputeScheduler::restUnlessCancelled(cancel, std::chrono::steady_clock::now() + rest);
}

ComputeScheduler::Job make(const FigureModel &model, FigureRequest request, Deliver deliver, Start start,
                           Prepare prepare, Clock::time_point inputAt, QList<PanelExtent> previewPanels)
{
    // Models are the registry's, alive as long as the program: the job may outlive its view.
    return [model = &model, request = std::move(request), deliver = std::move(deliver), start,
            prepare = std::move(prepare), inputAt, previewPanels = std::move(previewPanels)](
               const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
        // The preview, then the passes of the full data, each shown as it comes: the last one
        // is the figure in full detail.
        const bool rests = model->hasPreview(request);
        const bool preview = rests && start == Start::WithPreview;
        const int passes = model->passCount(request);
        for (int step = preview ? -1 : 0; step < passes; ++step) {
            const Detail detail = step < 0 ? Detail::Preview : Detail::Full;
            // What is left of the rest since the input: the preview's own time counts.
            const auto rest = std::chrono::ceil<std::chrono::milliseconds>(inputAt + kRestBeforeRefining - Clock::now());
            if (step == 0 && rests && !restUnlessCancelled(cancel, std::max(rest, std::chrono::milliseconds(0))))
                return;
            FigureRequest pass = request;
            pass.detail = detail;
            if (detail == Detail::Preview && previewPanels.size() == request.panels.size())
                pass.panels = previewPanels;
            // The refinement on every core, whatever the request asked for its preview: the job and
            // its pool run at a lower priority than the GUI thread.
            if (detail == Detail::Full)
                pass.threads = 0;
            pass.pass = passes > 1 && step >= 0 ? step : -1;
            const FigureResult result = model->compute(pass, cancel);
            if (result.isCancelled())
                return;
            std::shared_ptr<const PreparedDrawing> prepared;
            if (result.data && prepare)
                prepared = prepare(*result.data, pass);
            // Shown as full detail only with the last pass: a view is settled when that is drawn.
            const Detail shown = step == passes - 1 ? Detail::Full : Detail::Preview;
            publish([deliver, result, shown, prepared] { deliver(result, shown, prepared); });
            if (!result.data)
                return; // refused: nothing to refine
        }
    };
}

} // namespace posenc::FigureJob
