#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include <QHash>

#include <algorithm>

// Panels that share an axis (FigureRoom's shareAxes, docs/ARCHITECTURE.md, "Figures at any size"):
// the margin the given labels took is given to the plot.
namespace posenc::FigureRoom {

namespace {

QCP::MarginSide marginSideOf(const QCPAxis *axis)
{
    switch (axis->axisType()) {
    case QCPAxis::atLeft:
        return QCP::msLeft;
    case QCPAxis::atRight:
        return QCP::msRight;
    case QCPAxis::atTop:
        return QCP::msTop;
    case QCPAxis::atBottom:
        return QCP::msBottom;
    }
    return QCP::msNone;
}

// Whether `rect` shows nothing on its `type` side: that axis hidden, or without tick labels and label.
bool showsNothing(QCPAxisRect *rect, QCPAxis::AxisType type)
{
    const QList<QCPAxis *> axes = rect->axes(type);
    return std::all_of(axes.begin(), axes.end(), [](const QCPAxis *axis) {
        return !axis->visible() || (!axis->tickLabels() && axis->label().isEmpty());
    });
}

} // namespace

QCPMarginGroup *marginGroupOf(const QCPLayoutElement &element, QCP::MarginSide side)
{
    const QHash<QCP::MarginSide, QCPMarginGroup *> groups = element.marginGroups();
    for (auto it = groups.cbegin(); it != groups.cend(); ++it)
        if (it.key() == side)
            return it.value();
    return nullptr;
}

bool Changes::releaseMargins()
{
    bool changed = false;
    for (Shared &change : m_shared) {
        if (!change.axis || !change.keeper || change.group || change.axis->tickLabels()
            || !change.axis->label().isEmpty())
            continue;
        QCPAxisRect *rect = change.axis->axisRect();
        const QCP::MarginSide side = marginSideOf(change.axis);
        QCPMarginGroup *group = marginGroupOf(*rect, side);
        if (!group)
            continue;
        // In line: overlapping across the side (a left side's panels stacked in one column).
        const bool across = change.axis->orientation() == Qt::Vertical;
        const QRect own = rect->outerRect();
        bool alone = true;
        // The group's panels on that side, found as the group is (QCPMarginGroup::elements looks up a
        // hash as QCPLayoutElement::marginGroup does).
        for (QCPAxisRect *other : m_plot->findChildren<QCPAxisRect *>()) {
            if (other == rect || !other->realVisibility() || isHidden(other) || marginGroupOf(*other, side) != group)
                continue;
            const QRect o = other->outerRect();
            const bool inLine = across ? o.left() < own.right() && own.left() < o.right()
                                       : o.top() < own.bottom() && own.top() < o.bottom();
            if (inLine && !showsNothing(other, change.axis->axisType()))
                alone = false;
        }
        if (!alone)
            continue;
        change.group = group;
        rect->setMarginGroup(side, nullptr);
        changed = true;
    }
    return changed;
}

bool Steps::giveBackMargins(QCustomPlot *plot)
{
    return Changes::of(plot).releaseMargins();
}

void Changes::rejoin(Shared &change)
{
    if (change.axis && change.group)
        change.axis->axisRect()->setMarginGroup(marginSideOf(change.axis), change.group);
    change.group = nullptr;
}

} // namespace posenc::FigureRoom
