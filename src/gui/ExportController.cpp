#include "ExportController.h"

#include "ComputeScheduler.h"
#include "FigureExportDialog.h"
#include "FigureView.h"
#include "FileDialogs.h"
#include "Settings.h"
#include "WriteDialogs.h"

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QProgressDialog>

using namespace Qt::StringLiterals;

namespace posenc {

ExportController::ExportController(QWidget *window, QList<FigureView *> views, QSettings *settings, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_views(std::move(views))
    , m_settings(settings)
    , m_exportFigure(new QAction(tr("&Export figure…"), this))
    , m_copyFigure(new QAction(tr("&Copy figure"), this))
    , m_exportData(new QAction(tr("Export &data…"), this))
    , m_scheduler(new ComputeScheduler(this))
{
    m_exportFigure->setShortcut(QKeySequence(u"Ctrl+E"_s));
    m_exportFigure->setStatusTip(tr("Write the focused view's figure as PNG, SVG or PDF at a chosen size"));
    m_exportData->setStatusTip(tr("Write the table of what the focused view shows as .npy or .csv"));
    // Ctrl+C copies the figure only while a plot has the focus: a text field keeps its own copy.
    m_copyFigure->setShortcut(QKeySequence::Copy);
    m_copyFigure->setShortcutContext(Qt::WidgetShortcut);
    m_copyFigure->setStatusTip(tr("Copy the focused view's figure to the clipboard as an image"));
    for (FigureView *view : m_views) {
        view->plot()->addAction(m_copyFigure);
        connect(view, &FigureView::plotFocused, this, [this, view] { m_current = view; });
    }
    connect(m_exportFigure, &QAction::triggered, this, &ExportController::openFigureDialog);
    connect(m_copyFigure, &QAction::triggered, this, [this] { copyFigure(currentView()); });
    connect(m_exportData, &QAction::triggered, this, &ExportController::chooseDataFile);
}

FigureView *ExportController::currentView() const
{
    // The focused view while it is shown; a new arrangement, a maximised view or a lesson may
    // have hidden it since, and then the first view shown is the one in sight.
    if (m_current && m_current->isVisibleTo(m_window))
        return m_current;
    for (FigureView *view : m_views) {
        if (view->isVisibleTo(m_window))
            return view;
    }
    return m_views.constFirst();
}

FigureExportDialog *ExportController::openFigureDialog()
{
    // Every view the exporter has a figure of, as it is now; the current one chosen.
    QList<FigureSource> sources;
    int chosen = 0;
    for (FigureView *view : m_views) {
        if (!view->problems().isEmpty() || !view->isVisibleTo(m_window))
            continue;
        if (view == currentView())
            chosen = static_cast<int>(sources.size());
        sources.append({view->title(), view->engine(), &view->figure(), view->state(), view->plot()->size()});
    }
    if (sources.isEmpty()) {
        WriteDialogs::showRefusal(m_window, tr("Export figure"), tr("No view shows a figure to export."));
        return nullptr;
    }
    auto *dialog = new FigureExportDialog(sources, chosen, m_settings, m_window);
    m_dialog = dialog;
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &FigureExportDialog::saved, this, &ExportController::figureSaved);
    dialog->open();
    return dialog;
}

void ExportController::copyFigure(FigureView *view)
{
    // The pixels on screen, which are the figure's at the view's size (tst_exportcontroller): its
    // paint buffers copied, not every layer drawn again.
    const QPixmap pixmap = view->shownPixels();
    QGuiApplication::clipboard()->setPixmap(pixmap);
    emit figureCopied();
}

QString ExportController::lastDirectory() const
{
    const QString directory = m_settings ? Settings::loadExportChoices(*m_settings).directory : QString();
    return directory.isEmpty() ? QDir::currentPath() : directory;
}

void ExportController::rememberDirectory(const QString &path)
{
    if (!m_settings)
        return;
    Settings::ExportChoices choices = Settings::loadExportChoices(*m_settings);
    choices.directory = QFileInfo(path).absolutePath();
    Settings::saveExportChoices(*m_settings, choices);
}

void ExportController::chooseDataFile()
{
    FigureView *view = currentView();
    FileDialogs::askSave(m_window, tr("Export data of %1").arg(view->title()), lastDirectory(),
                         tr("NumPy arrays (*.npy);;CSV tables (*.csv)"),
                         [self = QPointer(this), view = QPointer(view)](const QString &path) {
                             // The save dialog asked before choosing an existing file.
                             if (self && view)
                                 self->exportData(view, path, true);
                         });
}

void ExportController::exportData(FigureView *view, const QString &path, bool confirmed)
{
    const QString title = tr("Export data");
    if (m_writing) {
        WriteDialogs::showRefusal(m_window, title, tr("A table is still being written; try again when it is done."));
        return;
    }
    if (!TableExport::formatOf(path)) {
        WriteDialogs::showRefusal(m_window, title,
                                  tr("%1: the format comes from the extension, .npy or .csv.").arg(path));
        return;
    }
    const auto request = view->tableRequest();
    if (!request) {
        WriteDialogs::showRefusal(
            m_window, title, tr("The %1 view has no table to write, or shows none of its cells.").arg(view->title()));
        return;
    }
    std::shared_ptr<const Engine> engine = view->engine();
    if (const auto refused = TableExport::check(*engine, *request)) {
        WriteDialogs::showRefusal(m_window, title,
                                  tr("Nothing was written: %1. Zoom in to fewer positions first.").arg(*refused));
        return;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    WriteDialogs::confirmOverwrite(m_window, absolute, confirmed,
                                   [self = QPointer(this), engine, request = *request, absolute] {
                                       if (self)
                                           self->writeData(engine, request, absolute);
                                   });
}

void ExportController::writeData(std::shared_ptr<const Engine> engine, const TableRequest &request, const QString &path)
{
    m_writing = true;
    // A busy indicator for a table that takes more than a moment; the window stays live.
    auto *progress = new QProgressDialog(tr("Writing %1 …").arg(path), tr("Cancel"), 0, 0, m_window);
    progress->setObjectName(u"dataExportProgress"_s);
    progress->setWindowTitle(tr("Export data"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(400);
    connect(progress, &QProgressDialog::canceled, this, &ExportController::cancel);
    QPointer<QProgressDialog> busy(progress);
    m_scheduler->submit([engine = std::move(engine), request, path, self = QPointer(this),
                         busy](const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
        const auto table = TableExport::compute(*engine, request, {0, &cancel});
        if (!table)
            return;
        const std::optional<WriteError> error = TableExport::write(path, *table, TableExport::columnNames(request));
        publish([self, busy, path, error] {
            if (busy)
                busy->deleteLater();
            if (self)
                self->dataWritten(path, false, error);
        });
    });
    // A cancelled job publishes nothing: the scheduler's idle signal ends the wait then.
    connect(m_scheduler, &ComputeScheduler::idle, progress, [this, busy] {
        if (busy)
            busy->deleteLater();
        m_writing = false;
    });
}

void ExportController::cancel()
{
    m_scheduler->cancelAll();
    m_writing = false;
    if (m_dialog)
        m_dialog->reject();
}

void ExportController::dataWritten(const QString &path, bool cancelled, const std::optional<WriteError> &error)
{
    m_writing = false;
    if (cancelled)
        return;
    if (error) {
        WriteDialogs::showWriteError(m_window, *error);
        return;
    }
    rememberDirectory(path);
    emit dataSaved(path);
}

} // namespace posenc
