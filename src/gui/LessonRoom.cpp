#include "LessonRoom.h"

#include "LessonPanel.h"
#include "ParameterDock.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QSettings>
#include <QStyle>

#include <algorithm>

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
    m_parts.panel->setTextBelow(m_textBelow);
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
    const int room = int((1.0 - kFigureShare) * window->width()) - beside - separators;
    const int code = m_parts.panel->codeWidth() + kPanelMargins;
    return std::max(comfortable, std::min(code, room));
}

void LessonRoom::placeDock()
{
    QMainWindow *window = m_parts.window;
    QDockWidget *dock = m_parts.dock;
    dock->setMinimumWidth(m_textBelow ? 0 : kNarrowestText);
    if (!dock->isFloating()) {
        const Qt::DockWidgetArea area = window->dockWidgetArea(dock);
        const bool below = area == Qt::BottomDockWidgetArea || area == Qt::TopDockWidgetArea;
        if (below != m_textBelow)
            window->addDockWidget(m_textBelow ? Qt::BottomDockWidgetArea : Qt::RightDockWidgetArea, dock);
        window->resizeDocks({dock}, {textExtent()}, m_textBelow ? Qt::Vertical : Qt::Horizontal);
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
    placeDock();
}

void LessonRoom::lessonsEnded()
{
    if (!m_inLessons)
        return;
    m_inLessons = false;
    m_parts.parameters->setFolded(m_foldedBefore);
}

} // namespace posenc
