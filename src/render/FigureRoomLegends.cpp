#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include "LegendPlacement.h"

#include <functional>

// Keys moved into their plots on little room (docs/ARCHITECTURE.md, "Figures at any size"): into
// a corner they hide nothing of, or, on a page short of room, where they hide the least.
namespace posenc::FigureRoom::Steps {

namespace {

QList<QCPLegend *> keysOf(const QCustomPlot &plot)
{
    QList<QCPLegend *> found;
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
        if (auto *legend = qobject_cast<QCPLegend *>(element); legend && !Changes::isHidden(legend))
            found.append(legend);
    return found;
}

// The single axis rect whose plottables `legend` names, or none.
QCPAxisRect *rectNamedBy(const QCPLegend *legend)
{
    QCPAxisRect *rect = nullptr;
    for (int i = 0; i < legend->itemCount(); ++i) {
        auto *entry = qobject_cast<QCPPlottableLegendItem *>(legend->item(i));
        if (!entry || !entry->plottable())
            continue;
        QCPAxisRect *own = entry->plottable()->keyAxis()->axisRect();
        if (rect && own != rect)
            return nullptr;
        rect = own;
    }
    return rect;
}

using Place = std::function<std::optional<Qt::Alignment>(QCPAxisRect *, QSize, int)>;

// Each key in a row of its own moved to the place `placeOf` finds in the plot it names, in as
// many columns as that place holds: a legend a row wide below its axes fits no corner, stacked it may.
bool moveKeys(QCustomPlot *plot, const Place &placeOf)
{
    bool changed = false;
    for (QCPLegend *legend : keysOf(*plot)) {
        QCPAxisRect *rect = rectNamedBy(legend);
        if (roleOf(legend) != TextRole::Key || !legend->visible() || !rect || Changes::isHidden(rect)
            || !qobject_cast<QCPLayoutGrid *>(legend->layout()) || LegendPlacement::entriesOf(legend).isEmpty())
            continue;
        const int grownBy = legend->outerRect().height();
        for (int columns = LegendPlacement::columnsOf(legend); columns >= 1; --columns) {
            const int wrap = LegendPlacement::wrapFor(legend, columns);
            const QSize size = LegendPlacement::stackedSize(legend, wrap);
            // Small enough that FigureFit keeps it inside (a legend over 40 % of its axes moves below).
            if (size.width() > rect->width() - 8 || size.height() > 0.4 * (rect->height() + grownBy))
                continue;
            const auto corner = placeOf(rect, size, grownBy);
            if (corner) {
                Changes::of(plot).moveInside(legend, rect, *corner, wrap);
                changed = true;
                break;
            }
        }
    }
    return changed;
}

} // namespace

bool legendsInside(QCustomPlot *plot)
{
    return moveKeys(plot, LegendPlacement::freeCorner);
}

bool legendsOverData(QCustomPlot *plot)
{
    const QList<QCPLegend *> keys = keysOf(*plot);
    if (keys.isEmpty() || !shortOfRoom(*plot, keys.constFirst()->font().pointSizeF()))
        return false;
    return moveKeys(plot, [](QCPAxisRect *rect, QSize size, int grownBy) {
        return LegendPlacement::leastCovered(rect, size, grownBy, kMostHidden);
    });
}

} // namespace posenc::FigureRoom::Steps
