#pragma once

#include <QObject>

class QAction;
class QMainWindow;
class QMenu;

#include "core/Params.h"
#include "io/MatrixFile.h"

namespace posenc {

class ControlPanel;
class Dashboard;
class EmbeddingsController;
class ExportController;
class FigureView;
class LessonController;
class ModelConfigDialog;
class ParameterDock;
class SessionController;
class TableCheckDialog;
class UndoHistory;

// The main window's menus: File (sessions, embeddings, figures and data out), Edit, View
// (figures and the dashboard's layout), Lessons and Help (the lessons, the keyboard shortcuts,
// About), each action handing its work to the part that does it.
class WindowMenus : public QObject
{
    Q_OBJECT

public:
    struct Parts
    {
        SessionController *sessions = nullptr;
        EmbeddingsController *embeddings = nullptr;
        ExportController *exports = nullptr;
        Dashboard *dashboard = nullptr;
        ControlPanel *controls = nullptr;
        LessonController *lessons = nullptr;
        UndoHistory *history = nullptr;
        ParameterDock *parameters = nullptr;
    };

    WindowMenus(QMainWindow *window, Parts parts);

    // The embeddings actions follow a matrix loaded or dropped.
    void embeddingsChanged();
    // Opens a file given to the window (posenc FILE, a drop, a recent file): a session, or a
    // matrix as the token embeddings or the learned position table, as its name says; where it
    // does not, the user is asked, or with `mayAsk` false (a screenshot) it becomes the
    // embeddings, which the status bar says.
    void openFile(const QString &path, bool mayAsk = true);
    // File > Check a table… on a file: its table checked in a dialog of its own, after the
    // tensor is chosen where the file holds several; the dialog when opened at once, else null.
    TableCheckDialog *checkTable(const QString &path);
    // The dialog checking `source`.
    TableCheckDialog *checkTable(const MatrixSource &source);
    // File > Open model config… on a file: the config checked in a dialog of its own.
    ModelConfigDialog *openModelConfig(const QString &path);

signals:
    void failed(const QString &title, const QString &message);

private:
    void createFileMenu();
    void createSessionActions(QMenu *file);
    // File > Save session (`asNew` false) and Save session as….
    void saveSession(bool asNew);
    void createEmbeddingsActions(QMenu *file);
    void createCheckActions(QMenu *file);
    // Sets the window's parameters to a reference's, as one Undo step.
    void applyReference(const Params &params, const QString &what);
    void createExportActions(QMenu *file);
    void createViewMenu();
    void createLayoutMenu(QMenu *view);
    void createLessonsMenu();
    void createHelp();
    // File > Load embeddings…: a file, then a matrix of it when it holds several.
    void chooseEmbeddings();
    // A matrix file for the embeddings, or for the learned family's position table.
    void chooseMatrix(bool positionTable);
    void embeddingsChosen(const QString &path, bool positionTable);
    // A matrix file opened without saying what it is for (openFile).
    void openMatrix(const QString &path, bool mayAsk);
    void loadMatrix(const QString &path, bool positionTable);
    void showStatus(const QString &text, int milliseconds);

    QMainWindow *m_window;
    Parts m_parts;
    QAction *m_randomAction = nullptr;
};

} // namespace posenc
