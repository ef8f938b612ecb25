#pragma once

#include <QWidget>

namespace posenc {

// The room a layout gives one widget, which the widget fills: laid out as the widget would be, by
// its size policy and the hints that policy reads, but passing a change of its hints on only when
// one the policy reads changed. A widget in a layout that calls QWidget::updateGeometry has its
// parent laid out again, and every layout above it after it (QLayout::activate ends in
// updateGeometry), though a hint its policy ignores can move nothing. Some widgets do at every
// change of parameters: QCustomPlot at each change of its elements' least sizes (an axis holding
// room for its labels' words, a colour scale's bar), several times a change; a label at each new
// text, whose width a note's policy ignores. Each laid out the view, the dashboard and the main
// window with its docks again. The room's least and most sizes are its own, not the widget's.
class SteadyRoom : public QWidget
{
public:
    // Holds `widget`, made its child, over the whole room, laid out by its size policy as it is now.
    SteadyRoom(QWidget *widget, QWidget *parent);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // The widget's `hint` in the directions its policy reads, 0 in those it ignores (as QWidgetItem
    // lays it out), not asked for where it ignores both.
    QSize read(QSize (QWidget::*hint)() const) const;
    // A change of the widget's hints or policy, told to the room's layout where it moves anything.
    void passOnChanges();

    QWidget *m_widget;
    // The hints the room gave its layout last.
    mutable QSize m_hint;
    mutable QSize m_least;
};

} // namespace posenc
