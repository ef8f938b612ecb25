#include "FigureExportJob.h"

#include "render/FigureFile.h"

#include <QPointer>
#include <QProgressDialog>

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
    m_build = std::make_unique<FigureBuild>(*m_target.figure, m_target.engine, m_target.state, m_target.style,
                                            m_target.size);
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
    m_build.reset();
}

// One round: the next data to compute in a job, or, once the figure is laid out, its bytes.
void FigureExportJob::step()
{
    if (const auto request = m_build->request(0)) {
        const FigureModel *model = &m_build->figure().model();
        m_scheduler->submit([model, request = *request, self = QPointer(this)](
                                const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
            const FigureResult result = model->compute(request, cancel);
            if (result.isCancelled())
                return;
            publish([self, result] {
                if (!self || !self->m_running)
                    return;
                self->m_build->deliver(result);
                self->step();
            });
        });
        return;
    }
    if (const auto refused = m_build->error()) {
        m_running = false;
        m_build.reset();
        emit finished(*refused, true, std::nullopt);
        return;
    }
    const QByteArray bytes = FigureFile::encode(*m_build, m_target.format, m_target.style);
    m_build.reset();
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
