#pragma once

// Every axis a figure draws with its tick labels shows two of its numbers at least: a reader needs
// two of an axis's numbers to read its scale, however little room its label had (why-sqrt-d's log
// axis of d_model kept only its 10² beside the label set along its tick labels, on a 14-pt slide;
// tst_figuresizes, tst_lessonpanels).
#include "render/FigureRoom.h"
#include "render/FigureRoomChanges.h"

#include <qcustomplot.h>

#include <QStringList>

#include <algorithm>

namespace ReadableScales {

// The axes drawn with their tick labels (of panels and colour bars drawn) that show fewer than two
// numbers within their range where they draw two ticks or more there, each named by the label it
// shows, with the numbers it shows.
inline QStringList unreadable(const QCustomPlot &plot)
{
    using namespace Qt::StringLiterals;
    using posenc::FigureRoom::Changes;
    QList<QCPAxis *> axes;
    for (QCPAxisRect *rect : plot.axisRects())
        if (rect->realVisibility() && !Changes::isHidden(rect))
            for (QCPAxis *axis : rect->axes())
                axes.append(axis);
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(element);
            scale && scale->realVisibility() && !Changes::isHidden(scale) && !axes.contains(scale->axis()))
            axes.append(scale->axis());
    QStringList found;
    for (QCPAxis *axis : std::as_const(axes)) {
        if (!axis->visible() || !axis->tickLabels() || !axis->realVisibility())
            continue;
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        int drawn = 0;
        QStringList numbers;
        for (qsizetype i = 0; i < std::min(ticks.size(), labels.size()); ++i) {
            if (!axis->range().contains(ticks[i]))
                continue;
            ++drawn;
            if (!labels[i].trimmed().isEmpty())
                numbers.append(labels[i]);
        }
        if (numbers.size() < std::min(2, drawn))
            found.append(u"'%1' shows %2 of its %3 tick labels (%4)"_s.arg(posenc::FigureRoom::shownLabel(axis))
                             .arg(numbers.size())
                             .arg(drawn)
                             .arg(numbers.join(u", "_s)));
    }
    return found;
}

} // namespace ReadableScales
