#include "ExportController.h"

#include "FigureExportDialog.h"
#include "PlotView.h"
#include "Settings.h"
#include "WriteDialogs.h"

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QProgressDialog>
#include <QThreadPool>

using namespace Qt::StringLiterals;

namespace posenc {

ExportController::ExportController(QWidget *window, QList<PlotView *> views, QSettings *settings, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_views(std::move(views))
    , m_settings(settings)
    , m_exportFigure(new QAction(tr("&Export figure…"), this))
    , m_copyFigure(new QAction(tr("&Copy figure"), this))
    , m_exportData(new QAction(tr("Export &data…"), this))
{
    m_exportFigure->setShortcut(QKeySequence(u"Ctrl+E"_s));
    m_exportFigure->setStatusTip(tr("Write the focused view's figure as PNG, SVG or PDF at a chosen size"));
    m_exportData->setStatusTip(tr("Write the table of what the focused view shows as .npy or .csv"));
    // Ctrl+C copies the figure only while a plot has the focus: a text field keeps its own copy.
    m_copyFigure->setShortcut(QKeySequence::Copy);
    m_copyFigure->setShortcutContext(Qt::WidgetShortcut);
    m_copyFigure->setStatusTip(tr("Copy the focused view's figure to the clipboard as an image"));
    for (PlotView *view : m_views) {
        view->plot()->addAction(m_copyFigure);
        connect(view, &PlotView::plotFocused, this, [this, view] { m_current = view; });
    }
    connect(m_exportFigure, &QAction::triggered, this, &ExportController::openFigureDialog);
    connect(m_copyFigure, &QAction::triggered, this, [this] { copyFigure(currentView()); });
    connect(m_exportData, &QAction::triggered, this, &ExportController::chooseDataFile);
}

PlotView *ExportController::currentView() const
{
    return m_current ? m_current.data() : m_views.constFirst();
}

FigureExportDialog *ExportController::openFigureDialog()
{
    // Every view the exporter has a figure of, as it is now; the current one chosen.
    QList<FigureSource> sources;
    int chosen = 0;
    for (PlotView *view : m_views) {
        const auto options = view->figureOptions();
        if (!options)
            continue;
        if (view == currentView())
            chosen = static_cast<int>(sources.size());
        sources.append({view->title(), view->engine(), *options, view->plot()->size()});
    }
    auto *dialog = new FigureExportDialog(sources, chosen, m_settings, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &FigureExportDialog::saved, this, &ExportController::figureSaved);
    dialog->open();
    return dialog;
}

void ExportController::copyFigure(PlotView *view)
{
    QCustomPlot *plot = view->plot();
    const double ratio = plot->devicePixelRatioF();
    QPixmap pixmap = plot->toPixmap(plot->width(), plot->height(), ratio);
    pixmap.setDevicePixelRatio(ratio);
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
    PlotView *view = currentView();
    QFileDialog dialog(m_window, tr("Export data of %1").arg(view->title()), lastDirectory(),
                       tr("NumPy arrays (*.npy);;CSV tables (*.csv)"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(u"npy"_s);
    connect(&dialog, &QFileDialog::filterSelected, &dialog, [&dialog](const QString &filter) {
        dialog.setDefaultSuffix(filter.contains(u"csv"_s) ? u"csv"_s : u"npy"_s);
    });
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return;
    // The save dialog asked before choosing an existing file.
    exportData(view, dialog.selectedFiles().constFirst(), true);
}

void ExportController::exportData(PlotView *view, const QString &path, bool confirmed)
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
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    // A busy indicator for a table that takes more than a moment; the window stays live.
    auto *progress = new QProgressDialog(tr("Writing %1 …").arg(path), tr("Cancel"), 0, 0, m_window);
    progress->setObjectName(u"dataExportProgress"_s);
    progress->setWindowTitle(tr("Export data"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(400);
    connect(progress, &QProgressDialog::canceled, progress, [cancel] { cancel->store(true); });
    QPointer<QProgressDialog> busy(progress);
    QPointer<ExportController> self(this);
    QThreadPool::globalInstance()->start([engine = std::move(engine), request, path, cancel, self, busy] {
        const auto table = TableExport::compute(*engine, request, {0, cancel.get()});
        std::optional<WriteError> error;
        if (table)
            error = TableExport::write(path, *table);
        const bool cancelled = !table;
        QMetaObject::invokeMethod(
            qApp,
            [self, busy, path, cancelled, error] {
                if (busy)
                    busy->deleteLater();
                if (self)
                    self->dataWritten(path, cancelled, error);
            },
            Qt::QueuedConnection);
    });
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
