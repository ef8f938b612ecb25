#pragma once

// A figure on little room keeps its keys, and each key still tells its lines apart: a key given up
// while a panel it names is drawn leaves that panel's lines unnamed (buckets at 6 x 4 cm drew its
// three T5 curves and its shades without one), and entries cut until two read alike ("T5 key…",
// "T5 key…") or until one names nothing ("cappe…") name no line (tst_figuresizes).
#include "render/FigureRoom.h"
#include "render/FigureRoomChanges.h"
#include "render/SwatchLegend.h"

#include <qcustomplot.h>

#include <QPointer>
#include <QRegularExpression>
#include <QStringList>

namespace KeptKeys {

// The keys of a figure as it is drawn, read before FigureRoom::restore and judged after it.
class Keys
{
public:
    // The figure's keys (legends of TextRole::Key with entries) as the fitting left them.
    explicit Keys(const QCustomPlot &plot)
    {
        using posenc::FigureRoom::Changes;
        for (QCPLayoutElement *element : plot.plotLayout()->elements(true)) {
            auto *legend = qobject_cast<QCPLegend *>(element);
            if (!legend || posenc::FigureRoom::roleOf(legend) != posenc::TextRole::Key || legend->itemCount() == 0)
                continue;
            Key key {legend, legend->realVisibility() && !Changes::isHidden(legend), false, {}, {}};
            for (int i = 0; i < legend->itemCount(); ++i) {
                QCPAbstractLegendItem *item = legend->item(i);
                if (!item)
                    continue;
                auto *entry = qobject_cast<QCPPlottableLegendItem *>(item);
                if (QCPAbstractPlottable *plottable = entry ? entry->plottable() : nullptr) {
                    QCPAxisRect *rect = plottable->keyAxis()->axisRect();
                    key.namesDrawn |= rect->realVisibility() && !Changes::isHidden(rect);
                }
                key.items.append(item);
                key.shown.append(textOf(item));
            }
            m_keys.append(key);
        }
    }

    // What the keys lack, once the figure is restored (its entries' texts as their figure gave them).
    QStringList problems() const
    {
        using namespace Qt::StringLiterals;
        QStringList found;
        for (const Key &key : m_keys) {
            if (!key.legend)
                continue;
            QStringList given;
            for (const QPointer<QCPAbstractLegendItem> &item : key.items)
                given.append(item ? textOf(item) : QString());
            if (!key.drawn && key.namesDrawn && key.legend->realVisibility())
                found.append(u"the key '%1' is given up while its panel is drawn"_s.arg(given.join(u", "_s)));
            if (!key.drawn)
                continue;
            for (qsizetype i = 0; i < key.shown.size(); ++i) {
                for (qsizetype j = i + 1; j < key.shown.size(); ++j)
                    if (key.shown[i] == key.shown[j] && given[i] != given[j])
                        found.append(
                            u"the entries '%1' and '%2' both read '%3'"_s.arg(given[i], given[j], key.shown[i]));
                // Its first word whole, a word ending at a space or a hyphen ("DeepSeek-…" names DeepSeek-V3).
                const qsizetype end = given[i].indexOf(QRegularExpression(u"[\\s\\-/,:;(]"_s), 1);
                const QString first = end < 0 ? given[i] : given[i].left(end);
                if (key.shown[i].endsWith(u'…') && !key.shown[i].startsWith(first))
                    found.append(u"the entry '%1' reads '%2'"_s.arg(given[i], key.shown[i]));
            }
        }
        return found;
    }

private:
    static QString textOf(QCPAbstractLegendItem *item)
    {
        auto *entry = qobject_cast<QCPPlottableLegendItem *>(item);
        return entry && entry->plottable() ? entry->plottable()->name() : posenc::SwatchLegend::label(item);
    }

    struct Key
    {
        QPointer<QCPLegend> legend;
        bool drawn = false;
        bool namesDrawn = false; // a plottable it names is in a panel drawn
        QList<QPointer<QCPAbstractLegendItem>> items;
        QStringList shown;
    };
    QList<Key> m_keys;
};

} // namespace KeptKeys
