#include "MainWindow.h"

#include "AboutDialog.h"
#include "ControlPanel.h"
#include "CurvesView.h"
#include "Dashboard.h"
#include "DropoutView.h"
#include "EmbeddingsController.h"
#include "ExportController.h"
#include "HeatmapView.h"
#include "LearnedView.h"
#include "MagnitudesView.h"
#include "MatrixLoader.h"
#include "SessionController.h"
#include "Settings.h"
#include "TensorPicker.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabWidget>

using namespace Qt::StringLiterals;

namespace posenc {

MainWindow::MainWindow(const Params &params, QSettings *settings, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_controls(new ControlPanel)
    , m_heatmap(new HeatmapView)
    , m_curves(new CurvesView)
    , m_magnitudes(new MagnitudesView)
    , m_dropout(new DropoutView)
    , m_dashboard(new Dashboard({m_heatmap, m_curves, m_magnitudes, m_dropout}))
    , m_learned(new LearnedView)
    , m_tabs(new QTabWidget)
    , m_readout(new QLabel)
    , m_loader(new MatrixLoader(this))
    , m_embeddings(new EmbeddingsController(m_controls, m_loader, this))
    , m_sessions(new SessionController({m_controls, m_heatmap, m_curves, m_dashboard, m_loader,
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
    , m_exports(new ExportController(this, {m_heatmap, m_curves, m_magnitudes, m_dropout, m_learned}, settings, this))
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
    for (PlotView *view : allViews()) {
        connect(view, &PlotView::hovered, this, [this, view](const HoverPoint &point) {
            m_readout->setText(HoverReadout::format(view->params(), point));
            for (PlotView *other : allViews()) {
                if (other != view)
                    other->setCursorPosition(point.hasPosition ? std::optional(point.position) : std::nullopt);
            }
        });
        connect(view, &PlotView::hoverLeft, this, [this] {
            m_readout->clear();
            for (PlotView *other : allViews())
                other->setCursorPosition(std::nullopt);
        });
        connect(view, &PlotView::drawn, this, &MainWindow::viewDrawn);
    }
    m_controls->setParams(params);
    applyParams(params);
    m_embeddings->adopt(params);
    resize(1500, 950);
    if (m_settings)
        restoreGeometry(Settings::loadGeometry(*m_settings));
}

QList<PlotView *> MainWindow::views() const
{
    return {m_heatmap, m_curves, m_magnitudes, m_dropout};
}

QList<PlotView *> MainWindow::allViews() const
{
    return {m_heatmap, m_curves, m_magnitudes, m_dropout, m_learned};
}

bool MainWindow::isUpToDate() const
{
    for (const PlotView *view : views()) {
        if (view->isVisibleTo(this) && view->drawnSerial() != view->paramsSerial())
            return false;
    }
    return true;
}

bool MainWindow::isSettled() const
{
    for (const PlotView *view : allViews()) {
        if (!view->isSettled())
            return false;
    }
    return true;
}

void MainWindow::applyParams(const Params &params)
{
    for (PlotView *view : allViews())
        view->setParams(params);
}

void MainWindow::embeddingsChanged()
{
    const bool table = m_embeddings->isPositionTable();
    const bool wasVisible = m_tabs->isTabVisible(1);
    m_tabs->setTabVisible(1, table);
    if (table && !wasVisible)
        m_tabs->setCurrentIndex(1);
    m_magnitudes->setNote(m_embeddings->statisticsText());
    if (m_positionTableAction) {
        const QSignalBlocker block(m_positionTableAction);
        m_positionTableAction->setEnabled(m_embeddings->isLoaded());
        m_positionTableAction->setChecked(table);
        m_randomAction->setEnabled(m_embeddings->isLoaded());
    }
}

void MainWindow::chooseEmbeddings()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Load embeddings"), QString(),
                                                      tr("Matrices (*.npy *.safetensors);;All files (*)"));
    if (path.isEmpty())
        return;
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
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Reset all views"), QKeySequence(u"Ctrl+0"_s), this, [this] {
        for (PlotView *v : views())
            v->resetView();
    });
    const QStringList names = {tr("Heatmap"), tr("Curves"), tr("Magnitudes"), tr("Dropout")};
    for (int i = 0; i < 4; ++i) {
        view->addAction(tr("Maximise or restore %1").arg(names[i]), QKeySequence(u"Ctrl+%1"_s.arg(i + 1)), this,
                        [this, i] { m_dashboard->toggleMaximized(views()[i]); });
    }
    createHelpMenu(menuBar(), this);
}

void MainWindow::createSessionMenu(QMenu *file)
{
    const QString filter = tr("PosEnc sessions (*.json);;All files (*)");
    file->addAction(tr("&Open session…"), QKeySequence::Open, this, [this, filter] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(), filter);
        if (!path.isEmpty())
            m_sessions->open(path);
    });
    file->addAction(tr("&Save session…"), QKeySequence::Save, this, [this, filter] {
        // A save dialog asks before it overwrites an existing file (the default, kept on).
        QFileDialog dialog(this, tr("Save session"), QString(), filter);
        dialog.setAcceptMode(QFileDialog::AcceptSave);
        dialog.setDefaultSuffix(u"json"_s);
        if (dialog.exec() == QDialog::Accepted && !dialog.selectedFiles().isEmpty())
            m_sessions->save(dialog.selectedFiles().constFirst());
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
    for (PlotView *view : allViews()) {
        connect(view, &PlotView::contextMenuRequested, this, [this, view](const QPoint &globalPos) {
            auto *menu = new QMenu(this);
            menu->setAttribute(Qt::WA_DeleteOnClose);
            QAction *exportFigure = menu->addAction(m_exports->exportFigureAction()->text(), m_exports,
                                                    &ExportController::openFigureDialog);
            exportFigure->setEnabled(view->figureOptions().has_value());
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
    // Nothing waits for a computation: each view's scheduler cancels its job when destroyed.
    for (PlotView *view : allViews())
        view->scheduler()->cancelAll();
    event->accept();
}

} // namespace posenc
