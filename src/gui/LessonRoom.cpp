#include "LessonRoom.h"

#include "FigureView.h"
#include "LessonPanel.h"
#include "ParameterDock.h"

#include <QAction>
#include <QDockWidget>
#include <QLayout>
#include <QMainWindow>
#include <QMenuBar>
#include <QResizeEvent>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A lesson's text beside the figure: never narrower than this, nor wider than a line that reads
// easily, unless its code needs more.
constexpr int kNarrowestText = 320;
constexpr int kWidestText = 480;
constexpr double kTextShare = 0.3;
// Below the figure: a share of the window's height, within these.
constexpr int kLowestText = 180;
constexpr int kHighestText = 360;
// The panel's margins and its scroll area's around the code.
constexpr int kPanelMargins = 32;
// The steps in which a text that does not read whole is widened.
constexpr int kWidthStep = 8;

bool besideTheFigure(const QMainWindow *window, QDockWidget *dock)
{
    const Qt::DockWidgetArea area = window->dockWidgetArea(dock);
    return !dock->isHidden() && !dock->isFloating()
        && (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea);
}

} // namespace

LessonRoom::LessonRoom(Parts parts, QSettings *settings, QObject *parent)
    : QObject(parent)
    , m_parts(parts)
    , m_settings(settings)
    , m_textBelowAction(new QAction(tr("Lesson text &below the figure"), this))
{
    m_textBelow = m_settings && m_settings->value(QString::fromUtf16(kTextBelowKey), false).toBool();
    m_textBelowAction->setObjectName(u"lessonTextBelowAction"_s);
    m_textBelowAction->setCheckable(true);
    m_textBelowAction->setChecked(m_textBelow);
    m_textBelowAction->setStatusTip(tr("Show the lesson's text below the figure, or beside it"));
    connect(m_textBelowAction, &QAction::toggled, this, &LessonRoom::setTextBelow);
    connect(m_parts.panel, &LessonPanel::textBelowRequested, this, &LessonRoom::setTextBelow);
    // The text's width is chosen for the text a lesson shows, which the panel computes off the GUI
    // thread: the dock is placed again once the lesson just shown has it.
    connect(m_parts.panel, &LessonPanel::textShown, this, [this] {
        if (std::exchange(m_placeForText, false) && m_inLessons)
            placeDock();
    });
    m_parts.panel->setTextBelow(m_textBelow);
    m_parts.dock->installEventFilter(this);
}

void LessonRoom::setTextBelow(bool below)
{
    if (below == m_textBelow)
        return;
    m_textBelow = below;
    {
        const QSignalBlocker block(m_textBelowAction);
        m_textBelowAction->setChecked(below);
    }
    if (m_settings)
        m_settings->setValue(QString::fromUtf16(kTextBelowKey), below);
    m_parts.panel->setTextBelow(below);
    if (m_inLessons)
        placeDock();
}

int LessonRoom::textExtent() const
{
    const QMainWindow *window = m_parts.window;
    if (m_textBelow)
        return std::clamp(int(kTextShare * window->height()), kLowestText, kHighestText);
    // A comfortable line, or the code's whole lines where they are wider and the figure keeps its
    // share beside the parameters as they are (a strip when folded); the code scrolls sideways
    // past that.
    const int comfortable = std::clamp(int(kTextShare * window->width()), kNarrowestText, kWidestText);
    ParameterDock *parameters = m_parts.parameters;
    const int beside = besideTheFigure(window, m_parts.parameters)
        ? (parameters->isFolded() ? parameters->stripWidth()
                                  : std::max(parameters->width(), parameters->minimumSizeHint().width()))
        : 0;
    const int separators = 2 * window->style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, window);
    // The figure's share is of its plot: the view's margins about it (FigureView) are the text's to leave.
    int figureFrame = 0;
    if (const auto *view = window->centralWidget() ? window->centralWidget()->findChild<FigureView *>() : nullptr)
        if (const QLayout *layout = view->layout())
            figureFrame = layout->contentsMargins().left() + layout->contentsMargins().right();
    const int room = int((1.0 - kFigureShare) * window->width()) - beside - separators - figureFrame;
    const int code = m_parts.panel->codeWidth() + kPanelMargins;
    int width = std::max(comfortable, std::min(code, room));
    // Wider, up to the figure's share, until the text reads whole on the first screen, the code
    // box at its least (LessonPanel::readsWhole): a text that a laptop's window would scroll
    // takes lines from the figure's margin rather than leave its last ones out of view.
    const int height = panelHeight();
    const QDockWidget *dock = m_parts.dock;
    const int frame = dock->isVisible() ? std::max(0, dock->width() - m_parts.panel->width()) : 0;
    // The first step that reads whole is halved for, not walked to: each width asked lays the
    // labels' rich text out again, shaping every run of it, and a text whose lines only wrap reads
    // whole at every width beyond one that does (greedy wrapping: a line begun at a later word, in
    // more room, ends at a later word). The steps are those of a walk from `width` in kWidthStep to
    // `room`, which ends at `room` whether the text reads whole there or not.
    if (width >= room || m_parts.panel->readsWhole(width - frame, height))
        return width;
    const auto step = [&](int k) { return std::min(room, width + k * kWidthStep); };
    int fails = 0; // a step known not to read whole
    int reads = (room - width + kWidthStep - 1) / kWidthStep; // a step that reads whole, or `room`
    while (reads - fails > 1) {
        const int middle = fails + (reads - fails) / 2;
        (m_parts.panel->readsWhole(step(middle) - frame, height) ? reads : fails) = middle;
    }
    return step(reads);
}

int LessonRoom::panelHeight() const
{
    const QMainWindow *window = m_parts.window;
    const QDockWidget *dock = m_parts.dock;
    if (window->isVisible() && dock->isVisible() && m_parts.panel->height() > 0)
        return m_parts.panel->height();
    // Before the window shows the dock: the window's height less its bars and the dock's title
    // (the dock's resize places it again as laid out, eventFilter).
    const int title = dock->fontMetrics().height()
        + 2 * dock->style()->pixelMetric(QStyle::PM_DockWidgetTitleMargin, nullptr, dock);
    const int bars = (window->menuBar() ? window->menuBar()->sizeHint().height() : 0)
        + (window->statusBar() ? window->statusBar()->sizeHint().height() : 0);
    return window->height() - bars - title;
}

bool LessonRoom::eventFilter(QObject *watched, QEvent *event)
{
    // The dock's height changed (the window shown, or resized): the text's width is chosen
    // again for it, once the layouts have settled.
    if (watched == m_parts.dock && event->type() == QEvent::Resize && m_inLessons && !m_textBelow) {
        const int height = static_cast<QResizeEvent *>(event)->size().height();
        if (height != m_placedHeight) {
            m_placedHeight = height;
            QMetaObject::invokeMethod(this, &LessonRoom::placeDock, Qt::QueuedConnection);
        }
    }
    return QObject::eventFilter(watched, event);
}

void LessonRoom::placeDock()
{
    QMainWindow *window = m_parts.window;
    QDockWidget *dock = m_parts.dock;
    if (!m_inLessons)
        return;
    m_placedHeight = dock->height();
    dock->setMinimumWidth(m_textBelow ? 0 : kNarrowestText);
    if (!dock->isFloating()) {
        const Qt::DockWidgetArea area = window->dockWidgetArea(dock);
        const bool below = area == Qt::BottomDockWidgetArea || area == Qt::TopDockWidgetArea;
        if (below != m_textBelow)
            window->addDockWidget(m_textBelow ? Qt::BottomDockWidgetArea : Qt::RightDockWidgetArea, dock);
        window->resizeDocks({dock}, {textExtent()}, m_textBelow ? Qt::Vertical : Qt::Horizontal);
    }
    // Once more when the window has laid the dock out: the text's width was chosen for the
    // panel's size before it (a dock just shown has the size it had hidden).
    if (!m_placingAgain) {
        m_placingAgain = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                placeDock();
                m_placingAgain = false;
            },
            Qt::QueuedConnection);
    }
}

void LessonRoom::lessonShown()
{
    if (!m_inLessons) {
        // The first of a run of lessons: the next ones keep the panel as the user leaves it.
        m_inLessons = true;
        ParameterDock *parameters = m_parts.parameters;
        m_foldedBefore = parameters->isFolded();
        const QMainWindow *window = m_parts.window;
        if (!parameters->isFolded() && besideTheFigure(window, parameters)) {
            const int separator = window->style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, window);
            const int text = m_textBelow
                ? 0
                : std::clamp(int(kTextShare * window->width()), kNarrowestText, kWidestText) + separator;
            const int panel = std::max(parameters->width(), parameters->minimumSizeHint().width());
            if (window->width() - panel - separator - text < kFigureShare * window->width())
                parameters->setFolded(true);
        }
    }
    m_placeForText = !m_parts.panel->isTextReady();
    placeDock();
}

void LessonRoom::lessonsEnded()
{
    if (!m_inLessons)
        return;
    m_inLessons = false;
    m_placeForText = false;
    m_parts.parameters->setFolded(m_foldedBefore);
}

} // namespace posenc
