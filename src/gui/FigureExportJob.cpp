#include "FigureExportJob.h"

#include "render/FigureFile.h"
#include "render/KeptPanels.h"
#include "render/StackedPanels.h"

#include <QPointer>
#include <QProgressDialog>

#include <limits>

namespace posenc {

FigureExportJob::FigureExportJob(FigureExportTarget target, ComputeScheduler *scheduler, QObject *parent)
    : QObject(parent)
    , m_target(std::move(target))
    , m_scheduler(scheduler)
{ }

FigureExportJob::~FigureExportJob()
{
    // Closing the dialog emits its canceled(): it must not reach this job, already going.
    if (m_progress) {
        m_progress->disconnect(this);
        m_progress->close();
    }
}

void FigureExportJob::start()
{
    m_running = true;
    m_growth.emplace(m_target.size);
    weighNext();
}

// The next page the growth asks for laid out on the figure's preview, or the page chosen finished.
void FigureExportJob::weighNext()
{
    const auto page = m_growth->next();
    if (!page) {
        chosen();
        return;
    }
    // A page of too many pixels at its dpi is no taller (as `posenc export` weighs it).
    if (FigureFile::sizeRefusal(*page)) {
        m_growth->weighed({std::numeric_limits<int>::max(), false});
        weighNext();
        return;
    }
    std::unique_ptr<FigureBuild> &build = m_builds[{page->layout.height(), page->stacked}];
    if (!build)
        build = std::make_unique<FigureBuild>(*m_target.figure, m_target.engine, m_target.state, m_target.style, *page);
    m_build = build.get();
    m_weighing = true;
    m_previewed = false;
    step();
}

void FigureExportJob::weighed()
{
    m_weighing = false;
    m_growth->weighed(StackedPanels::onPage(*m_build, m_target.style.fontPointSize));
    weighNext();
}

void FigureExportJob::chosen()
{
    const FigureSize size = m_growth->size();
    std::unique_ptr<FigureBuild> build = std::move(m_builds[{size.layout.height(), size.stacked}]);
    m_builds.clear();
    if (!build)
        build = std::make_unique<FigureBuild>(*m_target.figure, m_target.engine, m_target.state, m_target.style, size);
    const FigureRoom::PanelsKept kept
        = build->error() ? FigureRoom::PanelsKept {} : KeptPanels::leftOut(*build->plot());
    m_builds.emplace(std::pair {size.layout.height(), size.stacked}, std::move(build));
    m_build = m_builds.begin()->second.get();
    const QPointer<FigureExportJob> self(this);
    emit sized(size, kept.panels, kept.givenUp);
    if (!self || !m_running)
        return;
    if (m_target.path.isEmpty()) {
        m_running = false;
        m_builds.clear();
        m_build = nullptr;
        return;
    }
    step();
}

void FigureExportJob::showProgress(QWidget *parent)
{
    // The figure's data takes a moment at most, but a large one or a slow machine gets a progress
    // dialog, after 0.4 s, that can cancel it.
    auto *progress = new QProgressDialog(tr("Exporting %1 …").arg(m_target.path), tr("Cancel"), 0, 0, parent);
    progress->setObjectName(QStringLiteral("figureExportProgress"));
    progress->setWindowTitle(tr("Export figure"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(400);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    connect(progress, &QProgressDialog::canceled, this, &FigureExportJob::cancel);
    connect(this, &FigureExportJob::finished, progress, &QWidget::close);
    m_progress = progress;
}

void FigureExportJob::cancel()
{
    m_running = false;
    m_scheduler->cancelAll();
    m_build = nullptr;
    m_builds.clear();
}

// One round: the next data to compute in a job; once the figure is laid out on its preview, its
// page weighed (while weighing), or once it is done, its bytes.
void FigureExportJob::step()
{
    if (const auto request = m_build->request(0)) {
        if (m_weighing && request->detail != Detail::Preview && m_previewed) {
            weighed(); // laid out for the full data: enough to count its panels
            return;
        }
        m_previewed = request->detail == Detail::Preview;
        const FigureModel *model = &m_build->figure().model();
        m_scheduler->submit([model, request = *request, self = QPointer(this)](
                                const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
            const FigureResult result = model->compute(request, cancel);
            if (result.isCancelled())
                return;
            publish([self, result] {
                if (!self || !self->m_running || !self->m_build)
                    return;
                self->m_build->deliver(result);
                self->step();
            });
        });
        return;
    }
    if (m_weighing) {
        weighed();
        return;
    }
    if (const auto refused = m_build->error()) {
        m_running = false;
        const FigureError error = *refused;
        m_build = nullptr;
        m_builds.clear();
        emit finished(error, true, std::nullopt);
        return;
    }
    const QByteArray bytes = FigureFile::encode(*m_build, m_target.format, m_target.style);
    m_build = nullptr;
    m_builds.clear();
    if (bytes.isEmpty()) {
        m_running = false;
        emit finished(std::nullopt, false, std::nullopt);
        return;
    }
    write(bytes);
}

void FigureExportJob::write(const QByteArray &bytes)
{
    m_scheduler->submit([bytes, path = m_target.path, self = QPointer(this)](const std::atomic<bool> &,
                                                                             const ComputeScheduler::Publish &publish) {
        const auto error
            = writeAtomically(path, [&bytes](QIODevice &device) { return device.write(bytes) == bytes.size(); });
        publish([self, error] {
            if (!self || !self->m_running)
                return;
            self->m_running = false;
            emit self->finished(std::nullopt, true, error);
        });
    });
}

} // namespace posenc
