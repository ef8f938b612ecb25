#include "FigureRoom.h"
#include "FigureRoomChanges.h"

#include <QSet>

#include <algorithm>
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
        if (!item->visible() || Changes::isHidden(item) || !item->parentLegend()
            || !item->parentLegend()->hasItem(item))
            return false;
        // A key given up for labels on its curves (DirectLabels) names them where they are drawn:
        // the key is hidden, its entries with it.
        if (item->parentLegend()->property(kLabelledProperty).toBool())
            return true;
        if (!item->realVisibility())
            return false;
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
        toHidden(mark);
    }
}

void Changes::undoMarks()
{
    for (auto it = m_marks.rbegin(); it != m_marks.rend(); ++it)
        if (it->first && isHidden(it->first))
            it->first->setLayer(it->second);
    m_marks.clear();
}

void Changes::toHidden(QCPLayerable *layerable)
{
    QCPLayer *layer = layerable->layer();
    const bool kept
        = std::any_of(m_orders.begin(), m_orders.end(), [layer](const auto &order) { return order.first == layer; });
    if (layer && !kept) {
        QList<QPointer<QCPLayerable>> order;
        for (QCPLayerable *child : layer->children())
            order.append(child);
        m_orders.emplace_back(layer, std::move(order));
    }
    layerable->setLayer(hiddenLayer(m_plot));
}

void Changes::restoreLayers()
{
    for (const auto &[item, layer] : m_items)
        if (item && isHidden(item))
            item->setLayer(layer);
    for (const auto &[layer, order] : m_orders) {
        if (!layer)
            continue;
        const QList<QCPLayerable *> now = layer->children();
        const QSet<QCPLayerable *> on(now.begin(), now.end());
        QList<QCPLayerable *> wanted;
        QSet<QCPLayerable *> placed;
        for (const QPointer<QCPLayerable> &child : order)
            if (child && on.contains(child) && !placed.contains(child)) {
                wanted.append(child);
                placed.insert(child);
            }
        for (QCPLayerable *child : now)
            if (!placed.contains(child))
                wanted.append(child);
        // From the first out of its place on, each is drawn last in turn.
        qsizetype first = 0;
        while (first < now.size() && now[first] == wanted[first])
            ++first;
        for (qsizetype i = first; i < wanted.size(); ++i)
            wanted[i]->setLayer(layer);
    }
    m_orders.clear();
}

} // namespace posenc::FigureRoom
