// The position effect's panel of what reads the absolute position, on a window's room.
#include "render/DirectLabels.h"
#include "render/FigureRoom.h"
#include "render/FigureSize.h"
#include "support/FigureBuilds.h"
#include "support/TestMain.h"

#include "core/ParamText.h"

#include <QFontMetrics>
#include <QRegularExpression>
#include <QTest>

#include <cmath>

namespace tst_positioneffectroomfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params with(std::initializer_list<std::pair<QString, QString>> values)
{
    Params p;
    p.dropout = 0.0;
    for (const auto &[key, text] : values) {
        if (const auto error = ParamText::set(p, key, text))
            qFatal("%s: %s", qPrintable(key), qPrintable(error->sentence()));
    }
    return p;
}

// Left-padding's Llama 4 Scout: its temperature (attn_scale, floor_scale) and chunked attention, a
// row of 9,192 real tokens after 23,576 pads.
Params llama4LeftPadded()
{
    return with({{u"encoding"_s, u"rope"_s},
                 {u"max-len"_s, u"32768"_s},
                 {u"batch"_s, u"left:9192,32768"_s},
                 {u"attn-scale"_s, u"0.1"_s},
                 {u"floor-scale"_s, u"8192"_s},
                 {u"attention-chunk"_s, u"8192"_s},
                 {u"ids-choice"_s, u"arange-with-padding"_s}});
}

// The keys inset in the panels of position-effect drawn on `cm` for `p` stand within their
// panels, over none of their lines' points.
void checkKeysOffData(const Params &p, QSizeF cm, const FigureStyle &style, bool insetExpected = true)
{
    const auto built
        = FigureBuilds::build(u"position-effect"_s, p, FigureSize::fromInches(cm / 2.54, 300.0), {}, style);
    QCOMPARE(FigureBuilds::errorOf(*built), QString());
    QCustomPlot *plot = built->plot();
    plot->replot();
    // Labels on curves, if any, stand clear of other curves and within their plots.
    QVERIFY(DirectLabels::clear(*plot));
    // The keys inset in a panel.
    int checked = 0;
    for (QCPAxisRect *rect : plot->axisRects()) {
        if (!rect->realVisibility() || rect->rect().height() <= 0)
            continue;
        QList<std::pair<QRectF, QString>> boxes;
        for (QCPLegend *legend : plot->findChildren<QCPLegend *>())
            if (legend->realVisibility() && legend->layout() == rect->insetLayout() && legend->itemCount() > 0)
                boxes.append({QRectF(legend->outerRect()), u"key"_s});
        for (const auto &[box, what] : boxes) {
            QVERIFY2(QRectF(rect->rect()).adjusted(-1, -1, 1, 1).contains(box),
                     qPrintable(what + u" outside its panel"_s));
            for (QCPAbstractPlottable *plottable : rect->plottables()) {
                auto *graph = qobject_cast<QCPGraph *>(plottable);
                if (!graph || !graph->realVisibility())
                    continue;
                for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
                    if (!std::isfinite(it->value))
                        continue;
                    const QPointF at(graph->keyAxis()->coordToPixel(it->key),
                                     graph->valueAxis()->coordToPixel(it->value));
                    QVERIFY2(!box.contains(at),
                             qPrintable(u"%1 cm high: %2 over %3 at column %4"_s.arg(cm.height())
                                            .arg(what, graph->name())
                                            .arg(it->key)));
                }
            }
            ++checked;
        }
    }
    // The difference's key stands in its panel where the page has no row for it.
    QVERIFY2(checked > 0 || !insetExpected, qPrintable(QString::number(cm.height())));
    // A label drawn on a curve stands wholly within its plot, off its frame, and over no band it
    // does not name (left-padding's slide for Llama 4 Scout drew "difference" on the float32 band
    // and "float32" against the panel's right edge).
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(plot->item(i));
        const QCPAbstractPlottable *names = text ? DirectLabels::named(text) : nullptr;
        if (!names || !text->visible() || text->text().isEmpty())
            continue;
        const QRectF box = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
        const QRectF inside = QRectF(text->clipAxisRect()->rect()).adjusted(1, 1, -1, -1);
        QVERIFY2(inside.contains(box), qPrintable(u"\"%1\" against its plot's frame"_s.arg(text->text())));
        for (QCPAbstractPlottable *plottable : text->clipAxisRect()->plottables()) {
            auto *upper = qobject_cast<QCPGraph *>(plottable);
            if (!upper || !upper->realVisibility() || !upper->channelFillGraph()
                || upper->brush().style() == Qt::NoBrush || upper == names || upper->channelFillGraph() == names)
                continue;
            const QCPGraph *lower = upper->channelFillGraph();
            for (auto it = upper->data()->constBegin(); it != upper->data()->constEnd(); ++it) {
                const double x = upper->keyAxis()->coordToPixel(it->key);
                const auto below = lower->data()->findBegin(it->key, false);
                if (x < box.left() || x > box.right() || below == lower->data()->constEnd() || !std::isfinite(it->value)
                    || !std::isfinite(below->value))
                    continue;
                const double a = upper->valueAxis()->coordToPixel(it->value);
                const double b = upper->valueAxis()->coordToPixel(below->value);
                QVERIFY2(std::max(a, b) < box.top() || std::min(a, b) > box.bottom(),
                         qPrintable(
                             u"\"%1\" on the band of %2 at column %3"_s.arg(text->text(), upper->name()).arg(it->key)));
            }
        }
    }
}

} // namespace

class TestPositionEffectRoomFigure : public QObject
{
    Q_OBJECT

private slots:
    // Left-padding's Llama 4 Scout in a 1366 x 768 window drew its chunks 0 to 3 on a panel 45
    // pixels tall, their labels one over the other: where the panel of the absolute parts is drawn,
    // its chunk labels stand a line apart (on less room the panel is given up).
    void chunkLabelsStandApart()
    {
        const Params p = llama4LeftPadded();
        int checked = 0;
        for (const QSize size : {QSize(910, 350), QSize(910, 300), QSize(600, 420)}) {
            const auto built = FigureBuilds::build(u"position-effect"_s, p, FigureSize::fromPixels(size));
            QCOMPARE(FigureBuilds::errorOf(*built), QString());
            built->plot()->replot();
            for (QCPAxisRect *rect : built->plot()->axisRects()) {
                QCPAxis *right = rect->axis(QCPAxis::atRight);
                // A panel given up (FigureRoom) keeps no height.
                if (!rect->visible() || !rect->layout() || rect->rect().height() <= 0 || !right->visible()
                    || right->label() != u"chunk"_s)
                    continue;
                const QVector<double> ticks = right->tickVector();
                const int line = QFontMetrics(right->tickLabelFont()).height();
                QVERIFY2(ticks.size() >= 2, qPrintable(QString::number(ticks.size())));
                for (qsizetype i = 1; i < ticks.size(); ++i) {
                    const double apart = std::abs(right->coordToPixel(ticks[i]) - right->coordToPixel(ticks[i - 1]));
                    QVERIFY2(apart >= line,
                             qPrintable(u"%1: %2 px apart, a line %3"_s.arg(size.height()).arg(apart).arg(line)));
                }
                ++checked;
            }
        }
        QVERIFY(checked > 0);
    }

    // Left-padding's Llama 4 Scout (its lesson's model): the temperature at the reference's id
    // (dotted black, left axis) is 1 and the chunk at the column less the padding (dashed, right
    // axis) 0 over most of the row, and both axes put them at one height, the dotted line under
    // the dashed one, seen only where it stepped up. Drawn, the two stand apart at every real
    // token's pixel, the dotted line over every other of its panel (its gaps show what it
    // crosses), and the key names which ids each line reads ("chunk (ids)" read as the reference's).
    void absolutePartsReadApart_data()
    {
        QTest::addColumn<QString>("size");
        QTest::newRow("slide") << u"slide"_s;
        QTest::newRow("window") << u"window"_s;
    }

    void absolutePartsReadApart()
    {
        QFETCH(QString, size);
        FigureStyle style;
        style.fontPointSize = size == u"window"_s ? style.fontPointSize : 14.0;
        const FigureSize page = size == u"window"_s
            ? FigureSize::fromPixels(QSize(1200, 800))
            : FigureSize::fromInches(std::get<QSizeF>(FigureSizes::parsePhysical(size)), 300.0);
        const auto built = FigureBuilds::build(u"position-effect"_s, llama4LeftPadded(), page, {}, style);
        QCOMPARE(FigureBuilds::errorOf(*built), QString());
        built->plot()->replot();
        QCPGraph *temperature = nullptr, *chunk = nullptr;
        QList<QCPGraph *> panel;
        for (int g = 0; g < built->plot()->graphCount(); ++g) {
            QCPGraph *graph = built->plot()->graph(g);
            if (!graph->visible() || graph->valueAxis()->axisRect()->axis(QCPAxis::atRight)->label() != u"chunk"_s)
                continue;
            panel.append(graph);
            if (graph->name().isEmpty()) // a band's lower line
                continue;
            const bool right = graph->valueAxis()->axisType() == QCPAxis::atRight;
            if (!right && graph->pen().style() == Qt::DotLine)
                temperature = graph;
            if (right && graph->pen().style() == Qt::DashLine)
                chunk = graph;
        }
        QVERIFY(temperature && chunk);
        QVERIFY(temperature->valueAxis()->axisRect()->rect().height() > 0);
        // Apart by three of their pens' widths at each real token's pixel (their x the same).
        const double apart = 3.0 * std::max(temperature->pen().widthF(), chunk->pen().widthF());
        QCOMPARE(temperature->data()->size(), chunk->data()->size());
        int compared = 0;
        for (int i = 0; i < temperature->data()->size(); ++i) {
            const double t = temperature->data()->at(i)->value, c = chunk->data()->at(i)->value;
            if (!std::isfinite(t) || !std::isfinite(c))
                continue;
            const double dy = std::abs(temperature->valueAxis()->coordToPixel(t) - chunk->valueAxis()->coordToPixel(c));
            QVERIFY2(dy >= apart, qPrintable(u"column %1: %2 px apart"_s.arg(temperature->data()->at(i)->key).arg(dy)));
            ++compared;
        }
        QVERIFY(compared > 10);
        // Drawn last of its panel's lines: a layer draws its children in order.
        const QList<QCPLayerable *> order = temperature->layer()->children();
        for (QCPGraph *graph : panel)
            if (graph != temperature && graph->pen().style() != Qt::DotLine)
                QVERIFY(order.indexOf(graph) < order.indexOf(temperature));
        // The key's entries as drawn name the ids: the chosen ones' chunk, the reference's temperature.
        QStringList entries;
        for (QCPLegend *legend : built->plot()->findChildren<QCPLegend *>())
            for (int i = 0; i < legend->itemCount(); ++i)
                if (auto *entry = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)); entry
                    && legend->realVisibility()
                    && (entry->plottable() == temperature
                        || entry->plottable()->valueAxis()->axisType() == QCPAxis::atRight))
                    entries.append(entry->plottable()->name());
        const QString key = entries.join(u" | "_s);
        QVERIFY2(!key.contains(u'…'), qPrintable(key));
        QVERIFY2(key.contains(QRegularExpression(u"chunk (\\(chosen|at arange-with-padding)"_s)), qPrintable(key));
        QVERIFY2(key.contains(QRegularExpression(u"temperature (\\(ref|at the reference)"_s)), qPrintable(key));
    }

    // On a paper column (8.5 x 6 cm at 9 pt) a family's quantity named "Sandwich bias" or "T5
    // bucket" keeps its own word on its axes ("bias", "Δ bias"), the panel's title naming the family,
    // rather than the family's name cut ("Sandwich …", "Δ …"); at 6 x 4 cm the difference's "Δ".
    void axesNamedWholeOnAColumn_data()
    {
        QTest::addColumn<QString>("size");
        QTest::addColumn<QString>("encoding");
        for (const QString &encoding : {u"sandwich"_s, u"t5"_s, u"kerple"_s, u"deberta"_s, u"alibi"_s})
            QTest::newRow(qPrintable(u"column "_s + encoding)) << u"column"_s << encoding;
        QTest::newRow("6x4cm sinusoidal") << u"6x4cm"_s << u"sinusoidal"_s;
    }

    void axesNamedWholeOnAColumn()
    {
        QFETCH(QString, size);
        QFETCH(QString, encoding);
        const FigureSize page = FigureSize::fromInches(std::get<QSizeF>(FigureSizes::parsePhysical(size)), 300.0);
        FigureStyle style;
        style.fontPointSize = 9.0;
        const auto built
            = FigureBuilds::build(u"position-effect"_s, with({{u"encoding"_s, encoding}}), page, {}, style);
        QCOMPARE(FigureBuilds::errorOf(*built), QString());
        int named = 0;
        for (QCPAxisRect *rect : built->plot()->axisRects()) {
            if (!rect->realVisibility() || !rect->layout() || rect->rect().height() <= 0)
                continue;
            const QString label = FigureRoom::shownLabel(rect->axis(QCPAxis::atLeft));
            QVERIFY2(!label.contains(u'…'), qPrintable(encoding + u": "_s + label));
            named += label.isEmpty() ? 0 : 1;
        }
        QVERIFY2(named >= 2, qPrintable(encoding));
    }

    // Left-padding's slide for a model of RoPE alone (Llama 3.1): the difference panel's float32
    // band fills its width, and its key stood over the band (or its names were drawn on it, "float32"
    // cut at the panel's edge). Half a 14-pt slide, as the lesson's page gives it: every key and
    // label drawn in a panel stands within it, over none of its lines' points.
    void theDifferenceKeyKeepsOffItsBand()
    {
        const Params p = with({{u"encoding"_s, u"rope"_s},
                               {u"max-len"_s, u"32768"_s},
                               {u"batch"_s, u"left:9192,32768"_s},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        FigureStyle style;
        style.fontPointSize = 14.0;
        for (const double height : {14.29, 13.3, 12.5})
            checkKeysOffData(p, QSizeF(12.7, height), style);
    }

    // The same half slide for the lesson's own model, Llama 4 Scout, whose panel of the absolute
    // parts stands under the difference's: "difference" was drawn on the float32 band and
    // "float32" on its own band against the panel's right edge.
    void theDifferenceKeyKeepsOffItsBandAboveTheAbsoluteParts()
    {
        FigureStyle style;
        style.fontPointSize = 14.0;
        for (const double height : {14.29, 13.3})
            checkKeysOffData(llama4LeftPadded(), QSizeF(12.7, height), style, false);
    }

    // The map of the batch's ids on that half slide: its title, shortened for room, names the ids
    // it draws ("arange-with-padding", or "arange ids"), the colours of its cells; it was cut to "Position ids  ·
    // 2 rows × 32,768" while the text quoted an id arange gives.
    void theIdsMapsTitleNamesTheIds()
    {
        const Params p = with({{u"encoding"_s, u"rope"_s},
                               {u"max-len"_s, u"32768"_s},
                               {u"batch"_s, u"left:9192,32768"_s},
                               {u"ids-choice"_s, u"arange-with-padding"_s}});
        FigureStyle style;
        style.fontPointSize = 14.0;
        // Half a 16:9 slide, as left-padding's page gives it, where the title is drawn; narrower and
        // lower, where it may be given up whole (a title that says nothing misleads nobody), never
        // shortened to words that leave the ids out.
        for (const QSizeF cm : {QSizeF(12.7, 14.29), QSizeF(9.0, 14.29), QSizeF(7.0, 14.29), QSizeF(12.7, 10.0)}) {
            const auto built
                = FigureBuilds::build(u"position-ids"_s, p, FigureSize::fromInches(cm / 2.54, 300.0), {}, style);
            QCOMPARE(FigureBuilds::errorOf(*built), QString());
            auto *title = qobject_cast<QCPTextElement *>(built->plot()->plotLayout()->element(0, 0));
            QVERIFY(title);
            const QString shown = title->text();
            const QString where = u"%1 x %2 cm: \"%3\""_s.arg(cm.width()).arg(cm.height()).arg(shown);
            QVERIFY2(shown.contains(u"arange"_s) || (cm.height() < 14.0 && shown.isEmpty()), qPrintable(where));
        }
    }
};

POSENC_TEST_MAIN(TestPositionEffectRoomFigure)
} // namespace tst_positioneffectroomfigure
#include "tst_positioneffectroomfigure.moc"
