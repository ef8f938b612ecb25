#pragma once

// A figure on little room keeps its keys, and each key still tells its lines apart: a key given up
// while a panel it names is drawn leaves that panel's lines unnamed (buckets at 6 x 4 cm drew its
// three T5 curves and its shades without one), and entries cut until two read alike ("T5 key…",
// "T5 key…") or until one names nothing ("cappe…") name no line (tst_figuresizes). A key that gave
// way to labels on its curves (DirectLabels) is kept where each of its curves is labelled, and a
// key drawn that let go of some of its entries (Changes::labelSome) where each of them is, a
// swatch's entry by a label within a shade of its colour (ShadeLabels).
#include "render/DirectLabels.h"
#include "render/FigureRoom.h"
#include "render/FigureRoomChanges.h"
#include "render/ShadeLabels.h"
#include "render/SwatchLegend.h"

#include <qcustomplot.h>

#include <QHash>
#include <QPointer>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace KeptKeys {

// Colours at least this far apart in L*a*b* (ΔE 1976) tell two lines apart.
inline constexpr double kUnlike = 10.0;

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
                key.drawn = key.labelled = labelledDirectly(plot, key);
            m_keys.append(key);
        }
        // The curves named where they are drawn, of the panels drawn: a key drawn may have let go
        // of their entries (DirectLabels::makeSome, Changes::labelSome).
        for (QCPAxisRect *rect : plot.axisRects()) {
            if (!rect->realVisibility() || Changes::isHidden(rect))
                continue;
            m_drawnRects.insert(rect);
            for (QCPAbstractPlottable *plottable : rect->plottables())
                if (const QString label = labelOf(plot, plottable); !label.isEmpty())
                    m_labels.insert(plottable, label);
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
            // An entry its key let go of while drawn names its curve by a label on it, and reads
            // unlike the key's entries and the other labels.
            if (!key.labelled)
                for (int i = 0; i < key.legend->itemCount(); ++i) {
                    auto *entry = qobject_cast<QCPPlottableLegendItem *>(key.legend->item(i));
                    if (!entry || key.items.contains(entry) || !entry->plottable())
                        continue;
                    QCPAbstractPlottable *plottable = posenc::DirectLabels::drawnFor(entry->plottable());
                    QCPAxisRect *rect = plottable->keyAxis()->axisRect();
                    if (!m_drawnRects.contains(rect))
                        continue;
                    const QString label = m_labels.value(plottable);
                    if (label.isEmpty())
                        found.append(u"the entry '%1' is neither in its key nor on its curve"_s.arg(textOf(entry)));
                    else if (key.shown.contains(label))
                        found.append(u"the label '%1' reads as an entry of its key"_s.arg(label));
                }
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
            // Lines a key tells apart by their icons alone differ in colour or in dash: rope-frequencies'
            // "unscaled" curve and its "L₀" line were both dark grey with one dash at a column.
            if (!key.labelled)
                for (qsizetype i = 0; i < key.items.size(); ++i)
                    for (qsizetype j = i + 1; j < key.items.size(); ++j)
                        if (linesAlike(key.items[i], key.items[j]))
                            found.append(u"the lines '%1' and '%2' are drawn alike"_s.arg(given[i], given[j]));
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
            QCPAbstractPlottable *plottable = entry ? posenc::DirectLabels::drawnFor(entry->plottable()) : nullptr;
            const QString found = plottable ? labelOf(plot, plottable) : shadeLabelOf(plot, item);
            if (found.isEmpty())
                return false;
            shown.append(found);
        }
        key.shown = shown;
        return !shown.isEmpty();
    }

    // The text of the label drawn within `plottable`'s plot that names it, in its colour (its
    // marks' where it draws marks alone, else its pen's, a band's fill's); empty where none does.
    static QString labelOf(const QCustomPlot &plot, const QCPAbstractPlottable *plottable)
    {
        QColor colour = plottable->pen().style() != Qt::NoPen ? plottable->pen().color() : plottable->brush().color();
        if (const auto *graph = qobject_cast<const QCPGraph *>(plottable); graph
            && graph->lineStyle() == QCPGraph::lsNone && !graph->scatterStyle().isNone()
            && graph->scatterStyle().isPenDefined())
            colour = graph->scatterStyle().pen().color();
        colour.setAlpha(255);
        const QCPAxisRect *rect = plottable->keyAxis()->axisRect();
        for (int i = 0; i < plot.itemCount(); ++i) {
            auto *text = qobject_cast<QCPItemText *>(plot.item(i));
            if (!text || posenc::DirectLabels::named(text) != plottable || !text->realVisibility()
                || posenc::FigureRoom::Changes::isHidden(text) || text->color() != colour
                || text->clipAxisRect() != rect || !text->clipToAxisRect())
                continue;
            const QRectF box = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
            if (QRectF(rect->rect()).contains(box))
                return text->text();
        }
        return {};
    }

    // The text of the label drawn within a shade of the swatch `item`'s colour that names it (a
    // rectangle item of that fill, in a plot drawn: ShadeLabels), written in that colour opaque
    // or darker, the text within the shade and its plot; empty where none does.
    static QString shadeLabelOf(const QCustomPlot &plot, const QCPAbstractLegendItem *item)
    {
        const QColor swatch = posenc::SwatchLegend::color(item);
        if (!swatch.isValid())
            return {};
        for (int i = 0; i < plot.itemCount(); ++i) {
            auto *text = qobject_cast<QCPItemText *>(plot.item(i));
            if (!text || posenc::ShadeLabels::swatchOf(text) != swatch || !text->realVisibility()
                || posenc::FigureRoom::Changes::isHidden(text) || !text->clipToAxisRect()
                || !sameHue(text->color(), swatch))
                continue;
            const QCPAxisRect *rect = text->clipAxisRect();
            const QRectF box = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
            if (!rect || !rect->realVisibility() || posenc::FigureRoom::Changes::isHidden(rect)
                || !QRectF(rect->rect()).contains(box))
                continue;
            for (int j = 0; j < plot.itemCount(); ++j) {
                auto *shade = qobject_cast<QCPItemRect *>(plot.item(j));
                if (!shade || shade->clipAxisRect() != rect || !shade->realVisibility()
                    || posenc::FigureRoom::Changes::isHidden(shade) || shade->brush().color() != swatch)
                    continue;
                const QRectF area
                    = QRectF(shade->topLeft->pixelPosition(), shade->bottomRight->pixelPosition()).normalized();
                if (area.adjusted(-0.5, -0.5, 0.5, 0.5).contains(box))
                    return text->text();
            }
        }
        return {};
    }

    // Whether `text` is `swatch` made opaque, or darker: the same hue, within a few degrees.
    static bool sameHue(QColor text, QColor swatch)
    {
        swatch.setAlpha(255);
        if (swatch.hsvSaturation() < 20)
            return text.hsvSaturation() < 20;
        return std::abs(text.hsvHue() - swatch.hsvHue()) <= 4 && text.value() <= swatch.value();
    }

    // A plain line's pen: a graph or curve drawn with a pen, no markers and no fill (what its icon shows).
    static std::optional<QPen> linePen(QCPAbstractLegendItem *item)
    {
        auto *entry = qobject_cast<QCPPlottableLegendItem *>(item);
        const QCPAbstractPlottable *plottable = entry ? entry->plottable() : nullptr;
        const auto *graph = qobject_cast<const QCPGraph *>(plottable);
        const auto *curve = qobject_cast<const QCPCurve *>(plottable);
        if (!graph && !curve)
            return std::nullopt;
        const bool marked = graph ? !graph->scatterStyle().isNone() : !curve->scatterStyle().isNone();
        const bool joined = graph ? graph->lineStyle() != QCPGraph::lsNone : curve->lineStyle() != QCPCurve::lsNone;
        if (marked || !joined || plottable->pen().style() == Qt::NoPen || plottable->brush().style() != Qt::NoBrush)
            return std::nullopt;
        return plottable->pen();
    }

    // Whether two graphs draw the same points.
    static bool sameData(const QCPAbstractPlottable *a, const QCPAbstractPlottable *b)
    {
        const auto *g = qobject_cast<const QCPGraph *>(a), *h = qobject_cast<const QCPGraph *>(b);
        if (!g || !h || g->data()->size() != h->data()->size() || g->data()->isEmpty())
            return false;
        return std::equal(g->data()->constBegin(), g->data()->constEnd(), h->data()->constBegin(),
                          [](const QCPGraphData &x, const QCPGraphData &y) { return x.key == y.key && x.value == y.value; });
    }

    // CIE L*a*b* of an sRGB colour (D65), where distances are as the eye sees them.
    static std::array<double, 3> lab(const QColor &colour)
    {
        const auto linear = [](double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
        const double r = linear(colour.redF()), g = linear(colour.greenF()), b = linear(colour.blueF());
        const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        const auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
        return {116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))};
    }

    // Two lines of one panel whose icons a reader cannot tell apart: one dash (Qt's, or the same
    // pattern) and colours less than kUnlike apart in L*a*b* (ΔE 1976). Lines of two panels are
    // told apart by their panels (nope-order's weights and norms share a colour per mask).
    static bool linesAlike(QCPAbstractLegendItem *a, QCPAbstractLegendItem *b)
    {
        const std::optional<QPen> p = linePen(a), q = linePen(b);
        const auto rectOf = [](QCPAbstractLegendItem *item) {
            return static_cast<QCPPlottableLegendItem *>(item)->plottable()->keyAxis()->axisRect();
        };
        if (!p || !q || rectOf(a) != rectOf(b) || p->style() != q->style()
            || (p->style() == Qt::CustomDashLine && p->dashPattern() != q->dashPattern()))
            return false;
        if (sameData(static_cast<QCPPlottableLegendItem *>(a)->plottable(),
                     static_cast<QCPPlottableLegendItem *>(b)->plottable()))
            return false; // one line drawn twice (KERPLE's heads of one r1 and r2): no style tells it apart
        const auto c = lab(p->color()), d = lab(q->color());
        const double distance = std::hypot(c[0] - d[0], c[1] - d[1], c[2] - d[2]);
        return distance < kUnlike;
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
        bool labelled = false; // given way to labels on its curves
    };
    QList<Key> m_keys;
    QHash<const QCPAbstractPlottable *, QString> m_labels; // the curves labelled, of the panels drawn
    QSet<const QCPAxisRect *> m_drawnRects;
};

} // namespace KeptKeys
