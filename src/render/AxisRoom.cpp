#include "AxisRoom.h"

#include "FigureRoomChanges.h"
#include "MeasuredText.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::AxisRoom {

namespace {

// The least height the panel had of its own (its figure's), and the one holdLabelWords() set last.
constexpr char kOwnLeast[] = "posencOwnLeastHeight";
constexpr char kHeldLeast[] = "posencHeldLeastHeight";

double longestWord(const QCPAxisRect *rect)
{
    static const QRegularExpression spaces(u"\\s+"_s);
    double longest = 0.0;
    for (const QCPAxis::AxisType side : {QCPAxis::atLeft, QCPAxis::atRight})
        for (const QCPAxis *axis : rect->axes(side)) {
            if (!axis->visible())
                continue;
            for (const QString &word : axis->label().split(spaces, Qt::SkipEmptyParts))
                longest = std::max(longest, MeasuredText::advance(axis->labelFont(), word));
        }
    return longest;
}

} // namespace

void holdLabelWords(QCustomPlot *plot)
{
    for (QCPAxisRect *rect : plot->axisRects()) {
        // A colour bar's rect is its bar; a panel given up for room keeps no size of its own.
        if (dynamic_cast<QCPColorScaleAxisRectPrivate *>(rect) || FigureRoom::Changes::isHidden(rect))
            continue;
        const QSize now = rect->minimumSize();
        const QVariant held = rect->property(kHeldLeast);
        const int own
            = held.isValid() && held.toInt() == now.height() ? rect->property(kOwnLeast).toInt() : now.height();
        // The label is centred on its plot and may reach into the margins above and below it
        // (FigureFit::labelLength), as they stand from the last layout.
        const QMargins margins = rect->margins();
        const double reach = 2.0 * std::min(margins.top(), margins.bottom());
        const int least = std::max(own, static_cast<int>(std::ceil(longestWord(rect) - reach)));
        rect->setProperty(kOwnLeast, own);
        rect->setProperty(kHeldLeast, least);
        if (least != now.height())
            rect->setMinimumSize(now.width(), least);
    }
}

} // namespace posenc::AxisRoom
