#include "MainWindow.h"

#include "ControlPanel.h"
#include "Dashboard.h"
#include "EmbeddingsController.h"
#include "ExportController.h"
#include "FigureView.h"
#include "FileDialogs.h"
#include "HoverReadout.h"
#include "MatrixLoader.h"
#include "SessionController.h"
#include "Settings.h"
#include "TensorPicker.h"

#include "render/FigureRegistry.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabWidget>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

QList<FigureView *> makeViews(const QStringList &figures)
{
    QList<FigureView *> views;
    for (const QString &name : figures)
        views.append(new FigureView(*FigureRegistry::find(name)));
    return views;
}

} // namespace

QStringList MainWindow::defaultFigures()
{
    return {u"heatmap"_s, u"curves"_s, u"magnitudes"_s, u"dropout"_s};
}

MainWindow::MainWindow(const Params &params, QSettings *settings, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_controls(new ControlPanel)
    , m_dashboard(new Dashboard(makeViews(defaultFigures())))
    , m_learned(new FigureView(*FigureRegistry::find(u"learned"_s), false))
    , m_tabs(new QTabWidget)
    , m_readout(new QLabel)
    , m_matrixNote(new QLabel)
    , m_loader(new MatrixLoader(this))
    , m_embeddings(new EmbeddingsController(m_controls, m_loader, this))
    , m_sessions(new SessionController({m_controls, m_dashboard, m_loader,
                                        [this] {
                                            QJsonObject view = m_embeddings->viewState();
                                            view.insert(u"tab"_s, m_tabs->currentIndex());
                                            return view;
                                        },
                                        [this](const QJsonObject &view) {
                                            m_embeddings->restoreViewState(view);
                                            m_tabs->setCurrentIndex(view.value(u"tab"_s).toInt(0));
                                        }},
                                       settings, this))
    , m_exports(new ExportController(this, allViews(), settings, this))
{
    setWindowTitle(tr("PosEnc Explorer"));
    m_tabs->setObjectName(u"viewTabs"_s);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_dashboard, tr("Views"));
    m_tabs->addTab(m_learned, tr("Learned vs sinusoidal"));
    m_tabs->setTabVisible(1, false);
    setCentralWidget(m_tabs);
    auto *dock = new QDockWidget(tr("Parameters"), this);
    dock->setObjectName(u"parametersDock"_s);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    auto *scroll = new QScrollArea;
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    dock->setWidget(scroll);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    m_readout->setObjectName(u"hoverReadout"_s);
    statusBar()->addWidget(m_readout, 1);
    m_matrixNote->setObjectName(u"matrixNote"_s);
    statusBar()->addPermanentWidget(m_matrixNote);
    createMenus();

    connect(m_controls, &ControlPanel::paramsChanged, this, &MainWindow::applyParams);
    connect(m_sessions, &SessionController::failed, this, &MainWindow::showProblem);
    connect(m_embeddings, &EmbeddingsController::failed, this, &MainWindow::showProblem);
    connect(m_embeddings, &EmbeddingsController::embeddingsChanged, this, &MainWindow::embeddingsChanged);
    connect(m_sessions, &SessionController::saved, this,
            [this](const QString &path) { statusBar()->showMessage(tr("Saved the session %1").arg(path), 5000); });
    connect(m_sessions, &SessionController::opened, this,
            [this](const QString &path) { statusBar()->showMessage(tr("Opened the session %1").arg(path), 5000); });
    connect(m_loader, &MatrixLoader::loadingChanged, this, [this](bool loading, const QString &source) {
        if (loading)
            statusBar()->showMessage(tr("Reading %1 …").arg(source));
        else
            statusBar()->clearMessage();
    });
    for (FigureView *view : allViews())
        connectView(view);
    m_controls->setParams(params);
    applyParams(params);
    m_embeddings->adopt(params);
    resize(1500, 950);
    if (m_settings)
        restoreGeometry(Settings::loadGeometry(*m_settings));
}

void MainWindow::connectView(FigureView *view)
{
    connect(view, &FigureView::hovered, this, [this, view](const HoverPoint &point) {
        m_readout->setText(HoverReadout::format(view->params(), point));
        for (FigureView *other : allViews()) {
            if (other != view)
                other->setCursorPosition(point.hasPosition ? std::optional(point.position) : std::nullopt);
        }
    });
    connect(view, &FigureView::hoverLeft, this, [this] {
        m_readout->clear();
        for (FigureView *other : allViews())
            other->setCursorPosition(std::nullopt);
    });
    connect(view, &FigureView::drawn, this, &MainWindow::viewDrawn);
}

QString MainWindow::matrixNote() const
{
    return m_matrixNote->text();
}

QList<FigureView *> MainWindow::views() const
{
    return m_dashboard->views();
}

QList<FigureView *> MainWindow::allViews() const
{
    return views() + QList<FigureView *> {m_learned};
}

FigureView *MainWindow::viewOf(const QString &name) const
{
    for (FigureView *view : views()) {
        if (view->figure().name() == name)
            return view;
    }
    return nullptr;
}

bool MainWindow::isUpToDate() const
{
    for (const FigureView *view : views()) {
        if (view->isVisibleTo(this) && view->drawnSerial() != view->paramsSerial())
            return false;
    }
    return true;
}

bool MainWindow::isSettled() const
{
    for (const FigureView *view : allViews()) {
        if (!view->isSettled())
            return false;
    }
    return true;
}

void MainWindow::applyParams(const Params &params)
{
    for (FigureView *view : allViews())
        view->setParams(params);
}

void MainWindow::embeddingsChanged()
{
    const bool table = m_embeddings->isPositionTable();
    const bool wasVisible = m_tabs->isTabVisible(1);
    m_tabs->setTabVisible(1, table);
    if (table && !wasVisible)
        m_tabs->setCurrentIndex(1);
    m_matrixNote->setText(m_embeddings->statisticsText());
    if (m_positionTableAction) {
        const QSignalBlocker block(m_positionTableAction);
        m_positionTableAction->setEnabled(m_embeddings->isLoaded());
        m_positionTableAction->setChecked(table);
        m_randomAction->setEnabled(m_embeddings->isLoaded());
    }
}

void MainWindow::chooseEmbeddings()
{
    FileDialogs::askOpen(this, tr("Load embeddings"), QString(), tr("Matrices (*.npy *.safetensors);;All files (*)"),
                         [this](const QString &path) { embeddingsChosen(path); });
}

void MainWindow::embeddingsChosen(const QString &path)
{
    const auto tensors = m_embeddings->list(path);
    if (!tensors)
        return;
    if (tensors->size() == 1 && TensorPicker::refusal(tensors->front()).isEmpty()) {
        // A file of one matrix needs no tensor name (a .npy has none to give).
        const QString name = tensors->front().name;
        m_embeddings->load({path, std::nullopt}, TensorPicker::looksLikePositionTable(name.isEmpty() ? path : name));
        return;
    }
    auto *picker = new TensorPicker(path, *tensors, this);
    picker->setAttribute(Qt::WA_DeleteOnClose);
    connect(picker, &QDialog::accepted, this, [this, picker, path] {
        m_embeddings->load({path, picker->selectedTensor()}, picker->isPositionTable());
    });
    picker->open();
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    createSessionMenu(file);
    file->addSeparator();
    createEmbeddingsMenu(file);
    file->addSeparator();
    createExportActions(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_exports->copyFigureAction());
    createViewMenu();
}

void MainWindow::createViewMenu()
{
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Reset all views"), QKeySequence(u"Ctrl+0"_s), this, [this] {
        for (FigureView *v : views())
            v->resetView();
    });
    for (int i = 0; i < views().size(); ++i) {
        view->addAction(tr("Maximise or restore view %1").arg(i + 1), QKeySequence(u"Ctrl+%1"_s.arg(i + 1)), this,
                        [this, i] { m_dashboard->toggleMaximized(views()[i]); });
    }
    // Any figure in the view the figure actions act on (the last one clicked).
    QMenu *figures = view->addMenu(tr("Show &figure"));
    figures->setObjectName(u"showFigureMenu"_s);
    for (const FigureDescriptor *figure : FigureRegistry::all()) {
        figures->addAction(figure->model().title(), this, [this, figure] {
            FigureView *current = m_exports->currentView();
            (current == m_learned ? views().front() : current)->setFigure(*figure);
        });
    }
}

void MainWindow::createSessionMenu(QMenu *file)
{
    const QString filter = tr("PosEnc sessions (*.json);;All files (*)");
    file->addAction(tr("&Open session…"), QKeySequence::Open, this, [this, filter] {
        FileDialogs::askOpen(this, tr("Open session"), QString(), filter,
                             [this](const QString &path) { m_sessions->open(path); });
    });
    file->addAction(tr("&Save session…"), QKeySequence::Save, this, [this, filter] {
        FileDialogs::askSave(this, tr("Save session"), QString(), filter,
                             [this](const QString &path) { m_sessions->save(path); });
    });
    QMenu *recent = file->addMenu(tr("Recent sessions"));
    recent->setObjectName(u"recentSessionsMenu"_s);
    connect(recent, &QMenu::aboutToShow, this, [this, recent] {
        const QStringList gone = m_sessions->pruneRecentSessions();
        if (!gone.isEmpty())
            statusBar()->showMessage(
                tr("Removed from the recent sessions, the file is gone: %1").arg(gone.join(u", "_s)), 8000);
        recent->clear();
        for (const QString &path : m_sessions->recentSessions())
            recent->addAction(path, this, [this, path] { m_sessions->open(path); });
        if (recent->isEmpty())
            recent->addAction(tr("No recent sessions"))->setEnabled(false);
    });
}

void MainWindow::createEmbeddingsMenu(QMenu *file)
{
    file->addAction(tr("&Load embeddings…"), QKeySequence(u"Ctrl+L"_s), this, &MainWindow::chooseEmbeddings);
    m_randomAction = file->addAction(tr("Use &random embeddings"), this, [this] { m_embeddings->useRandom(); });
    m_positionTableAction = file->addAction(tr("Loaded matrix is a &position table"));
    m_positionTableAction->setCheckable(true);
    m_positionTableAction->setToolTip(tr("Show the loaded matrix beside the sinusoidal PE"));
    connect(m_positionTableAction, &QAction::toggled, m_embeddings, &EmbeddingsController::setPositionTable);
}

void MainWindow::createExportActions(QMenu *file)
{
    file->addAction(m_exports->exportFigureAction());
    file->addAction(m_exports->exportDataAction());
    connect(m_exports, &ExportController::figureSaved, this,
            [this](const QString &path) { statusBar()->showMessage(tr("Exported the figure %1").arg(path), 5000); });
    connect(m_exports, &ExportController::dataSaved, this,
            [this](const QString &path) { statusBar()->showMessage(tr("Wrote the table %1").arg(path), 5000); });
    connect(m_exports, &ExportController::figureCopied, this,
            [this] { statusBar()->showMessage(tr("Copied the figure to the clipboard"), 3000); });
    // Right-click on a plot: the same actions for that view.
    for (FigureView *view : allViews()) {
        connect(view, &FigureView::contextMenuRequested, this, [this, view](const QPoint &globalPos) {
            auto *menu = new QMenu(this);
            menu->setAttribute(Qt::WA_DeleteOnClose);
            QAction *exportFigure = menu->addAction(m_exports->exportFigureAction()->text(), m_exports,
                                                    &ExportController::openFigureDialog);
            exportFigure->setEnabled(view->problems().isEmpty());
            menu->addAction(m_exports->copyFigureAction());
            menu->addAction(m_exports->exportDataAction());
            menu->popup(globalPos);
        });
    }
}

void MainWindow::showProblem(const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_settings) {
        Settings::saveParams(*m_settings, m_controls->params());
        Settings::saveGeometry(*m_settings, saveGeometry());
        m_settings->sync();
    }
    // Nothing waits for a computation: each view's scheduler cancels its job when destroyed,
    // the loader its read and the exports their work.
    for (FigureView *view : allViews())
        view->scheduler()->cancelAll();
    m_loader->cancel();
    m_exports->cancel();
    event->accept();
}

} // namespace posenc
