// The work of labelling curves where they are drawn (DirectLabels) within a fitting: a curve is
// drawn into its plot's cells once for each geometry it is asked at, its last few kept while the
// fitting lasts (DirectLabels::Fitting), so that the room ladder's steps that let a key go for
// labels (labelSomeCurves, asked again at each climb) and the trial layouts they make between the
// settled ones draw it no more; and a dense curve that swings up and down within each column of
// the plot costs a step a point and a step a cell, not a step every half unit along each of its
// segments. A view of a DeepSeek-V3 preset zoomed spent 439 ms of the window's GUI thread drawing
// such curves. The labels made are those made outside a fitting. A layout settled again within a
// fitting (a room step that changes nothing the labels keep off, the best steps taken again) places
// its labels, and a step lets its key go for labels, as before without searching again, as they are
// placed outside one.
#include "render/DirectLabelCells.h"
#include "render/DirectLabelPlaces.h"
#include "render/DirectLabelScene.h"
#include "render/DirectLabels.h"
#include "render/FigureRoom.h"
#include "render/FigureRoomSteps.h"
#include "support/TestMain.h"

#include "OneRectPlot.h"

#include <QTest>

#include <cmath>
#include <numbers>

namespace tst_directlabelwork {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

constexpr int kPoints = 20000;

// A 300 x 240 plot (short of room at 9 pt) of one axis rect over 0..10 both ways: a noise of
// kPoints points that swings between 1 and 4 at every point (dozens of points a column), and a
// calm wave over it, both named in a key below it.
struct NoisyPlot
{
    QCustomPlot plot;
    QCPAxisRect *rect = nullptr;
    QCPLegend *legend = nullptr;

    NoisyPlot()
    {
        rect = OneRectPlot::layOut(plot);
        legend = OneRectPlot::keyBelow(plot);
        QList<double> x, noise, calm;
        for (int i = 0; i < kPoints; ++i) {
            x.append(10.0 * i / (kPoints - 1));
            noise.append(i % 2 == 0 ? 1.0 + 0.5 * std::sin(double(i)) : 4.0 + 0.5 * std::cos(double(i)));
            calm.append(8.0 + 0.5 * std::sin(2.0 * std::numbers::pi * x.constLast() / 10.0));
        }
        add(x, noise, u"noise"_s, Qt::blue);
        add(x, calm, u"calm"_s, Qt::red);
        plot.replot();
    }

    void add(const QList<double> &x, const QList<double> &y, const QString &name, const QColor &colour)
    {
        QCPGraph *graph = plot.addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        graph->setData(x, y, true);
        graph->setPen(QPen(colour, 1.0));
        graph->setName(name);
        legend->addItem(new QCPPlottableLegendItem(legend, graph));
    }

    // The labels drawn: each one's text and where it stands.
    QStringList labels() const
    {
        QStringList labels;
        for (int i = 0; i < plot.itemCount(); ++i)
            if (auto *text = qobject_cast<QCPItemText *>(plot.item(i));
                text && text->visible() && DirectLabels::named(text))
                labels.append(u"%1 at %2, %3"_s.arg(text->text())
                                  .arg(text->position->coords().x(), 0, 'f', 4)
                                  .arg(text->position->coords().y(), 0, 'f', 4));
        return labels;
    }
};

// The room ladder's step that lets the key go for labels, asked `rounds` times as the climbs ask
// it, the figure restored between; the labels of the last.
QStringList ladder(NoisyPlot &scene, int rounds)
{
    QStringList labels;
    for (int round = 0; round < rounds; ++round) {
        FigureRoom::restore(&scene.plot);
        scene.plot.replot();
        if (!FigureRoom::Steps::labelSomeCurves(&scene.plot))
            return {};
        labels = scene.labels();
    }
    return labels;
}

// Every direct label of `plot` undrawn, as a layout that left them no place leaves them: place()
// then places them all again.
void hideLabels(QCustomPlot &plot)
{
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot.item(i)); text && DirectLabels::named(text))
            text->setVisible(false);
}

// The labels of `scene` placed again at a viewport of `size`.
QStringList placedAt(NoisyPlot &scene, QSize size)
{
    scene.plot.setViewport(QRect(QPoint(0, 0), size));
    scene.plot.replot();
    hideLabels(scene.plot);
    if (!DirectLabels::place(&scene.plot))
        return {};
    return scene.labels();
}

} // namespace

class TestDirectLabelWork : public QObject
{
    Q_OBJECT

private slots:
    void aCurveIsDrawnOnceAGeometryAFitting();
    void aDenseCurveCostsAStepAPoint();
    void aLayoutsLabelsArePlacedOnceAFitting();
    void aPlotResizedMapsItsPointsOnce_data();
    void aPlotResizedMapsItsPointsOnce();
};

void TestDirectLabelWork::aCurveIsDrawnOnceAGeometryAFitting()
{
    // Outside a fitting: the labels the step makes, and what one step draws.
    NoisyPlot alone;
    QVERIFY(FigureRoom::shortOfRoom(alone.plot, 9.0));
    quint64 before = DirectLabels::pointsDrawn();
    const QStringList expected = ladder(alone, 1);
    const quint64 once = DirectLabels::pointsDrawn() - before;
    QVERIFY(!expected.isEmpty());
    QVERIFY(once >= quint64(kPoints));

    // Within one, four rounds of it draw no more than the first, and make the same labels; the
    // rounds after the first take the first's searches for places as they found them.
    NoisyPlot scene;
    const DirectLabels::Fitting fitting;
    before = DirectLabels::pointsDrawn();
    const quint64 keptBefore = DirectLabels::searchesKept();
    QCOMPARE(ladder(scene, 4), expected);
    const quint64 drawn = DirectLabels::pointsDrawn() - before;
    const quint64 kept = DirectLabels::searchesKept() - keptBefore;
    qInfo("4 rounds drew %llu points, one alone %llu; %llu searches kept", drawn, once, kept);
    QVERIFY2(drawn <= once, qPrintable(u"%1 points drawn, %2 by one round"_s.arg(drawn).arg(once)));
    QVERIFY2(kept >= 3, qPrintable(u"%1 searches kept"_s.arg(kept)));
}

void TestDirectLabelWork::aDenseCurveCostsAStepAPoint()
{
    // The noise's segments each swing a third of the plot's height: a step every half unit along
    // each took over a hundred a point.
    NoisyPlot scene;
    const DirectLabels::Fitting fitting;
    const quint64 drawnBefore = DirectLabels::pointsDrawn();
    const quint64 stepsBefore = DirectLabels::Cells::steps();
    QVERIFY(!ladder(scene, 1).isEmpty());
    const quint64 drawn = DirectLabels::pointsDrawn() - drawnBefore;
    const quint64 steps = DirectLabels::Cells::steps() - stepsBefore;
    qInfo("%llu points drawn in %llu steps", drawn, steps);
    QVERIFY(drawn >= quint64(kPoints));
    // A step a point, and one a cell of each column's run: at most the plot's cells a drawing.
    const quint64 cells = quint64(scene.rect->width() + 1) * quint64(scene.rect->height() + 1);
    QVERIFY2(steps <= 2 * drawn + (drawn / kPoints + 1) * cells, qPrintable(u"%1 steps"_s.arg(steps)));
}

void TestDirectLabelWork::aLayoutsLabelsArePlacedOnceAFitting()
{
    const QSize small(300, 240), large(360, 270);
    // Outside a fitting: the labels placed for each layout, the one, the other, the one again.
    NoisyPlot alone;
    QVERIFY(!ladder(alone, 1).isEmpty());
    const QStringList smallLabels = placedAt(alone, small);
    const QStringList largeLabels = placedAt(alone, large);
    QVERIFY(!smallLabels.isEmpty());
    QVERIFY(!largeLabels.isEmpty());
    QVERIFY(largeLabels != smallLabels);
    QCOMPARE(placedAt(alone, small), smallLabels);

    // Within one: the same labels, those of a layout placed before kept, another's searched for.
    NoisyPlot scene;
    const DirectLabels::Fitting fitting;
    QVERIFY(!ladder(scene, 1).isEmpty());
    const quint64 before = DirectLabels::placementsKept();
    QCOMPARE(placedAt(scene, small), smallLabels);
    QCOMPARE(placedAt(scene, small), smallLabels);
    QCOMPARE(DirectLabels::placementsKept() - before, quint64(1));
    QCOMPARE(placedAt(scene, large), largeLabels);
    QCOMPARE(DirectLabels::placementsKept() - before, quint64(1));
    QCOMPARE(placedAt(scene, small), smallLabels);
    QCOMPARE(placedAt(scene, large), largeLabels);
    QCOMPARE(DirectLabels::placementsKept() - before, quint64(3));
}

void TestDirectLabelWork::aPlotResizedMapsItsPointsOnce_data()
{
    QTest::addColumn<bool>("logarithmic");
    QTest::addColumn<bool>("reversed");
    QTest::addColumn<bool>("upright"); // the key axis vertical
    QTest::addColumn<bool>("offRange"); // a key and a value at zero: off a log axis's range
    QTest::addColumn<bool>("negative"); // the values and their range under zero
    QTest::newRow("log-log, as ALiBi's attention span") << true << false << false << false << false;
    QTest::newRow("log, reversed, key upright") << true << true << true << false << false;
    QTest::newRow("linear") << false << false << false << false << false;
    QTest::newRow("linear, reversed, key upright") << false << true << true << false << false;
    QTest::newRow("log, zeros off its range") << true << false << false << true << false;
    QTest::newRow("log, reversed, key upright, zeros off") << true << true << true << true << false;
    QTest::newRow("log, under zero, a zero off") << true << false << false << true << true;
    QTest::newRow("log, under zero, reversed, upright, a zero off") << true << true << true << true << true;
}

void TestDirectLabelWork::aPlotResizedMapsItsPointsOnce()
{
    // A fitting tries a plot at dozens of heights, its axes' ranges kept: ALiBi's attention span
    // under its lesson's text mapped its log-log curves' points anew at each (four logarithms a
    // point). The points are QCPAxis::coordToPixel's to the bit at each size, mapped once.
    QFETCH(bool, logarithmic);
    QFETCH(bool, reversed);
    QFETCH(bool, upright);
    QFETCH(bool, offRange);
    QFETCH(bool, negative);
    QCustomPlot plot;
    plot.plotLayout()->clear();
    auto *rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 0, rect);
    rect->setAutoMargins(QCP::msNone);
    rect->setMargins(QMargins(37, 11, 13, 23));
    QCPAxis *keyAxis = rect->axis(upright ? QCPAxis::atLeft : QCPAxis::atBottom);
    QCPAxis *valueAxis = rect->axis(upright ? QCPAxis::atBottom : QCPAxis::atLeft);
    keyAxis->setRange(0.716985, 5711.42);
    const double sign = negative ? -1.0 : 1.0;
    valueAxis->setRange(QCPRange(sign * (logarithmic ? 4.99904e-07 : -0.1), sign * 0.499904));
    for (QCPAxis *axis : {keyAxis, valueAxis}) {
        axis->setScaleType(logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        axis->setRangeReversed(reversed);
    }
    QCPGraph *graph = plot.addGraph(keyAxis, valueAxis);
    QList<double> keys, values;
    constexpr int kCount = 585;
    for (int i = 0; i < kCount; ++i) {
        const double key = std::pow(4096.0, double(i) / (kCount - 1));
        keys.append(offRange && i == 0 ? 0.0 : key);
        values.append(offRange && i == 100 ? 0.0 : sign * 0.5 * std::exp(-0.01 * key) + (i == 7 ? NAN : 0.0));
    }
    graph->setData(keys, values, true);

    const DirectLabels::Fitting fitting;
    const quint64 before = DirectLabels::pointsMapped();
    for (int height = 40; height < 100; height += 3) {
        rect->setOuterRect(QRect(5, 3 + height % 7, 600 - height, height));
        const QList<QPointF> points = *DirectLabels::pointsAt(graph);
        QList<QPointF> expected;
        for (int i = 0; i < kCount; ++i)
            if (std::isfinite(values[i])) {
                const double k = keyAxis->coordToPixel(keys[i]), v = valueAxis->coordToPixel(values[i]);
                expected.append(upright ? QPointF(v, k) : QPointF(k, v));
            }
        QCOMPARE(points.size(), expected.size());
        for (qsizetype i = 0; i < points.size(); ++i)
            QVERIFY2(points[i].x() == expected[i].x() && points[i].y() == expected[i].y(),
                     qPrintable(u"point %1 at height %2: (%3, %4), coordToPixel (%5, %6)"_s.arg(i)
                                    .arg(height)
                                    .arg(points[i].x(), 0, 'g', 17)
                                    .arg(points[i].y(), 0, 'g', 17)
                                    .arg(expected[i].x(), 0, 'g', 17)
                                    .arg(expected[i].y(), 0, 'g', 17)));
    }
    QCOMPARE(DirectLabels::pointsMapped() - before, quint64(kCount - 1));
    // Its range changed, its points are mapped again once.
    valueAxis->setRange(valueAxis->range().lower, sign * 0.6);
    QVERIFY(!DirectLabels::pointsAt(graph)->isEmpty());
    QCOMPARE(DirectLabels::pointsMapped() - before, quint64(2 * (kCount - 1)));
}

POSENC_TEST_MAIN(TestDirectLabelWork)
} // namespace tst_directlabelwork
#include "tst_directlabelwork.moc"
