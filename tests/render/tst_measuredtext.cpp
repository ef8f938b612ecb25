// The titles and legend entries that remember their text's size report what QCustomPlot's own
// elements measure, for every text, font, margin and icon size, and follow each change of them;
// a legend entry's icon holds its plottable's marker whole.
#include "render/MeasuredText.h"
#include "render/PinnedFont.h"
#include "support/TestMain.h"

#include <QTest>

#include <functional>

namespace tst_measuredtext {
using namespace posenc;
using namespace Qt::StringLiterals;

class TestMeasuredText : public QObject
{
    Q_OBJECT

private slots:
    void boundingRectIsQFontMetrics_data();
    void boundingRectIsQFontMetrics();
    void tightBoundingRectIsQFontMetrics_data();
    void tightBoundingRectIsQFontMetrics();
    void hintingAndKerningCount();
    void textElementFollowsItsText();
    void legendItemFollowsItsPlottable();
    void figureLaysOutAsWithQCustomPlotsElements();
    void legendIconSitsInTheMiddleOfItsText_data();
    void legendIconSitsInTheMiddleOfItsText();
    void aMarkerLargerThanItsIconIsDrawnWhole_data();
    void aMarkerLargerThanItsIconIsDrawnWhole();
    void tickLabelsDrawAsQCustomPlotsOwn();
    void axisMarginsFollowWhatTheyRead();
};

namespace {

QFont font(double points, bool bold = false)
{
    QFont f = PinnedFont::apply(QFont());
    f.setPointSizeF(points);
    f.setBold(bold);
    return f;
}

// The size hints, which QCPTextElement and the legend items make protected, are public here.
QSize minimumOf(const QCPLayoutElement *element)
{
    return element->minimumOuterSizeHint();
}

QSize maximumOf(const QCPLayoutElement *element)
{
    return element->maximumOuterSizeHint();
}

} // namespace

void TestMeasuredText::boundingRectIsQFontMetrics_data()
{
    QTest::addColumn<QFont>("font");
    QTest::addColumn<int>("height");
    QTest::addColumn<QString>("text");
    QTest::newRow("title") << font(
        9.5, true) << 0 << u"PE  ·  d = 8,192, L = 1,048,576  ·  each pixel averages ~318 positions and ~2.3 columns"_s;
    QTest::newRow("two lines") << font(9.5, true) << 0 << u"Magnitudes per position\nX = s·E + PE"_s;
    QTest::newRow("legend entry") << font(8.0) << 8 << u"j=4096 sin i=2048  w=0.01  λ=628"_s;
    QTest::newRow("empty") << font(8.0) << 8 << QString();
    QTest::newRow("same text, larger") << font(12.0) << 8 << u"j=4096 sin i=2048  w=0.01  λ=628"_s;
}

void TestMeasuredText::boundingRectIsQFontMetrics()
{
    QFETCH(QFont, font);
    QFETCH(int, height);
    QFETCH(QString, text);
    const QRect expected = QFontMetrics(font).boundingRect(0, 0, 0, height, Qt::TextDontClip, text);
    // Measured, then remembered: both times what QFontMetrics says.
    QCOMPARE(MeasuredText::boundingRect(font, height, text), expected);
    QCOMPARE(MeasuredText::boundingRect(font, height, text), expected);
}

void TestMeasuredText::tightBoundingRectIsQFontMetrics_data()
{
    boundingRectIsQFontMetrics_data();
}

// The ink of a text, as FigureRoom asks whether texts keep clear: what QFontMetricsF says, the
// first time and remembered, for a font that differs from another only in its size too.
void TestMeasuredText::tightBoundingRectIsQFontMetrics()
{
    QFETCH(QFont, font);
    QFETCH(QString, text);
    const QRectF expected = QFontMetricsF(font).tightBoundingRect(text);
    QCOMPARE(MeasuredText::tightBoundingRect(font, text), expected);
    QCOMPARE(MeasuredText::tightBoundingRect(font, text), expected);
}

// QFont::key() leaves hinting and kerning out; they change the size all the same.
void TestMeasuredText::hintingAndKerningCount()
{
    const QString text = u"AVAVAVAVAVAV Wa To Ty j=4096 sin i=2048  w=0.01  λ=628"_s;
    const QFont plain = font(20.0);
    QFont hinted = plain;
    hinted.setHintingPreference(QFont::PreferFullHinting);
    QFont unkerned = plain;
    unkerned.setKerning(false);
    const auto metrics
        = [&](const QFont &f) { return QFontMetrics(f).boundingRect(0, 0, 0, 8, Qt::TextDontClip, text); };
    // Sizes that do differ, so that a cache that mixed them up would be seen.
    QVERIFY(metrics(hinted) != metrics(plain));
    QVERIFY(metrics(unkerned) != metrics(plain));
    for (const QFont &f : {plain, hinted, unkerned, plain, unkerned, hinted})
        QCOMPARE(MeasuredText::boundingRect(f, 8, text), metrics(f));
    // The ink too (FigureRoom's): what a memo keyed on QFont::key() would have mixed up.
    const auto ink = [&](const QFont &f) { return QFontMetricsF(f).tightBoundingRect(text); };
    QVERIFY(ink(unkerned) != ink(plain));
    for (const QFont &f : {plain, hinted, unkerned, plain, unkerned, hinted})
        QCOMPARE(MeasuredText::tightBoundingRect(f, text), ink(f));
}

void TestMeasuredText::textElementFollowsItsText()
{
    QCustomPlot plot;
    auto *measured = new MeasuredTextElement(&plot, u"short"_s, font(9.0));
    auto *reference = new QCPTextElement(&plot, u"short"_s, font(9.0));
    const auto same
        = [&] { return minimumOf(measured) == minimumOf(reference) && maximumOf(measured) == maximumOf(reference); };
    QVERIFY(same());
    const QSize before = minimumOf(measured);
    for (QCPTextElement *element : {static_cast<QCPTextElement *>(measured), reference})
        element->setText(u"a much longer title\nover two lines"_s);
    QVERIFY(same());
    QVERIFY(minimumOf(measured).width() > before.width());
    QVERIFY(minimumOf(measured).height() > before.height());
    for (QCPTextElement *element : {static_cast<QCPTextElement *>(measured), reference})
        element->setFont(font(14.0, true));
    QVERIFY(same());
    for (QCPTextElement *element : {static_cast<QCPTextElement *>(measured), reference})
        element->setMargins(QMargins(7, 3, 11, 5));
    QVERIFY(same());
}

void TestMeasuredText::legendItemFollowsItsPlottable()
{
    QCustomPlot plot;
    plot.setAutoAddPlottableToLegend(false);
    QCPGraph *graph = plot.addGraph();
    graph->setName(u"std of s·E[:, j]"_s);
    auto *measured = new MeasuredLegendItem(plot.legend, graph);
    auto *reference = new QCPPlottableLegendItem(plot.legend, graph);
    plot.legend->addItem(measured);
    plot.legend->addItem(reference);
    const auto same = [&] { return minimumOf(measured) == minimumOf(reference); };
    QVERIFY(same());
    const int before = minimumOf(measured).width();
    graph->setName(u"|mean| of s·E[:, j], over all 1,048,576 positions"_s);
    QVERIFY(same());
    QVERIFY(minimumOf(measured).width() > before);
    measured->setFont(font(11.0));
    reference->setFont(font(11.0));
    QVERIFY(same());
    plot.legend->setIconSize(30, 24);
    plot.legend->setIconTextPadding(9);
    QVERIFY(same());
    measured->setMargins(QMargins(1, 2, 3, 4));
    reference->setMargins(QMargins(1, 2, 3, 4));
    QVERIFY(same());
}

// A title and a wrapped legend over an axis rect: the measured elements put every element at
// the same place as QCustomPlot's.
void TestMeasuredText::figureLaysOutAsWithQCustomPlotsElements()
{
    const auto build = [](QCustomPlot &plot, bool measured) {
        plot.resize(420, 300);
        plot.setAutoAddPlottableToLegend(false); // as the figures' plots
        plot.plotLayout()->insertRow(0);
        const QString title = u"Magnitudes per position  ·  d = 1,024, L = 8,192"_s;
        QCPTextElement *text = measured ? new MeasuredTextElement(&plot, title, font(9.5, true))
                                        : new QCPTextElement(&plot, title, font(9.5, true));
        plot.plotLayout()->addElement(0, 0, text);
        plot.legend->setVisible(true);
        plot.legend->setWrap(2);
        plot.legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        for (const QString &name : {u"‖s·Eₚ‖"_s, u"expected √(s²σ²d) = 1024"_s, u"‖PEₚ‖"_s, u"ratio (right axis)"_s}) {
            QCPGraph *graph = plot.addGraph();
            graph->setName(name);
            if (measured)
                MeasuredText::addToLegend(graph, plot.legend);
            else
                graph->addToLegend(plot.legend);
        }
        plot.replot();
        QList<QRect> rects {text->outerRect(), plot.axisRect()->outerRect(), plot.legend->outerRect()};
        for (int i = 0; i < plot.legend->itemCount(); ++i)
            rects.append(plot.legend->item(i)->outerRect());
        return rects;
    };
    QCustomPlot withMeasured, withQCustomPlots;
    const QList<QRect> measured = build(withMeasured, true);
    QCOMPARE(measured, build(withQCustomPlots, false));
    QCOMPARE(withMeasured.legend->itemCount(), 4);
    QVERIFY(dynamic_cast<MeasuredLegendItem *>(withMeasured.legend->item(0)));
}

void TestMeasuredText::legendIconSitsInTheMiddleOfItsText_data()
{
    QTest::addColumn<double>("points");
    QTest::newRow("9 pt, the window's") << 9.0;
    QTest::newRow("14 pt, a slide's") << 14.0;
    QTest::newRow("24 pt") << 24.0;
}

// Before: QCustomPlot draws the icon at the top of the entry, so beside 14-pt text (19 units high)
// an 18 x 8 icon read like a superscript. The line of a graph's icon (red here) is drawn through the
// icon's middle; it must pass within a sixth of the text's height of the middle of the text's ink
// (black: "xxxx", no ascenders or descenders, so its ink is the x-height band).
void TestMeasuredText::legendIconSitsInTheMiddleOfItsText()
{
    QFETCH(double, points);
    QCustomPlot plot;
    plot.resize(400, 200);
    plot.setAutoAddPlottableToLegend(false);
    plot.legend->setVisible(true);
    plot.legend->setFont(font(points));
    plot.legend->setIconSize(18, 8);
    plot.legend->setBorderPen(Qt::NoPen);
    QCPGraph *graph = plot.addGraph();
    graph->setName(u"xxxx"_s);
    graph->setPen(QPen(Qt::red, 2));
    MeasuredText::addToLegend(graph, plot.legend);
    const QImage image = plot.toPixmap(400, 200, 1.0).toImage();
    const QRect entry = plot.legend->item(0)->rect();
    const int textLeft = entry.left() + plot.legend->iconSize().width() + plot.legend->iconTextPadding();
    int iconTop = image.height(), iconBottom = -1, textTop = image.height(), textBottom = -1;
    for (int y = entry.top(); y <= entry.bottom(); ++y) {
        for (int x = entry.left(); x <= entry.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (x < textLeft && c.red() > 200 && c.green() < 80 && c.blue() < 80) {
                iconTop = std::min(iconTop, y);
                iconBottom = std::max(iconBottom, y);
            } else if (x >= textLeft && c.lightness() < 100) {
                textTop = std::min(textTop, y);
                textBottom = std::max(textBottom, y);
            }
        }
    }
    QVERIFY2(iconBottom >= 0 && textBottom >= 0, "the entry drew no icon or no text");
    const double iconMiddle = (iconTop + iconBottom) / 2.0, textMiddle = (textTop + textBottom) / 2.0;
    const double textHeight = QFontMetricsF(font(points)).height();
    QVERIFY2(
        std::abs(iconMiddle - textMiddle) <= textHeight / 6.0,
        qPrintable(
            u"icon ink at rows %1-%2, text ink at %3-%4"_s.arg(iconTop).arg(iconBottom).arg(textTop).arg(textBottom)));
}

void TestMeasuredText::aMarkerLargerThanItsIconIsDrawnWhole_data()
{
    QTest::addColumn<double>("points");
    QTest::addColumn<QSize>("icon");
    // alibi-slopes' key of the chosen head, an open circle 14 across, in its 18 x 14 icon; and in
    // the 12 x 8 icon of a legend a step unfolded (FigureRoom).
    QTest::newRow("14 pt, the figure's icon") << 14.0 << QSize(18, 14);
    QTest::newRow("14 pt, an unfolded legend's icon") << 14.0 << QSize(12, 8);
    QTest::newRow("9 pt, an unfolded legend's icon") << 9.0 << QSize(12, 8);
}

// Before: the icon was the legend's icon size and clipped to it, so an open circle 14 units across
// with a pen of 1.6 lost its top and bottom (`posenc export --lesson alibi-slopes all --size
// slide --font-size 14`, "head K"; before, its ink was 15 x 14 units, and 12 x 8 in the unfolded
// icons). The circle's ink (red), read from the drawn entry, is round (as high as wide) and within
// the entry; where its line of text is as high as the circle and its pen, it is drawn at its size,
// else smaller, to the line's height.
void TestMeasuredText::aMarkerLargerThanItsIconIsDrawnWhole()
{
    QFETCH(double, points);
    QFETCH(QSize, icon);
    constexpr double kSize = 14.0, kPen = 1.6;
    QCustomPlot plot;
    plot.resize(400, 200);
    plot.setAutoAddPlottableToLegend(false);
    plot.legend->setVisible(true);
    plot.legend->setFont(font(points));
    plot.legend->setIconSize(icon);
    plot.legend->setBorderPen(Qt::NoPen);
    QCPGraph *graph = plot.addGraph();
    graph->setName(u"head K"_s);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::red, kPen), Qt::NoBrush, kSize));
    MeasuredText::addToLegend(graph, plot.legend);
    const QImage image = plot.toPixmap(400, 200, 1.0).toImage();
    const QRect entry = plot.legend->item(0)->rect();
    int top = image.height(), bottom = -1, left = image.width(), right = -1;
    for (int y = entry.top() - 4; y <= entry.bottom() + 4; ++y)
        for (int x = entry.left() - 4; x <= entry.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.red() > 200 && c.green() < 160 && c.blue() < 160) {
                top = std::min(top, y);
                bottom = std::max(bottom, y);
                left = std::min(left, x);
                right = std::max(right, x);
            }
        }
    const QString ink = u"circle's ink at %1-%2 across, %3-%4 down"_s.arg(left).arg(right).arg(top).arg(bottom);
    const int high = bottom - top + 1, wide = right - left + 1;
    QVERIFY2(std::abs(high - wide) <= 1, qPrintable(ink));
    // The circle and its pen across (and an antialiased unit) take up to the line's height or the
    // icon's: drawn at their size where that holds them, else scaled to it; its ink within a unit
    // and a half of that.
    const double room = std::max<double>(QFontMetrics(font(points)).height(), icon.height());
    const double drawn = (kSize + kPen) * std::min(1.0, room / (kSize + kPen + 1.0));
    QVERIFY2(high >= drawn - 1.5 && high <= kSize + kPen + 2.0, qPrintable(ink + u", drawn %1"_s.arg(drawn)));
    // The entry holds it: its ink within the entry's rect.
    QVERIFY2(entry.contains(QRect(QPoint(left, top), QPoint(right, bottom))), qPrintable(ink));
}

// Axes whose painter remembers its tick labels' measures lay out and draw every pixel as
// QCustomPlot's own painter does: numbers, powers of ten drawn as QCustomPlot's "beautiful" powers,
// rotated labels, a colour scale's axis, axis labels of one and two lines on all four sides, each
// axis's parts where a click finds them; again when the labels are remembered, and after the
// labels' font and texts change.
void TestMeasuredText::tickLabelsDrawAsQCustomPlotsOwn()
{
    const auto build = [](QCustomPlot &plot, bool measured) {
        plot.resize(420, 300);
        plot.setPlottingHint(QCP::phCacheLabels, false); // as the figures' plots (PlotStyle)
        plot.xAxis->setRange(-0.5, 131071.5);
        plot.yAxis->setRange(1e-14, 3e-13);
        plot.yAxis->setNumberFormat(u"gbc"_s);
        plot.xAxis->setLabel(u"position p"_s);
        plot.yAxis->setLabel(u"|error| at p\nof the table"_s);
        plot.xAxis2->setVisible(true);
        plot.xAxis2->setTickLabels(true);
        plot.xAxis2->setRange(0.001, 0.0175);
        plot.xAxis2->setTickLabelRotation(35.0);
        plot.xAxis2->setLabel(u"frequency ω_i"_s);
        plot.yAxis2->setVisible(true);
        plot.yAxis2->setTickLabels(true);
        plot.yAxis2->setLabel(u"score (θ = 500000)"_s);
        auto *scale = new QCPColorScale(&plot);
        plot.plotLayout()->addElement(0, 1, scale);
        scale->setDataRange(QCPRange(-1.0, 1.0));
        for (QCPAxis *axis : plot.axisRect()->axes())
            axis->setTickLabelFont(font(9.0));
        if (measured)
            MeasuredText::measureTickLabels(&plot);
    };
    QCustomPlot withMeasured, withQCustomPlots;
    build(withMeasured, true);
    build(withQCustomPlots, false);
    const auto same = [&] {
        const QImage expected = withQCustomPlots.toPixmap().toImage();
        for (int round = 0; round < 2; ++round) {
            if (withMeasured.toPixmap().toImage() != expected)
                return false;
        }
        if (withMeasured.axisRect()->rect() != withQCustomPlots.axisRect()->rect())
            return false;
        // Each axis's parts (its line, tick labels and label) where QCustomPlot's own painter puts them.
        const QList<QCPAxis *> measuredAxes = withMeasured.axisRect()->axes(),
                               ownAxes = withQCustomPlots.axisRect()->axes();
        for (qsizetype i = 0; i < ownAxes.size(); ++i) {
            for (int x = 0; x < 420; x += 2) {
                for (int y = 0; y < 300; y += 2) {
                    if (measuredAxes[i]->getPartAt(QPointF(x, y)) != ownAxes[i]->getPartAt(QPointF(x, y)))
                        return false;
                }
            }
        }
        return true;
    };
    QVERIFY(same());
    for (QCustomPlot *plot : {&withMeasured, &withQCustomPlots}) {
        plot->yAxis->setTickLabelFont(font(12.0, true));
        plot->xAxis->setRange(-0.5, 63.5);
        plot->xAxis->setLabel(u"query position i"_s);
        plot->yAxis2->setLabel(u"|error|"_s);
    }
    QVERIFY(same());
}

// An axis's margin (its painter's size) is QCustomPlot's own painter's after each change of what it
// reads, one at a time and back: an answer given again for an axis as it was is never one for an
// axis changed since.
void TestMeasuredText::axisMarginsFollowWhatTheyRead()
{
    QCustomPlot withMeasured, withQCustomPlots;
    for (QCustomPlot *plot : {&withMeasured, &withQCustomPlots}) {
        plot->resize(420, 300);
        plot->setPlottingHint(QCP::phCacheLabels, false); // as the figures' plots (PlotStyle)
        plot->xAxis2->setVisible(true);
        plot->yAxis2->setVisible(true);
        plot->xAxis2->setTickLabels(true);
        plot->yAxis2->setTickLabels(true);
        plot->xAxis->setRange(0.0, 100.0);
        plot->yAxis->setRange(1e-14, 3e-13);
        for (QCPAxis *axis : plot->axisRect()->axes())
            axis->setTickLabelFont(font(9.0));
    }
    MeasuredText::measureTickLabels(&withMeasured);
    const auto margins = [](QCustomPlot &plot) {
        plot.replot(QCustomPlot::rpImmediateRefresh);
        return plot.axisRect()->margins();
    };
    using Change = std::function<void(QCPAxis *)>;
    const QList<std::pair<QString, Change>> changes {
        {u"range"_s, [](QCPAxis *a) { a->setRange(-0.5, 131071.5); }},
        {u"tick label font"_s, [](QCPAxis *a) { a->setTickLabelFont(font(13.0, true)); }},
        {u"tick label font back"_s, [](QCPAxis *a) { a->setTickLabelFont(font(9.0)); }},
        {u"tick label padding"_s, [](QCPAxis *a) { a->setTickLabelPadding(11); }},
        {u"tick lengths"_s, [](QCPAxis *a) { a->setTickLength(2, 9); }},
        {u"sub-tick lengths"_s, [](QCPAxis *a) { a->setSubTickLength(1, 14); }},
        {u"label"_s, [](QCPAxis *a) { a->setLabel(u"position p"_s); }},
        {u"label in two lines"_s, [](QCPAxis *a) { a->setLabel(u"|error| at p\nof the table"_s); }},
        {u"label font"_s, [](QCPAxis *a) { a->setLabelFont(font(15.0)); }},
        {u"label padding"_s, [](QCPAxis *a) { a->setLabelPadding(12); }},
        {u"rotation"_s, [](QCPAxis *a) { a->setTickLabelRotation(35.0); }},
        {u"rotation back"_s, [](QCPAxis *a) { a->setTickLabelRotation(0.0); }},
        {u"number format"_s, [](QCPAxis *a) { a->setNumberFormat(u"gbc"_s); }},
        {u"labels inside"_s, [](QCPAxis *a) { a->setTickLabelSide(QCPAxis::lsInside); }},
        {u"labels outside"_s, [](QCPAxis *a) { a->setTickLabelSide(QCPAxis::lsOutside); }},
        {u"no tick labels"_s, [](QCPAxis *a) { a->setTickLabels(false); }},
        {u"tick labels"_s, [](QCPAxis *a) { a->setTickLabels(true); }},
        {u"no ticks"_s, [](QCPAxis *a) { a->setTicks(false); }},
        {u"no label"_s, [](QCPAxis *a) { a->setLabel(QString()); }},
    };
    QCOMPARE(margins(withMeasured), margins(withQCustomPlots));
    for (const auto &[name, change] : changes) {
        for (int i = 0; i < 4; ++i) {
            change(withMeasured.axisRect()->axes()[i]);
            change(withQCustomPlots.axisRect()->axes()[i]);
        }
        const QMargins measured = margins(withMeasured), own = margins(withQCustomPlots);
        if (measured != own)
            QFAIL(qPrintable(u"after %1: %2 %3 %4 %5, QCustomPlot's %6 %7 %8 %9"_s.arg(name)
                                 .arg(measured.left())
                                 .arg(measured.top())
                                 .arg(measured.right())
                                 .arg(measured.bottom())
                                 .arg(own.left())
                                 .arg(own.top())
                                 .arg(own.right())
                                 .arg(own.bottom())));
    }
}

POSENC_TEST_MAIN(TestMeasuredText)
} // namespace tst_measuredtext
#include "tst_measuredtext.moc"
