#include "ParameterDock.h"

#include "ControlPanel.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QPainter>
#include <QScrollArea>
#include <QStyle>
#include <QStyleOptionButton>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The folded panel: a narrow button whose text runs down its length, as a side bar's tab does.
class FoldedStrip : public QAbstractButton
{
public:
    explicit FoldedStrip(QWidget *parent = nullptr)
        : QAbstractButton(parent)
    {
        setText(ParameterDock::tr("Parameters ▸"));
        setCursor(Qt::PointingHandCursor);
        setFocusPolicy(Qt::StrongFocus);
        setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
    }

    QSize sizeHint() const override
    {
        const QFontMetrics metrics(font());
        return {metrics.height() + 2 * kPadding, metrics.horizontalAdvance(text()) + 4 * kPadding};
    }
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter painter(this);
        QStyleOptionButton option;
        option.initFrom(this);
        option.state |= isDown() ? QStyle::State_Sunken : QStyle::State_Raised;
        if (underMouse())
            option.state |= QStyle::State_MouseOver;
        style()->drawControl(QStyle::CE_PushButtonBevel, &option, &painter, this);
        // The text read from the top down, starting below the strip's top edge.
        painter.translate(width(), 0);
        painter.rotate(90);
        painter.setPen(palette().color(QPalette::ButtonText));
        painter.drawText(QRect(2 * kPadding, 0, height() - 4 * kPadding, width()), Qt::AlignLeft | Qt::AlignVCenter,
                         text());
    }

private:
    static constexpr int kPadding = 5;
};

} // namespace

ParameterDock::ParameterDock(ControlPanel *controls, QWidget *parent)
    : QDockWidget(tr("Parameters"), parent)
    , m_controls(controls)
    , m_scroll(new QScrollArea)
    , m_strip(new FoldedStrip)
    // Both title widgets are the dock's children: setTitleBarWidget swaps them without deleting the
    // one it replaces, so the one not shown would otherwise be owned by nothing.
    , m_title(new QWidget(this))
    , m_noTitle(new QWidget(this))
    , m_foldAction(new QAction(tr("&Fold the parameters"), this))
{
    setObjectName(u"parametersDock"_s);
    setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    m_scroll->setObjectName(u"parametersScroll"_s);
    m_scroll->setAccessibleName(tr("Parameters"));
    m_scroll->setWidget(m_controls);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    // The panel scrolls up and down on a short screen, never sideways: the dock is as wide as
    // the controls need beside a vertical scroll bar, so no field or button is cut at its right.
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_controls->installEventFilter(this);
    reserveWidth();

    m_strip->setObjectName(u"parametersStrip"_s);
    m_strip->setAccessibleName(tr("Show the parameters"));
    m_strip->setToolTip(tr("Open the parameter panel"));
    m_strip->hide();
    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_scroll);
    layout->addWidget(m_strip);
    setWidget(content);

    // The title bar: the dock's name and the button that folds it; dragging it moves the dock
    // as the standard one does (the label leaves mouse presses to the dock).
    auto *fold = new QToolButton;
    fold->setObjectName(u"foldParametersButton"_s);
    fold->setText(u"◂"_s);
    fold->setAutoRaise(true);
    fold->setAccessibleName(tr("Fold the parameters"));
    fold->setToolTip(tr("Fold the parameter panel to a strip, giving the figures its room"));
    auto *titleLayout = new QHBoxLayout(m_title);
    titleLayout->setContentsMargins(4, 1, 2, 1);
    titleLayout->addWidget(new QLabel(tr("Parameters")));
    titleLayout->addStretch(1);
    titleLayout->addWidget(fold);
    setTitleBarWidget(m_title);
    m_noTitle->setFixedSize(0, 0);
    m_noTitle->hide();

    m_foldAction->setObjectName(u"foldParametersAction"_s);
    m_foldAction->setCheckable(true);
    m_foldAction->setShortcut(QKeySequence(u"F9"_s));
    m_foldAction->setStatusTip(tr("Fold the parameter panel to a strip, or open it again"));
    connect(m_foldAction, &QAction::toggled, this, &ParameterDock::setFolded);
    connect(fold, &QToolButton::clicked, this, [this] { setFolded(true); });
    connect(m_strip, &QAbstractButton::clicked, this, [this] { setFolded(false); });
}

int ParameterDock::stripWidth() const
{
    return m_strip->sizeHint().width();
}

void ParameterDock::setFolded(bool folded)
{
    if (folded == m_folded)
        return;
    m_folded = folded;
    {
        const QSignalBlocker block(m_foldAction);
        m_foldAction->setChecked(folded);
    }
    auto *window = qobject_cast<QMainWindow *>(parentWidget());
    if (folded) {
        m_openWidth = width();
        const bool hadFocus = m_scroll->isAncestorOf(QApplication::focusWidget());
        m_scroll->hide();
        m_strip->show();
        setTitleBarWidget(m_noTitle);
        setMaximumWidth(stripWidth());
        if (hadFocus)
            m_strip->setFocus(Qt::OtherFocusReason);
    } else {
        setMaximumWidth(QWIDGETSIZE_MAX);
        m_strip->hide();
        m_scroll->show();
        setTitleBarWidget(m_title);
        if (m_strip->hasFocus())
            m_controls->setFocus(Qt::OtherFocusReason);
    }
    const int target = folded ? stripWidth() : std::max(m_openWidth, minimumSizeHint().width());
    if (window && !isFloating())
        window->resizeDocks({this}, {target}, Qt::Horizontal);
    else
        resize(target, height());
    emit foldedChanged(folded);
}

void ParameterDock::reserveWidth()
{
    m_scroll->setMinimumWidth(m_controls->minimumSizeHint().width()
                              + m_scroll->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_scroll));
}

bool ParameterDock::eventFilter(QObject *watched, QEvent *event)
{
    // A family's rows shown or hidden change the controls' least width: the panel follows it.
    if (watched == m_controls && event->type() == QEvent::LayoutRequest)
        reserveWidth();
    return QDockWidget::eventFilter(watched, event);
}

} // namespace posenc
