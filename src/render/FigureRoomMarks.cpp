#include "FigureRoom.h"
#include "FigureRoomChanges.h"

#include <utility>

// Marks over the data drawn only while a text says what they are (docs/ARCHITECTURE.md, Exporting:
// "A mark drawn over the data is drawn only while a text on the page says what it is").
namespace posenc::FigureRoom {

namespace {

// The text `mark` is explained by, if it is still one of its plot's: a layout element or a
// legend's entry (the pointer is compared before it is read: a figure may have made its texts anew).
QCPLayerable *explanationOf(const QCPLayerable &mark)
{
    const QVariant value = mark.property(kExplainedProperty);
    if (!value.isValid() || !mark.parentPlot())
        return nullptr;
    const auto *wanted = value.value<QObject *>();
    const auto within = [wanted](const QList<QCPLayoutElement *> &elements) -> QCPLayerable * {
        for (QCPLayoutElement *element : elements) {
            if (element == wanted)
                return element;
            if (auto *legend = qobject_cast<QCPLegend *>(element))
                for (int i = 0; i < legend->itemCount(); ++i)
                    if (legend->item(i) == wanted)
                        return legend->item(i);
        }
        return nullptr;
    };
    if (QCPLayerable *found = within(mark.parentPlot()->plotLayout()->elements(true)))
        return found;
    // An inset legend is the element of its panel's inset layout.
    for (QCPAxisRect *rect : mark.parentPlot()->axisRects())
        if (QCPLayerable *found = within(rect->insetLayout()->elements(true)))
            return found;
    return nullptr;
}

// Whether `text` is drawn: it and every layout holding it visible and not given up, a caption not
// dropped (empty), an entry still in its legend.
bool drawn(QCPLayerable *text)
{
    if (auto *item = qobject_cast<QCPAbstractLegendItem *>(text)) {
        // An entry taken out of its key for a label on its curve (Changes::labelSome) names it there.
        if (item->property(kLabelledProperty).toBool() && item->parentLegend() && !item->parentLegend()->hasItem(item))
            return true;
        if (!item->realVisibility() || Changes::isHidden(item) || !item->parentLegend()
            || !item->parentLegend()->hasItem(item))
            return false;
        // A key given up for labels on its curves (DirectLabels) names them where they are drawn.
        if (item->parentLegend()->property(kLabelledProperty).toBool())
            return true;
        text = item->parentLegend();
    }
    if (auto *caption = qobject_cast<QCPTextElement *>(text); caption && caption->text().isEmpty())
        return false;
    for (auto *at = qobject_cast<QCPLayoutElement *>(text); at; at = at->layout())
        if (!at->realVisibility() || Changes::isHidden(at))
            return false;
    return true;
}

} // namespace

void setExplainedBy(QCPLayerable *mark, QCPLayerable *text)
{
    mark->setProperty(kExplainedProperty, text ? QVariant::fromValue<QObject *>(text) : QVariant());
}

void Changes::hideUnexplained()
{
    QList<QCPLayerable *> marks;
    for (int i = 0; i < m_plot->plottableCount(); ++i)
        marks.append(m_plot->plottable(i));
    for (int i = 0; i < m_plot->itemCount(); ++i)
        marks.append(m_plot->item(i));
    for (QCPLayerable *mark : std::as_const(marks)) {
        if (!mark->property(kExplainedProperty).isValid() || isHidden(mark))
            continue;
        QCPLayerable *text = explanationOf(*mark);
        if (text && drawn(text))
            continue;
        m_marks.push_back({mark, mark->layer()});
        mark->setLayer(hiddenLayer(m_plot));
    }
}

void Changes::undoMarks()
{
    for (auto it = m_marks.rbegin(); it != m_marks.rend(); ++it)
        if (it->first && isHidden(it->first))
            it->first->setLayer(it->second);
    m_marks.clear();
}

} // namespace posenc::FigureRoom
