#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

#include "AxesInOrder.h"
#include "FigureFit.h"
#include "MeasuredText.h"
#include "ShorterLabels.h"

#include <algorithm>

using namespace Qt::StringLiterals;

// The colour bars' and axes' labels of a figure on little room (docs/ARCHITECTURE.md, "Figures at
// any size").
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

bool axisLabelsInOneLine(QCustomPlot *plot)
{
    bool changed = false;
    QList<QCPAxis *> axes;
    for (QCPAxisRect *rect : plot->axisRects())
        if (!Changes::isHidden(rect))
            axes += axesInOrder(*rect);
    for (QCPAxis *axis : axes) {
        if (!axis->visible() || !axis->label().contains(u'\n') || axis->property(kFoldedProperty).isValid())
            continue;
        // The length FigureFit wraps the label to (fitAxisLabel): centred on its axis, into the
        // margins beside it and not past them.
        const QRect inner = axis->axisRect()->rect(), outer = axis->axisRect()->outerRect();
        const double length = axis->orientation() == Qt::Horizontal
            ? 2.0 * std::min(inner.center().x() - outer.left(), outer.right() - inner.center().x())
            : 2.0 * std::min(inner.center().y() - outer.top(), outer.bottom() - inner.center().y());
        const QString whole = QString(FigureFit::unwrappedLabel(axis)).replace(u'\n', u' ');
        QString shown = shortened(whole, axis->labelFont(), length, 1);
        // A shorter form its figure gives, whole, before the whole's first words cut.
        const QStringList forms = ShorterLabels::of(axis);
        const auto holds = std::find_if(forms.begin(), forms.end(), [&](const QString &form) {
            return MeasuredText::advance(axis->labelFont(), form) <= length;
        });
        if (shown != whole && holds != forms.end())
            shown = *holds;
        if (shown != FigureFit::unwrappedLabel(axis) && !shown.contains(u'\n'))
            changed |= Changes::of(plot).setAxisLabel(axis, shown);
    }
    return changed;
}

} // namespace posenc::FigureRoom::Steps
