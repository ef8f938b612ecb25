#pragma once

#include "ComputeScheduler.h"

#include "io/AtomicFile.h"
#include "render/FigureBuild.h"
#include "render/FigureExporter.h"

#include <QObject>
#include <QPointer>

class QProgressDialog;
class QWidget;

#include <memory>
#include <optional>

namespace posenc {

// A figure to write to a file.
struct FigureExportTarget
{
    const FigureDescriptor *figure = nullptr;
    std::shared_ptr<const Engine> engine;
    FigureState state;
    FigureStyle style;
    FigureSize size;
    FigureFormat format = FigureFormat::Png;
    QString path;
};

// Writes a figure to a file without blocking the window (docs/ARCHITECTURE.md, "Background
// work"): its data is computed by jobs of a ComputeScheduler, cancellable, while the figure is
// laid out and painted on the GUI thread between them (a QCustomPlot is a widget, and painting
// is bounded by the output's pixels); the file is written whole by a last job.
class FigureExportJob : public QObject
{
    Q_OBJECT

public:
    FigureExportJob(FigureExportTarget target, ComputeScheduler *scheduler, QObject *parent = nullptr);
    ~FigureExportJob() override;

    void start();
    // A progress dialog over `parent` while the job runs longer than a moment; its Cancel cancels.
    void showProgress(QWidget *parent);
    // Stops at once; nothing is written, finished() is not emitted.
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    // The file was written (every optional empty), or why not: a figure that cannot be built
    // (too small for its text, over the memory budget), bytes that could not be encoded, or a
    // write error naming the path.
    void finished(const std::optional<posenc::FigureError> &refused, bool encoded,
                  const std::optional<posenc::WriteError> &writeError);

private:
    void step();
    void write(const QByteArray &bytes);

    FigureExportTarget m_target;
    ComputeScheduler *m_scheduler;
    std::unique_ptr<FigureBuild> m_build;
    QPointer<QProgressDialog> m_progress;
    bool m_running = false;
};

} // namespace posenc
