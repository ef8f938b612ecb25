#include "WindowMenus.h"

#include "AboutDialog.h"
#include "BatchFiles.h"
#include "ControlPanel.h"
#include "Dashboard.h"
#include "EmbeddingsController.h"
#include "ExportController.h"
#include "FigureView.h"
#include "FileDialogs.h"
#include "FileOpening.h"
#include "LessonController.h"
#include "LessonRoom.h"
#include "MainWindow.h"
#include "ModelConfigDialog.h"
#include "ParameterDock.h"
#include "SessionController.h"
#include "ShortcutsDialog.h"
#include "StandardShortcuts.h"
#include "TableCheckDialog.h"
#include "TensorPicker.h"
#include "UndoHistory.h"
#include "UserGuideDialog.h"
#include "WindowColormap.h"

#include "io/ByteSource.h"
#include "render/FigureRegistry.h"

#include <QActionGroup>
#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

using namespace Qt::StringLiterals;

namespace posenc {

WindowMenus::WindowMenus(QMainWindow *window, Parts parts)
    : QObject(window)
    , m_window(window)
    , m_parts(parts)
{
    createFileMenu();
    QMenu *edit = m_window->menuBar()->addMenu(tr("&Edit"));
    if (m_parts.history) {
        QAction *undo = m_parts.history->stack()->createUndoAction(this, tr("&Undo"));
        undo->setObjectName(u"undoAction"_s);
        undo->setShortcuts(StandardShortcuts::of(QKeySequence::Undo, QKeySequence(u"Ctrl+Z"_s)));
        QAction *redo = m_parts.history->stack()->createRedoAction(this, tr("&Redo"));
        redo->setObjectName(u"redoAction"_s);
        redo->setShortcuts(StandardShortcuts::of(QKeySequence::Redo, QKeySequence(u"Ctrl+Shift+Z"_s)));
        edit->addAction(undo);
        edit->addAction(redo);
        edit->addSeparator();
    }
    edit->addAction(m_parts.exports->copyFigureAction());
    createViewMenu();
    createLessonsMenu();
    createHelp();
}

void WindowMenus::showStatus(const QString &text, int milliseconds)
{
    // The window's own door, which keeps messages up under a screenshot.
    if (auto *window = qobject_cast<MainWindow *>(m_window))
        window->showStatus(text, milliseconds);
    else
        m_window->statusBar()->showMessage(text, milliseconds);
}

void WindowMenus::createFileMenu()
{
    QMenu *file = m_window->menuBar()->addMenu(tr("&File"));
    createSessionActions(file);
    file->addSeparator();
    createEmbeddingsActions(file);
    file->addSeparator();
    createCheckActions(file);
    file->addSeparator();
    createExportActions(file);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), m_window, &QWidget::close);
    quit->setObjectName(u"quitAction"_s);
    quit->setShortcuts(StandardShortcuts::of(QKeySequence::Quit, QKeySequence(u"Ctrl+Q"_s)));
    quit->setMenuRole(QAction::QuitRole);
}

void WindowMenus::createSessionActions(QMenu *file)
{
    SessionController *sessions = m_parts.sessions;
    // Sessions have their own extension, .posenc (a file type of their own, resources/
    // org.posenc.Explorer.xml); those saved as .json before are still opened.
    const QString openFilter = tr("PosEnc sessions (*.posenc *.json);;All files (*)");
    QAction *open = file->addAction(tr("&Open session…"), this, [this, sessions, openFilter] {
        FileDialogs::askOpen(m_window, tr("Open session"), QString(), openFilter,
                             [sessions](const QString &path) { sessions->open(path); });
    });
    open->setObjectName(u"openSessionAction"_s);
    open->setShortcuts(StandardShortcuts::of(QKeySequence::Open, QKeySequence(u"Ctrl+O"_s)));
    // Save writes the session's own file again (asked for the first time); Save as asks for a
    // name. Neither replaces a file without asking: the file dialog asks for an existing one, and
    // Save asks when the session's file changed on disk since it was read or written here.
    QAction *save = file->addAction(tr("&Save session"), this, [this] { saveSession(false); });
    save->setObjectName(u"saveSessionAction"_s);
    save->setShortcuts(StandardShortcuts::of(QKeySequence::Save, QKeySequence(u"Ctrl+S"_s)));
    QAction *saveAs = file->addAction(tr("Save session &as…"), this, [this] { saveSession(true); });
    saveAs->setObjectName(u"saveSessionAsAction"_s);
    saveAs->setShortcuts(StandardShortcuts::of(QKeySequence::SaveAs, QKeySequence(u"Ctrl+Shift+S"_s)));
    // Sessions and the matrices loaded, each opened again as openFile does.
    QMenu *recent = file->addMenu(tr("Recent files"));
    recent->setObjectName(u"recentSessionsMenu"_s);
    connect(recent, &QMenu::aboutToShow, this, [this, sessions, recent] {
        const QStringList gone = sessions->pruneRecentSessions();
        if (!gone.isEmpty())
            showStatus(tr("Removed from the recent files, the file is gone: %1").arg(gone.join(u", "_s)), 8000);
        recent->clear();
        for (const QString &path : sessions->recentSessions())
            recent->addAction(path, this, [this, path] { openFile(path); });
        if (recent->isEmpty())
            recent->addAction(tr("No recent files"))->setEnabled(false);
    });
}

void WindowMenus::saveSession(bool asNew)
{
    SessionController *sessions = m_parts.sessions;
    const QString file = sessions->file();
    if (asNew || file.isEmpty()) {
        const QString filter = tr("PosEnc sessions (*.posenc);;PosEnc sessions as JSON (*.json);;All files (*)");
        FileDialogs::askSave(m_window, tr("Save session"), file, filter,
                             [sessions](const QString &path) { sessions->save(path); });
        return;
    }
    if (!sessions->fileChangedOnDisk()) {
        sessions->save(file);
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("Save session"),
                                tr("%1 changed on disk since it was opened or saved here.").arg(file),
                                QMessageBox::Cancel, m_window);
    box->setObjectName(u"replaceSessionQuestion"_s);
    box->setTextFormat(Qt::PlainText);
    box->setInformativeText(tr("Replace it with the session shown, or save the session under another name?"));
    QPushButton *replace = box->addButton(tr("&Replace"), QMessageBox::DestructiveRole);
    replace->setObjectName(u"replaceSessionButton"_s);
    QPushButton *another = box->addButton(tr("Save &as…"), QMessageBox::AcceptRole);
    another->setObjectName(u"saveSessionElsewhereButton"_s);
    box->setDefaultButton(another);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, file, replace, another](QAbstractButton *clicked) {
        if (clicked == replace)
            m_parts.sessions->save(file);
        else if (clicked == another)
            saveSession(true);
    });
    box->open();
}

void WindowMenus::createEmbeddingsActions(QMenu *file)
{
    EmbeddingsController *embeddings = m_parts.embeddings;
    file->addAction(tr("&Load embeddings…"), QKeySequence(u"Ctrl+L"_s), this, &WindowMenus::chooseEmbeddings);
    m_randomAction = file->addAction(tr("Use &random embeddings"), this, [embeddings] { embeddings->useRandom(); });
    file->addAction(tr("Load &position table…"), this, [this] { chooseMatrix(true); });
    // The batch's tables: the attention mask and the document ids (docs/ARCHITECTURE.md, Positions
    // in practice).
    auto *batch = new BatchFiles(m_window, m_parts.controls, this);
    connect(batch, &BatchFiles::failed, this, &WindowMenus::failed);
    file->addAction(tr("Load an attention &mask…"), this, [batch] { batch->choose(u"attention-mask"_s); });
    file->addAction(tr("Load document &ids…"), this, [batch] { batch->choose(u"document-ids"_s); });
    file->addAction(tr("Use no mask or document ids"), this, [batch] { batch->clear(); });
    connect(m_parts.controls, &ControlPanel::loadRequested, this, [this, batch](const QString &key) {
        if (BatchFiles::holds(key))
            batch->choose(key);
        else
            chooseMatrix(key == u"position-table"_s);
    });
    embeddingsChanged();
}

void WindowMenus::embeddingsChanged()
{
    m_randomAction->setEnabled(m_parts.embeddings->isLoaded());
}

void WindowMenus::chooseEmbeddings()
{
    chooseMatrix(false);
}

void WindowMenus::chooseMatrix(bool positionTable)
{
    FileDialogs::askOpen(m_window, positionTable ? tr("Load a learned position table") : tr("Load embeddings"),
                         QString(), tr("Matrices (*.npy *.safetensors);;All files (*)"),
                         [this, positionTable](const QString &path) { embeddingsChosen(path, positionTable); });
}

void WindowMenus::embeddingsChosen(const QString &path, bool positionTable)
{
    EmbeddingsController *embeddings = m_parts.embeddings;
    const auto tensors = embeddings->list(path);
    if (!tensors)
        return;
    m_parts.sessions->rememberFile(path);
    if (tensors->size() == 1 && TensorPicker::refusal(tensors->front()).isEmpty()) {
        // A file of one matrix needs no tensor name (a .npy has none to give).
        const QString name = tensors->front().name;
        embeddings->load({path, std::nullopt},
                         positionTable || TensorPicker::looksLikePositionTable(name.isEmpty() ? path : name));
        return;
    }
    auto *picker = new TensorPicker(path, *tensors, m_window, positionTable);
    picker->setAttribute(Qt::WA_DeleteOnClose);
    connect(picker, &QDialog::accepted, this, [embeddings, picker, path] {
        embeddings->load({path, picker->selectedTensor()}, picker->isPositionTable());
    });
    picker->open();
}

void WindowMenus::openFile(const QString &path, bool mayAsk)
{
    switch (FileOpening::kindOf(path)) {
    case FileOpening::Kind::Session:
        m_parts.sessions->open(path);
        return;
    case FileOpening::Kind::Matrix:
        openMatrix(path, mayAsk);
        return;
    case FileOpening::Kind::ModelConfig:
        openModelConfig(path);
        return;
    case FileOpening::Kind::CheckTable:
        checkTable(path);
        return;
    case FileOpening::Kind::Unknown:
        break;
    }
    emit failed(
        tr("File not opened"),
        QFileInfo::exists(path)
            ? tr("%1 is neither a session (.posenc), a matrix (.npy, .safetensors), a table to check (.csv) nor a "
                 "model's config.json, so it was not opened.")
                  .arg(path)
            : tr("%1: %2.").arg(path, absentFileReason(path)));
}

void WindowMenus::openMatrix(const QString &path, bool mayAsk)
{
    const auto tensors = m_parts.embeddings->list(path);
    if (!tensors)
        return;
    // Several arrays: the picker lists them, its tick guessed from their names.
    if (tensors->size() != 1 || !TensorPicker::refusal(tensors->front()).isEmpty()) {
        embeddingsChosen(path, false);
        return;
    }
    const QString name = tensors->front().name.isEmpty() ? QFileInfo(path).completeBaseName() : tensors->front().name;
    if (const auto table = FileOpening::isPositionTable(name)) {
        loadMatrix(path, *table);
        return;
    }
    if (!mayAsk) {
        loadMatrix(path, false);
        showStatus(tr("%1 loaded as the token embeddings; File > Load position table… takes it as a position table")
                       .arg(QFileInfo(path).fileName()),
                   15000);
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("Open a matrix"),
                                tr("What is the matrix of %1?").arg(QFileInfo(path).fileName()), QMessageBox::Cancel,
                                m_window);
    box->setObjectName(u"matrixRoleBox"_s);
    box->setTextFormat(Qt::PlainText);
    box->setInformativeText(tr("Token embeddings E (one row a token), or a learned position table (one row a "
                               "position, the learned encoding family); or your own table of positions, to check "
                               "what it computes against the references (posenc check)."));
    QPushButton *embeddings = box->addButton(tr("&Token embeddings"), QMessageBox::AcceptRole);
    embeddings->setObjectName(u"asEmbeddingsButton"_s);
    QPushButton *table = box->addButton(tr("&Position table"), QMessageBox::AcceptRole);
    table->setObjectName(u"asPositionTableButton"_s);
    QPushButton *check = box->addButton(tr("C&heck this table"), QMessageBox::ActionRole);
    check->setObjectName(u"checkThisTableButton"_s);
    check->setToolTip(tr("Say what the table computes and name the mistake in it, as File > Check a table… does"));
    box->setDefaultButton(embeddings);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, path, embeddings, table, check](QAbstractButton *clicked) {
        if (clicked == check)
            checkTable(path);
        else if (clicked == embeddings || clicked == table)
            loadMatrix(path, clicked == table);
    });
    box->open();
}

void WindowMenus::loadMatrix(const QString &path, bool positionTable)
{
    m_parts.sessions->rememberFile(path);
    m_parts.embeddings->load({path, std::nullopt}, positionTable);
}

void WindowMenus::createCheckActions(QMenu *file)
{
    QAction *table = file->addAction(tr("Check a &table…"), this, [this] {
        FileDialogs::askOpen(m_window, tr("Check a table of positions"), QString(),
                             tr("Tables (*.npy *.safetensors *.csv);;All files (*)"),
                             [this](const QString &path) { checkTable(path); });
    });
    table->setObjectName(u"checkTableAction"_s);
    table->setStatusTip(tr("Say what a table of positions computes and name the mistake in it (posenc check)"));
    QAction *config = file->addAction(tr("Open model &config…"), this, [this] {
        FileDialogs::askOpen(m_window, tr("Open a model config"), QString(),
                             tr("Model configs (*.json);;All files (*)"),
                             [this](const QString &path) { openModelConfig(path); });
    });
    config->setObjectName(u"openModelConfigAction"_s);
    config->setStatusTip(tr(
        "What an HF config.json makes each layer type compute for position, and its findings (posenc check --config)"));
}

TableCheckDialog *WindowMenus::checkTable(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != u"csv"_s && FileOpening::kindOf(path) == FileOpening::Kind::Matrix) {
        const auto tensors = MatrixFile::list(path);
        if (!tensors) {
            emit failed(tr("Cannot check the table"), tensors.error().toString());
            return nullptr;
        }
        if (tensors.value().size() > 1) {
            auto *picker = new TensorPicker(path, tensors.value(), m_window, false, TensorPicker::Purpose::Check);
            picker->setObjectName(u"checkTensorPicker"_s);
            picker->setAttribute(Qt::WA_DeleteOnClose);
            connect(picker, &QDialog::accepted, this, [this, picker, path] {
                checkTable(MatrixSource {path, picker->selectedTensor()});
            });
            picker->open();
            return nullptr;
        }
    }
    return checkTable(MatrixSource {path, std::nullopt});
}

TableCheckDialog *WindowMenus::checkTable(const MatrixSource &source)
{
    ControlPanel *controls = m_parts.controls;
    auto *dialog = new TableCheckDialog(
        source, controls->params().memoryBudget, [controls] { return controls->params(); },
        [this](const Params &params) { applyReference(params, tr("the checked table's reference")); }, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    ExportController *exports = m_parts.exports;
    WindowColormap::follow(
        dialog, [exports]() -> const FigureView * { return exports->currentView(); }, m_parts.dashboard->views());
    dialog->show();
    return dialog;
}

ModelConfigDialog *WindowMenus::openModelConfig(const QString &path)
{
    ControlPanel *controls = m_parts.controls;
    auto *dialog = new ModelConfigDialog(
        path, [controls] { return controls->params(); },
        [this](const Params &params) { applyReference(params, tr("the config's layers")); }, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void WindowMenus::applyReference(const Params &params, const QString &what)
{
    m_parts.controls->applyParams(params);
    if (m_parts.history)
        m_parts.history->settle();
    showStatus(tr("Set the parameters to %1 (Edit > Undo takes them back)").arg(what), 8000);
}

void WindowMenus::createExportActions(QMenu *file)
{
    ExportController *exports = m_parts.exports;
    file->addAction(exports->exportFigureAction());
    file->addAction(exports->exportDataAction());
    connect(exports, &ExportController::figureSaved, this,
            [this](const QString &path) { showStatus(tr("Exported the figure %1").arg(path), 5000); });
    connect(exports, &ExportController::dataSaved, this,
            [this](const QString &path) { showStatus(tr("Wrote the table %1").arg(path), 5000); });
    connect(exports, &ExportController::figureCopied, this,
            [this] { showStatus(tr("Copied the figure to the clipboard"), 3000); });
    // Right-click on a plot: the same actions for that view.
    for (FigureView *view : m_parts.dashboard->views()) {
        connect(view, &FigureView::contextMenuRequested, this, [this, exports, view](const QPoint &globalPos) {
            auto *menu = new QMenu(m_window);
            menu->setAttribute(Qt::WA_DeleteOnClose);
            QAction *exportFigure
                = menu->addAction(exports->exportFigureAction()->text(), exports, &ExportController::openFigureDialog);
            exportFigure->setEnabled(view->problems().isEmpty());
            menu->addAction(exports->copyFigureAction());
            menu->addAction(exports->exportDataAction());
            menu->popup(globalPos);
        });
    }
}

void WindowMenus::createViewMenu()
{
    Dashboard *dashboard = m_parts.dashboard;
    QMenu *view = m_window->menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Reset all views"), QKeySequence(u"Ctrl+0"_s), this, [dashboard] {
        for (FigureView *v : dashboard->views())
            v->resetView();
    });
    for (int i = 0; i < dashboard->views().size(); ++i) {
        view->addAction(tr("Maximise or restore view %1").arg(i + 1), QKeySequence(u"Ctrl+%1"_s.arg(i + 1)), this,
                        [dashboard, i] { dashboard->toggleMaximized(dashboard->views()[i]); });
    }
    createLayoutMenu(view);
    if (m_parts.parameters)
        view->addAction(m_parts.parameters->foldAction());
    // Any figure in the view the figure actions act on (the last one clicked).
    QMenu *figures = view->addMenu(tr("Show &figure"));
    figures->setObjectName(u"showFigureMenu"_s);
    for (const FigureDescriptor *figure : FigureRegistry::all()) {
        QAction *show = figures->addAction(figure->model().title(), this,
                                           [this, figure] { m_parts.exports->currentView()->setFigure(*figure); });
        show->setData(figure->name());
    }
    // Only the figures of the chosen encoding family are offered.
    connect(figures, &QMenu::aboutToShow, this, [this, figures] {
        const Params &params = m_parts.controls->params();
        for (QAction *action : figures->actions())
            action->setVisible(FigureRegistry::find(action->data().toString())->model().appliesTo(params));
    });
}

void WindowMenus::createLayoutMenu(QMenu *view)
{
    Dashboard *dashboard = m_parts.dashboard;
    QMenu *layout = view->addMenu(tr("&Layout"));
    layout->setObjectName(u"layoutMenu"_s);
    auto *group = new QActionGroup(layout);
    const QList<std::pair<Dashboard::Arrangement, QString>> arrangements = {
        {Dashboard::Arrangement::One, tr("One view")},
        {Dashboard::Arrangement::SideBySide, tr("Two views side by side")},
        {Dashboard::Arrangement::Stacked, tr("Two views stacked")},
        {Dashboard::Arrangement::Grid, tr("Four views")},
    };
    for (const auto &entry : arrangements) {
        const Dashboard::Arrangement arrangement = entry.first;
        QAction *action = layout->addAction(entry.second, this,
                                            [dashboard, arrangement] { dashboard->setArrangement(arrangement); });
        action->setObjectName(u"layout-"_s + Dashboard::toString(arrangement));
        action->setCheckable(true);
        action->setChecked(dashboard->arrangement() == arrangement);
        group->addAction(action);
        connect(dashboard, &Dashboard::arrangementChanged, action,
                [action, arrangement](Dashboard::Arrangement now) { action->setChecked(now == arrangement); });
    }
}

void WindowMenus::createLessonsMenu()
{
    LessonController *lessons = m_parts.lessons;
    QMenu *menu = m_window->menuBar()->addMenu(tr("&Lessons"));
    menu->setObjectName(u"lessonsMenu"_s);
    menu->addAction(lessons->startPanelAction());
    menu->addSeparator();
    menu->addActions(lessons->lessonActions());
    menu->addSeparator();
    menu->addAction(lessons->previousAction());
    menu->addAction(lessons->nextAction());
    menu->addAction(lessons->leaveAction());
    menu->addSeparator();
    menu->addAction(lessons->room()->textBelowAction());
    connect(lessons, &LessonController::opened, this, [this, lessons] {
        if (const Lesson *lesson = lessons->current())
            showStatus(tr("Lesson: %1").arg(lesson->title), 5000);
    });
    connect(lessons, &LessonController::left, this, [this](bool restored) {
        showStatus(restored ? tr("Left the lesson: your parameters and views are back")
                            : tr("Left the lesson: the parameters and views it showed are yours now"),
                   5000);
    });
}

void WindowMenus::createHelp()
{
    QMenu *help = createHelpMenu(m_window->menuBar(), m_window);
    QMenu *lessons = new QMenu(tr("&Lessons"), help);
    lessons->setObjectName(u"helpLessonsMenu"_s);
    lessons->addAction(m_parts.lessons->startPanelAction());
    lessons->addSeparator();
    lessons->addActions(m_parts.lessons->lessonActions());
    QAction *shortcuts = new QAction(tr("&Keyboard shortcuts…"), help);
    shortcuts->setObjectName(u"shortcutsAction"_s);
    connect(shortcuts, &QAction::triggered, this, [this] {
        auto *dialog = new ShortcutsDialog(m_window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    QAction *guide = new QAction(tr("&User guide"), help);
    guide->setObjectName(u"userGuideAction"_s);
    connect(guide, &QAction::triggered, this, [this] {
        auto *dialog = new UserGuideDialog(m_window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    QAction *first = help->actions().value(0);
    help->insertMenu(first, lessons);
    help->insertAction(first, guide);
    help->insertAction(first, shortcuts);
    help->insertSeparator(first);
}

} // namespace posenc
