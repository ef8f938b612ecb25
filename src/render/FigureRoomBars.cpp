#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include "FigureFit.h"

using namespace Qt::StringLiterals;

// The colour bars of a figure on little room (docs/ARCHITECTURE.md, "Figures at any size").
namespace posenc::FigureRoom::Steps {

bool shortenBarLabels(QCustomPlot *plot)
{
    // As an axis's label keeps its first part (shortenAxisLabels): a bar's label down its side
    // takes a column of the figure's width for each line it is wrapped to.
    static const QStringList separators {u" ("_s, u" = "_s, u": "_s, u", "_s};
    bool changed = false;
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        auto *scale = qobject_cast<QCPColorScale *>(element);
        if (!scale || !scale->realVisibility() || Changes::isHidden(scale))
            continue;
        QCPAxis *axis = scale->axis();
        if (!axis->label().contains(u'\n') || axis->property(kFoldedProperty).isValid())
            continue;
        const QString shown = firstPart(FigureFit::unwrappedLabel(axis), separators);
        if (shown != FigureFit::unwrappedLabel(axis))
            changed |= Changes::of(plot).setAxisLabel(axis, shown);
    }
    return changed;
}

} // namespace posenc::FigureRoom::Steps
