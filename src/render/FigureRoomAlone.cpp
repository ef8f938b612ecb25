#include "FigureFit.h"
#include "FigureRoomChanges.h"
#include "FigureRoomSteps.h"

using namespace Qt::StringLiterals;

namespace posenc::FigureRoom::Steps {

void sayAlone(QCustomPlot *plot)
{
    const auto gone = [](const QCPLayoutElement *element) {
        for (const QCPLayoutElement *at = element; at; at = at->layout())
            if (Changes::isHidden(at))
                return true;
        return false;
    };
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true))
        if (element && element->property(kDispensableProperty).isValid() && !gone(element))
            return;
    static const QString separator = u"  ·  "_s;
    Changes &changes = Changes::of(plot);
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        auto *text = qobject_cast<QCPTextElement *>(element);
        if (!text)
            continue;
        const QString alone = text->property(kAloneTextProperty).toString();
        const QString shown = FigureFit::unwrapped(text);
        if (alone.isEmpty() || shown.isEmpty() || gone(text))
            continue;
        const QStringList given = changes.originalText(text).split(separator);
        qsizetype kept = given.size();
        while (kept > 1 && given.first(kept).join(separator) != shown)
            --kept;
        changes.setText(text, alone.split(separator).mid(0, kept).join(separator));
    }
}

} // namespace posenc::FigureRoom::Steps
