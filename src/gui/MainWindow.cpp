#include "MainWindow.h"

#include "Accessibility.h"
#include "ControlPanel.h"
#include "Dashboard.h"
#include "EmbeddingsController.h"
#include "ExportController.h"
#include "FigureView.h"
#include "FileOpening.h"
#include "HoverReadout.h"
#include "LessonController.h"
#include "LessonPanel.h"
#include "MatrixLoader.h"
#include "ParameterDock.h"
#include "SessionController.h"
#include "Settings.h"
#include "UndoHistory.h"
#include "WindowMenus.h"

#include "core/FamilySpec.h"
#include "core/OneLine.h"
#include "render/FigureRegistry.h"

#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QStatusBar>
#include <QTextStream>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The version of the docks' layout that saveState writes: a new dock or a dock renamed makes
// a layout of an earlier version one to forget.
constexpr int kLayoutVersion = 1;

QList<FigureView *> makeViews(const QList<std::pair<QString, FigureState>> &figures)
{
    QList<FigureView *> views;
    for (const auto &[name, state] : figures) {
        auto *view = new FigureView(*FigureRegistry::find(name));
        view->setState(state);
        views.append(view);
    }
    return views;
}

} // namespace

QList<std::pair<QString, FigureState>> MainWindow::defaultFigures(Encoding encoding)
{
    QList<std::pair<QString, FigureState>> figures;
    for (const DefaultFigure &figure : Families::spec(encoding).defaultFigures) {
        FigureState state;
        state.options = figure.options;
        figures.append({figure.figure, state});
    }
    return figures;
}

MainWindow::MainWindow(const Params &params, QSettings *settings, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_controls(new ControlPanel)
    , m_parameterDock(new ParameterDock(m_controls, this))
    , m_dashboard(new Dashboard(makeViews(defaultFigures(params.encoding))))
    , m_readout(new QLabel)
    , m_matrixNote(new QLabel)
    , m_loader(new MatrixLoader(this))
    , m_embeddings(new EmbeddingsController(m_controls, m_loader, this))
    , m_sessions(new SessionController(
          {m_controls, m_dashboard, m_loader, [] { return QJsonObject(); }, [](const QJsonObject &) {}}, settings,
          this))
    , m_exports(new ExportController(this, views(), settings, this))
    , m_lessons(new LessonController({this, m_controls, m_dashboard, m_sessions, m_parameterDock}, settings, this))
{
    Accessibility::install();
    setWindowTitle(tr("PosEnc Explorer"));
    setCentralWidget(m_dashboard);
    // The left area runs the window's height: a lesson's text below the figure stays beside it.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    addDockWidget(Qt::LeftDockWidgetArea, m_parameterDock);
    m_readout->setObjectName(u"hoverReadout"_s);
    statusBar()->addWidget(m_readout, 1);
    m_matrixNote->setObjectName(u"matrixNote"_s);
    statusBar()->addPermanentWidget(m_matrixNote);
    m_history = new UndoHistory(m_controls, m_sessions, m_lessons, this);
    m_menus = new WindowMenus(
        this, {m_sessions, m_embeddings, m_exports, m_dashboard, m_controls, m_lessons, m_history, m_parameterDock});

    connect(m_controls, &ControlPanel::paramsChanged, this, &MainWindow::applyParams);
    // What Edit > Undo takes back: the parameters, the views' figures and options, the layout,
    // a session or a lesson opened.
    connect(m_controls, &ControlPanel::paramsChanged, m_history, &UndoHistory::noteChange);
    connect(m_dashboard, &Dashboard::arrangementChanged, m_history, &UndoHistory::noteChange);
    connect(m_sessions, &SessionController::opened, m_history, &UndoHistory::noteChange);
    connect(m_lessons, &LessonController::opened, m_history, &UndoHistory::noteChange);
    connect(m_lessons, &LessonController::left, m_history, &UndoHistory::noteChange);
    connect(m_sessions, &SessionController::failed, this, &MainWindow::showProblem);
    connect(m_menus, &WindowMenus::failed, this, &MainWindow::showProblem);
    setAcceptDrops(true);
    connect(m_embeddings, &EmbeddingsController::failed, this, &MainWindow::showProblem);
    connect(m_embeddings, &EmbeddingsController::embeddingsChanged, this, &MainWindow::embeddingsChanged);
    connect(m_sessions, &SessionController::saved, this, [this](const QString &path) {
        showStatus(tr("Saved the session %1").arg(path), 5000);
        sessionFileChanged();
    });
    connect(m_sessions, &SessionController::opened, this, [this](const QString &path) {
        showStatus(tr("Opened the session %1").arg(path), 5000);
        sessionFileChanged();
    });
    // The title's [*]: a change since the session was opened or saved, which Undo can take back.
    // A window of no session has no [*] to show (Qt warns on standard error when asked to).
    connect(m_history->stack(), &QUndoStack::cleanChanged, this, [this](bool clean) {
        if (windowTitle().contains(u"[*]"_s))
            setWindowModified(!clean);
    });
    connect(m_loader, &MatrixLoader::loadingChanged, this, [this](bool loading, const QString &source) {
        if (loading)
            statusBar()->showMessage(tr("Reading %1 …").arg(source));
        else
            statusBar()->clearMessage();
    });
    for (FigureView *view : views())
        connectView(view);
    m_controls->setParams(params);
    applyParams(params);
    m_embeddings->adopt(params);
    if (const QScreen *screen = this->screen())
        setGeometry(initialGeometry(screen->availableGeometry()));
    else
        resize(kDefaultSize);
    if (m_settings)
        restoreLayout();
    m_history->restart();
}

// The window's size and its docks as the user left them. Stored values the window cannot read
// (corrupt, or of another layout version) are forgotten, and the window keeps its own layout.
void MainWindow::restoreLayout()
{
    const QByteArray remembered = Settings::loadGeometry(*m_settings);
    const QByteArray state = Settings::loadWindowState(*m_settings);
    const bool geometryRead = remembered.isEmpty() || restoreGeometry(remembered);
    const bool stateRead = state.isEmpty() || restoreState(state, kLayoutVersion);
    if (!geometryRead || !stateRead) {
        Settings::forgetWindowLayout(*m_settings);
        if (const QScreen *screen = this->screen())
            setGeometry(initialGeometry(screen->availableGeometry()));
        else
            resize(kDefaultSize);
    } else if (const QScreen *screen = this->screen(); screen && !isMaximized() && !isFullScreen()) {
        // Closed on a larger screen, or at a screenshot's size by an earlier version: within this one.
        setGeometry(withinScreen(geometry(), screen->availableGeometry()));
    }
    // The lesson's panel shows with a lesson only, whatever the window was closed with.
    m_lessons->dock()->setVisible(m_lessons->current() != nullptr);
}

QRect MainWindow::initialGeometry(const QRect &available)
{
    QRect geometry(QPoint(), kDefaultSize);
    geometry.moveCenter(available.center());
    return withinScreen(geometry, available);
}

QRect MainWindow::withinScreen(const QRect &geometry, const QRect &available)
{
    // A window frame's title bar and borders come on top of the geometry: leave room for them.
    const QMargins frame(10, 30, 10, 10);
    const QRect room = available.marginsRemoved(frame);
    QRect placed(geometry.topLeft(), geometry.size().boundedTo(room.size()).expandedTo(QSize(1, 1)));
    if (placed.right() > room.right())
        placed.moveRight(room.right());
    if (placed.bottom() > room.bottom())
        placed.moveBottom(room.bottom());
    if (placed.left() < room.left())
        placed.moveLeft(room.left());
    if (placed.top() < room.top())
        placed.moveTop(room.top());
    return placed;
}

void MainWindow::fitToScreen()
{
    const QScreen *screen = this->screen();
    if (m_sizeGiven || !screen || isMaximized() || isFullScreen())
        return;
    const QRect available = screen->availableGeometry();
    fitArrangementTo(available.size());
    // A window sized while its arrangement needed more (a grid's least width at 2x) stays that
    // large once the arrangement needs less: it is made to fit again.
    setGeometry(withinScreen(geometry(), available));
}

void MainWindow::fitArrangementTo(const QSize &available)
{
    using Arrangement = Dashboard::Arrangement;
    // The least a view needs for its figure to stay legible: smaller, one view's title, legend
    // and axes crowd each other out (a 2 x 2 grid beside the parameters at 960 x 540 does).
    constexpr QSize kLegibleView(400, 260);
    const auto fits = [&] {
        // The hints are cached by the layouts: measured afresh for the arrangement now.
        m_dashboard->updateGeometry();
        if (QLayout *layout = this->layout()) {
            layout->invalidate();
            layout->activate();
        }
        const QSize least = minimumSizeHint();
        const QSize around = least - m_dashboard->minimumSizeHint(); // the docks, menus and status bar
        const int views = Dashboard::viewCount(m_dashboard->arrangement());
        const bool twoColumns
            = m_dashboard->arrangement() == Arrangement::Grid || m_dashboard->arrangement() == Arrangement::SideBySide;
        const int columns = twoColumns ? 2 : 1;
        const int rows = views / columns;
        const QSize room = available - around;
        return least.width() <= available.width() && least.height() <= available.height()
            && room.width() / columns >= kLegibleView.width() && room.height() / rows >= kLegibleView.height();
    };
    // From more views to fewer; a side-by-side pair is as wide as the grid.
    const QList<Arrangement> fewer = {Arrangement::Grid, Arrangement::Stacked, Arrangement::One};
    const Arrangement now = m_dashboard->arrangement();
    for (qsizetype i = now == Arrangement::SideBySide ? 0 : fewer.indexOf(now); i + 1 < fewer.size() && !fits(); ++i)
        m_dashboard->setArrangement(fewer[i + 1]);
}

void MainWindow::connectView(FigureView *view)
{
    connect(view, &FigureView::stateEdited, m_history, &UndoHistory::noteChange);
    connect(view, &FigureView::maximizeRequested, m_history, &UndoHistory::noteChange);
    connect(view, &FigureView::hovered, this, [this, view](const HoverPoint &point) {
        m_readout->setText(HoverReadout::format(*view->engine(), point));
        for (FigureView *other : views()) {
            if (other != view)
                other->setCursorPosition(point.hasPosition ? std::optional(point.position) : std::nullopt);
        }
    });
    connect(view, &FigureView::hoverLeft, this, [this] {
        clearReadout();
        for (FigureView *other : views())
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

void MainWindow::showStatus(const QString &text, int milliseconds)
{
    statusBar()->showMessage(text, m_messagesStay ? 0 : milliseconds);
}

bool MainWindow::isSettled() const
{
    for (const FigureView *view : views()) {
        if (!view->isSettled())
            return false;
    }
    // A lesson's text is computed off the GUI thread too (LessonPanel).
    return m_lessons->panel()->isTextReady();
}

// QLabel::clear lays the label out anew even when it shows nothing, and the status bar's layout
// with it, then the window's: every change of parameters laid out the whole window again.
void MainWindow::clearReadout()
{
    if (!m_readout->text().isEmpty())
        m_readout->clear();
}

void MainWindow::applyParams(const Params &params)
{
    const ParamsChange change = ParamsChange::between(m_params, std::make_shared<const Engine>(params));
    m_params = params;
    // A readout of the old parameters' cell would be stale: it comes back with the next move.
    clearReadout();
    const QList<FigureView *> all = views();
    for (FigureView *view : all)
        view->setParams(change);
    if (!change.keys.contains(u"encoding"_s))
        return;
    // Another family: a view whose figure does not apply to it, or cannot be drawn for it (a
    // heatmap of a quantity the family lacks), takes the family's figure at its place, and the
    // family's first figure is shown somewhere.
    const auto defaults = defaultFigures(params.encoding);
    bool mainShown = false;
    for (qsizetype i = 0; i < all.size(); ++i) {
        FigureView *view = all[i];
        if (i < defaults.size() && (!view->figure().model().appliesTo(params) || !view->problems().isEmpty()))
            view->setFigure(*FigureRegistry::find(defaults[i].first), defaults[i].second);
        mainShown = mainShown || view->figure().name() == defaults.front().first;
    }
    if (!mainShown && !all.isEmpty())
        all.front()->setFigure(*FigureRegistry::find(defaults.front().first), defaults.front().second);
    // The family's views and rows need their room: fitted once the panel has its new rows, where
    // the window was within its screen (a window made larger than its screen on purpose stays so).
    const QScreen *screen = this->screen();
    if (isVisible() && screen && withinScreen(geometry(), screen->availableGeometry()) == geometry())
        QMetaObject::invokeMethod(this, &MainWindow::fitToScreen, Qt::QueuedConnection);
}

void MainWindow::sessionFileChanged()
{
    // What the file holds is what is shown now: a change still settling belongs to it.
    m_history->settle();
    m_history->stack()->setClean();
    setWindowModified(false);
    setWindowTitle(tr("%1[*] — PosEnc Explorer").arg(QFileInfo(m_sessions->file()).fileName()));
}

void MainWindow::embeddingsChanged()
{
    m_matrixNote->setText(m_embeddings->statisticsText());
    m_menus->embeddingsChanged();
}

void MainWindow::openFile(const QString &path, bool mayAsk)
{
    m_menus->openFile(path, mayAsk);
}

namespace {

// The local files of a drag, in its order.
QStringList localFiles(const QMimeData *data)
{
    QStringList files;
    if (data && data->hasUrls()) {
        for (const QUrl &url : data->urls())
            if (url.isLocalFile())
                files.append(url.toLocalFile());
    }
    return files;
}

} // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (!localFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

// Each file as posenc FILE opens it, in the drag's order.
void MainWindow::dropEvent(QDropEvent *event)
{
    const QStringList files = localFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    // Shift held: a .npy or .safetensors file is checked (File > Check a table…), not loaded.
    const bool check = event->modifiers().testFlag(Qt::ShiftModifier);
    for (const QString &file : files) {
        if (check && FileOpening::kindOf(file) == FileOpening::Kind::Matrix)
            m_menus->checkTable(file);
        else
            openFile(file);
    }
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
        // A size given on the command line is not the user's window (a screenshot's 1920 x 1080
        // then opened so on a laptop).
        if (!m_sizeGiven) {
            Settings::saveGeometry(*m_settings, saveGeometry());
            Settings::saveWindowState(*m_settings, saveState(kLayoutVersion));
        }
        if (const QString problem = Settings::save(*m_settings); !problem.isEmpty() && !m_settingsProblemSaid) {
            m_settingsProblemSaid = true;
            QTextStream(stderr) << "posenc: " << oneLine(problem) << '\n';
            // Said in the window too, once, as it closes (a read-only settings file lost what it
            // remembered with a line on standard error alone): the window closes once the box is
            // answered. A screenshot's window cannot wait for an answer.
            if (isVisible() && !m_messagesStay) {
                QString said = oneLine(problem);
                said[0] = said[0].toUpper();
                auto *box = new QMessageBox(QMessageBox::Warning, tr("Settings not saved"),
                                            tr("%1. The window closes without remembering its parameters and "
                                               "layout for next time.")
                                                .arg(said),
                                            QMessageBox::Ok, this);
                box->setObjectName(u"settingsNotSaved"_s);
                box->setTextFormat(Qt::PlainText); // the path is the user's: no rich text of it
                box->setAttribute(Qt::WA_DeleteOnClose);
                connect(box, &QDialog::finished, this, &QWidget::close, Qt::QueuedConnection);
                box->open();
                event->ignore();
                return;
            }
        }
    }
    // Nothing waits for a computation: each view's scheduler cancels its job when destroyed,
    // the loader its read and the exports their work.
    for (FigureView *view : views())
        view->scheduler()->cancelAll();
    m_loader->cancel();
    m_exports->cancel();
    event->accept();
}

} // namespace posenc
