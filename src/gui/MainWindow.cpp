#include "MainWindow.h"

#include "ControlPanel.h"
#include "Dashboard.h"
#include "EmbeddingsController.h"
#include "ExportController.h"
#include "FigureView.h"
#include "HoverReadout.h"
#include "LessonController.h"
#include "MatrixLoader.h"
#include "SessionController.h"
#include "Settings.h"
#include "WindowMenus.h"

#include "render/FigureRegistry.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
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
    , m_lessons(new LessonController({this, m_controls, m_dashboard, m_sessions}, settings, this))
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
    m_menus = new WindowMenus(this, {m_sessions, m_embeddings, m_exports, m_dashboard, m_learned, m_lessons});

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
        m_readout->setText(HoverReadout::format(*view->engine(), point));
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
    m_menus->embeddingsChanged();
}

void MainWindow::showProblem(const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    // The text quotes paths and files' contents: shown as rich text, an "<img src=...>" in them
    // would be loaded (WriteDialogs::showRefusal).
    box->setTextFormat(Qt::PlainText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Parameters the user changed in a lesson are theirs: closing asks, as Leave lesson does,
    // whether to keep them or go back, and closes once the lesson is left.
    m_controls->commitPendingEdits(); // what the controls show is what is remembered
    if (m_lessons->leavingAsks()) {
        event->ignore();
        m_lessons->requestLeave([this] { close(); });
        return;
    }
    if (m_settings) {
        Settings::saveParams(*m_settings, m_lessons->rememberedParams());
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
