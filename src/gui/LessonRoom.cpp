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
    const int comfortable = std::clamp(int(kTextShare * window->width()), kNarrowestText, kWidestText);
    return std::max(comfortable, m_parts.dock->minimumWidth());
}

void LessonRoom::placeDock()
{
    QMainWindow *window = m_parts.window;
    QDockWidget *dock = m_parts.dock;
    // Wide enough beside the figure for the lesson's code, whose lines do not wrap; below it,
    // the code has a column of its own.
    dock->setMinimumWidth(m_textBelow ? 0 : std::max(kNarrowestText, m_parts.panel->minimumSizeHint().width() + 24));
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
    placeDock();
    if (m_inLessons)
        return; // the next lesson keeps the panel as the user left it
    m_inLessons = true;
    ParameterDock *parameters = m_parts.parameters;
    m_foldedBefore = parameters->isFolded();
    if (parameters->isFolded() || !besideTheFigure(m_parts.window, parameters))
        return;
    const QMainWindow *window = m_parts.window;
    const int separator = window->style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, window);
    const int text = m_textBelow ? 0 : textExtent() + separator;
    const int panel = std::max(parameters->width(), parameters->minimumSizeHint().width());
    const int figure = window->width() - panel - separator - text;
    if (figure < kFigureShare * window->width())
        parameters->setFolded(true);
}

void LessonRoom::lessonsEnded()
{
    if (!m_inLessons)
        return;
    m_inLessons = false;
    m_parts.parameters->setFolded(m_foldedBefore);
}

} // namespace posenc
