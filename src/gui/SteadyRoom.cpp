#include "SteadyRoom.h"

#include <QEvent>

namespace posenc {

SteadyRoom::SteadyRoom(QWidget *widget, QWidget *parent)
    : QWidget(parent)
    , m_widget(widget)
{
    setSizePolicy(widget->sizePolicy());
    widget->setParent(this);
    m_hint = read(&QWidget::sizeHint);
    m_least = read(&QWidget::minimumSizeHint);
}

QSize SteadyRoom::read(QSize (QWidget::*hint)() const) const
{
    const QSizePolicy policy = m_widget->sizePolicy();
    const bool width = policy.horizontalPolicy() != QSizePolicy::Ignored;
    const bool height = policy.verticalPolicy() != QSizePolicy::Ignored;
    if (!width && !height)
        return {0, 0};
    const QSize size = (m_widget->*hint)();
    return {width ? size.width() : 0, height ? size.height() : 0};
}

QSize SteadyRoom::sizeHint() const
{
    m_hint = read(&QWidget::sizeHint);
    return m_hint;
}

QSize SteadyRoom::minimumSizeHint() const
{
    m_least = read(&QWidget::minimumSizeHint);
    return m_least;
}

void SteadyRoom::passOnChanges()
{
    if (m_widget->sizePolicy() != sizePolicy())
        setSizePolicy(m_widget->sizePolicy()); // which tells the layout
    else if (read(&QWidget::sizeHint) != m_hint || read(&QWidget::minimumSizeHint) != m_least)
        updateGeometry();
}

bool SteadyRoom::event(QEvent *event)
{
    // The widget's updateGeometry, which reaches a parent without a layout as this request; while
    // the room was hidden it reached nothing, so its hints are read again as it shows.
    if (event->type() == QEvent::LayoutRequest || event->type() == QEvent::Show)
        passOnChanges();
    return QWidget::event(event);
}

void SteadyRoom::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_widget->setGeometry(rect());
}

} // namespace posenc
