#include "FigureView.h"

#include "Accessibility.h"
#include "HoverReadout.h"

#include <QKeyEvent>
#include <QLabel>

#include <algorithm>
#include <cmath>

// The keys of a view's plot (FigureView::keyPressed): the arrows pan, + and - zoom, 0 shows the
// whole figure again, Shift with the arrows moves the keyboard cursor over the cells; and the plot's
// other events the view follows (its focus, its size).
namespace posenc {

bool FigureView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot) {
        if (event->type() == QEvent::FocusIn || event->type() == QEvent::FocusOut) {
            update(); // the focus frame, outside the plot's own pixels
            if (event->type() == QEvent::FocusIn)
                emit plotFocused();
        } else if (event->type() == QEvent::Resize) {
            m_message->setGeometry(m_plot->rect());
        } else if (event->type() == QEvent::KeyPress && keyPressed(*static_cast<QKeyEvent *>(event))) {
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

bool FigureView::keyPressed(const QKeyEvent &event)
{
    const Qt::KeyboardModifiers modifiers = event.modifiers() & ~Qt::KeypadModifier;
    const int key = event.key();
    if (modifiers == Qt::ShiftModifier) {
        switch (key) {
        case Qt::Key_Left:
            moveKeyboardCursor(-1, 0);
            return true;
        case Qt::Key_Right:
            moveKeyboardCursor(1, 0);
            return true;
        case Qt::Key_Up:
            moveKeyboardCursor(0, -1);
            return true;
        case Qt::Key_Down:
            moveKeyboardCursor(0, 1);
            return true;
        default:
            break;
        }
    }
    if (modifiers != Qt::NoModifier && modifiers != Qt::ShiftModifier)
        return false;
    if (key == Qt::Key_0) {
        resetView();
        return true;
    }
    // Pan by a tenth of the plot, zoom by 1.25 about its centre, in pixels: the same on linear,
    // logarithmic and reversed axes.
    if (!m_figurePlot->isInteractive())
        return false; // as the wheel and a drag do nothing there
    double panX = 0.0, panY = 0.0, zoom = 1.0;
    switch (key) {
    case Qt::Key_Left:
        panX = -0.1;
        break;
    case Qt::Key_Right:
        panX = 0.1;
        break;
    case Qt::Key_Up:
        panY = -0.1;
        break;
    case Qt::Key_Down:
        panY = 0.1;
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoom = 0.8;
        break;
    case Qt::Key_Minus:
        zoom = 1.25;
        break;
    default:
        return false;
    }
    for (const ViewAxis &view : m_figurePlot->viewAxes()) {
        QCPAxis *axis = view.axis;
        const bool horizontal = axis->orientation() == Qt::Horizontal;
        // The range's ends in pixels, top to bottom and left to right.
        const double p0 = axis->coordToPixel(axis->range().lower), p1 = axis->coordToPixel(axis->range().upper);
        const double from = std::min(p0, p1), to = std::max(p0, p1);
        const double shift = (horizontal ? panX : panY) * (to - from);
        const double centre = 0.5 * (from + to);
        const double a = centre + (from - centre) * zoom + shift, b = centre + (to - centre) * zoom + shift;
        const double lower = axis->pixelToCoord(a), upper = axis->pixelToCoord(b);
        if (std::isfinite(lower) && std::isfinite(upper) && lower != upper)
            axis->setRange(std::min(lower, upper), std::max(lower, upper));
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    return true;
}

// The cursor steps a cell of the figure's axes where a cell is wider than a few pixels, else a
// few pixels; the readout follows it as it follows the mouse.
void FigureView::moveKeyboardCursor(int dx, int dy)
{
    const QList<ViewAxis> axes = m_figurePlot->viewAxes();
    QCPAxisRect *rect = axes.isEmpty() ? m_plot->axisRect() : axes.front().axis->axisRect();
    if (!rect)
        return;
    const QRectF area = rect->rect();
    QPointF at = m_keyCursor && area.contains(*m_keyCursor) ? *m_keyCursor : area.center();
    const auto step = [](QCPAxis *axis, double pixel) {
        const double coord = axis->pixelToCoord(pixel);
        return std::max(4.0, std::abs(axis->coordToPixel(coord + 1.0) - pixel));
    };
    QCPAxis *across = rect->axis(QCPAxis::atBottom), *down = rect->axis(QCPAxis::atLeft);
    if (dx != 0 && across)
        at.rx() += dx * step(across, at.x());
    if (dy != 0 && down)
        at.ry() += dy * step(down, at.y());
    at.setX(std::clamp(at.x(), area.left(), area.right()));
    at.setY(std::clamp(at.y(), area.top(), area.bottom()));
    m_keyCursor = at;
    // Without a mouse pointer to show where, the view marks its position as the others do.
    // The readout the status bar shows is said to a screen reader too.
    if (auto point = m_figurePlot->hoverAt(at, *m_engine)) {
        setCursorPosition(point->hasPosition ? std::optional(point->position) : std::nullopt);
        emit hovered(*point);
        Accessibility::announce(m_plot, HoverReadout::format(*m_engine, *point));
    } else {
        setCursorPosition(std::nullopt);
        emit hoverLeft();
        Accessibility::announce(m_plot, tr("No cell here"));
    }
}

} // namespace posenc
