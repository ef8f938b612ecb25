#pragma once

// A figure on little room keeps its keys, and each key still tells its lines apart: a key given up
// while a panel it names is drawn leaves that panel's lines unnamed (buckets at 6 x 4 cm drew its
// three T5 curves and its shades without one), and entries cut until two read alike ("T5 key…",
// "T5 key…") or until one names nothing ("cappe…") name no line (tst_figuresizes). A key that gave
// way to labels on its curves (DirectLabels) is kept where each of its curves is labelled.
#include "render/DirectLabels.h"
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
            if (!key.drawn)
                key.drawn = labelledDirectly(plot, key);
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
    struct Key;

    // A key given up for labels on its curves stands for a key drawn where each entry's curve is
    // named by a label drawn within that curve's plot, in its colour (its pen's, a band's fill's),
    // not over another text (SvgTexts reads the overlaps): its entries are then the labels' texts.
    static bool labelledDirectly(const QCustomPlot &plot, Key &key)
    {
        QStringList shown;
        for (const QPointer<QCPAbstractLegendItem> &item : key.items) {
            auto *entry = qobject_cast<QCPPlottableLegendItem *>(item.data());
            QCPAbstractPlottable *plottable = entry ? entry->plottable() : nullptr;
            if (!plottable)
                return false;
            QColor colour
                = plottable->pen().style() != Qt::NoPen ? plottable->pen().color() : plottable->brush().color();
            colour.setAlpha(255);
            const QCPAxisRect *rect = plottable->keyAxis()->axisRect();
            QString found;
            for (int i = 0; i < plot.itemCount() && found.isEmpty(); ++i) {
                auto *text = qobject_cast<QCPItemText *>(plot.item(i));
                if (!text || posenc::DirectLabels::named(text) != plottable || !text->realVisibility()
                    || posenc::FigureRoom::Changes::isHidden(text) || text->color() != colour
                    || text->clipAxisRect() != rect || !text->clipToAxisRect())
                    continue;
                const QRectF box
                    = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
                if (QRectF(rect->rect()).contains(box))
                    found = text->text();
            }
            if (found.isEmpty())
                return false;
            shown.append(found);
        }
        key.shown = shown;
        return !shown.isEmpty();
    }

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
