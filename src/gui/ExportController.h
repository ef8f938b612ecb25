#pragma once

#include "io/TableExport.h"

#include <QObject>
#include <QPointer>

#include <atomic>
#include <memory>

class QAction;
class QSettings;
class QWidget;

namespace posenc {

class ComputeScheduler;
class FigureExportDialog;
class FigureView;

// The window's figures and data out: Export figure (a dialog), Copy figure (the focused plot to
// the clipboard as the screen shows it) and Export data (the table of what a view shows, .npy
// or .csv). They act on the view whose plot has, or last had, the focus. Tables are computed
// and written by jobs of a scheduler of its own, like the views' (docs/ARCHITECTURE.md,
// "Background work").
class ExportController : public QObject
{
    Q_OBJECT

public:
    // `window` parents the dialogs; `views` in order of preference when none had the focus.
    ExportController(QWidget *window, QList<FigureView *> views, QSettings *settings, QObject *parent = nullptr);

    QAction *exportFigureAction() const { return m_exportFigure; }
    QAction *copyFigureAction() const { return m_copyFigure; }
    QAction *exportDataAction() const { return m_exportData; }

    // The view whose plot has, or last had, the keyboard focus; the first view otherwise.
    FigureView *currentView() const;

    // Opens the Export figure dialog on the current view's figure (without blocking).
    FigureExportDialog *openFigureDialog();
    // Puts `view`'s plot on the clipboard at the screen's device pixel ratio.
    void copyFigure(FigureView *view);
    // Writes the table of what `view` shows to `path` (.npy or .csv) off the GUI thread, after
    // asking before overwriting unless `confirmed`; refusals and errors are shown in dialogs.
    void exportData(FigureView *view, const QString &path, bool confirmed = false);
    bool isWritingData() const { return m_writing; }
    // Stops a table being computed or written, and the figure of an open Export figure dialog.
    void cancel();

signals:
    void figureSaved(const QString &path);
    void dataSaved(const QString &path);
    void figureCopied();

private:
    void chooseDataFile();
    void writeData(std::shared_ptr<const Engine> engine, const TableRequest &request, const QString &path);
    void dataWritten(const QString &path, bool cancelled, const std::optional<WriteError> &error);
    QString lastDirectory() const;
    void rememberDirectory(const QString &path);

    QWidget *m_window;
    QList<FigureView *> m_views;
    QSettings *m_settings;
    QPointer<FigureView> m_current;
    QPointer<FigureExportDialog> m_dialog;
    QAction *m_exportFigure;
    QAction *m_copyFigure;
    QAction *m_exportData;
    ComputeScheduler *m_scheduler;
    bool m_writing = false;
};

} // namespace posenc
