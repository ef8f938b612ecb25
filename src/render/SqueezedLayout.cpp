#include "SqueezedLayout.h"

#include <cstdlib>

namespace posenc::SqueezedLayout {

namespace {

constexpr qint64 kReach = QWIDGETSIZE_MAX;

bool withinReach(int coordinate)
{
    return std::abs(qint64(coordinate)) <= kReach;
}

void collapse(QCPLayoutElement *element, const QRect &rect)
{
    element->setOuterRect(rect);
    // A colour scale lays its bar's axis rect, which is in no layout, over its own rect
    // (QCPColorScale::update).
    if (auto *scale = qobject_cast<QCPColorScale *>(element))
        scale->axis()->axisRect()->setOuterRect(scale->rect());
    for (QCPLayoutElement *inner : element->elements(false))
        if (inner)
            collapse(inner, QRect(rect.topLeft(), QSize(0, 0)));
}

} // namespace

bool isSound(const QRect &rect)
{
    return withinReach(rect.left()) && withinReach(rect.right()) && withinReach(rect.top())
        && withinReach(rect.bottom());
}

void collapseOverflowed(QCPLayoutElement *layout)
{
    const QRect around = layout->outerRect();
    for (QCPLayoutElement *element : layout->elements(false)) {
        if (!element)
            continue;
        const QRect rect = element->outerRect();
        if (isSound(rect)) {
            collapseOverflowed(element);
            continue;
        }
        // The extent QCustomPlot gave is kept across the direction it is sound in.
        const bool across = withinReach(rect.left()) && withinReach(rect.right());
        const bool down = withinReach(rect.top()) && withinReach(rect.bottom());
        const QPoint corner(withinReach(rect.left()) ? rect.left() : around.left(),
                            withinReach(rect.top()) ? rect.top() : around.top());
        collapse(element, QRect(corner, QSize(across ? rect.width() : 0, down ? rect.height() : 0)));
    }
}

} // namespace posenc::SqueezedLayout

namespace posenc {

// As QCustomPlot::updateLayout, with the collapse before the layout is announced.
void SqueezablePlot::updateLayout()
{
    QCPLayoutGrid *layout = plotLayout();
    for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        layout->update(phase);
    SqueezedLayout::collapseOverflowed(layout);
    emit afterLayout();
}

} // namespace posenc
