#pragma once

#include "ComputeScheduler.h"

#include "io/AtomicFile.h"
#include "render/FigureBuild.h"
#include "render/FigureExporter.h"

#include <QObject>
#include <QPointer>

class QProgressDialog;
class QWidget;

#include <map>
#include <memory>
#include <optional>
#include <utility>

namespace posenc {

// A figure to write to a file.
struct FigureExportTarget
{
    const FigureDescriptor *figure = nullptr;
    std::shared_ptr<const Engine> engine;
    FigureState state;
    FigureStyle style;
    // Grown for the figure's panels where it may (FigureSize::mostHeight), as `posenc export` grows
    // a paper's column (FigureSizes::grownForPanels).
    FigureSize size;
    FigureFormat format = FigureFormat::Png;
    QString path; // empty: the page is only sized (sized()), nothing is computed past that
};

// Writes a figure to a file without blocking the window (docs/ARCHITECTURE.md, "Background
// work"): its data is computed by jobs of a ComputeScheduler, cancellable, while the figure is
// laid out and painted on the GUI thread between them (a QCustomPlot is a widget, and painting
// is bounded by the output's pixels); the file is written whole by a last job. A page that may grow
// is weighed first at the heights FigureSizes::PanelGrowth asks, each laid out on the figure's
// preview as `posenc export` weighs them (StackedPanels::onPage), and the figure is finished on the
// page chosen.
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
    // The page the figure is drawn on, grown for its panels where it may, with the panels it has
    // and how many it leaves out for room there (KeptPanels::leftOut), laid out on its preview;
    // emitted once, before the figure is finished. A job without a path ends here.
    void sized(const posenc::FigureSize &size, int panels, int leftOut);
    // The file was written (every optional empty), or why not: a figure that cannot be built
    // (too small for its text, over the memory budget), bytes that could not be encoded, or a
    // write error naming the path.
    void finished(const std::optional<posenc::FigureError> &refused, bool encoded,
                  const std::optional<posenc::WriteError> &writeError);

private:
    void weighNext();
    void weighed();
    void chosen();
    void step();
    void write(const QByteArray &bytes);

    FigureExportTarget m_target;
    ComputeScheduler *m_scheduler;
    std::optional<FigureSizes::PanelGrowth> m_growth;
    // The figure on each page weighed, by its height and whether it is stacked.
    std::map<std::pair<int, bool>, std::unique_ptr<FigureBuild>> m_builds;
    FigureBuild *m_build = nullptr; // the one being computed
    bool m_weighing = false; // laid out on its preview only, to weigh its page
    bool m_previewed = false;
    QPointer<QProgressDialog> m_progress;
    bool m_running = false;
};

} // namespace posenc
