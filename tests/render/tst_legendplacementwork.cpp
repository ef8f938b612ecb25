// The work of placing a key over its plot's data (LegendPlacement's leastCovered and freeCorner,
// FigureRoom's legendsOverData): within a fitting (LegendPlacement::Fitting) the data drawn are
// read once for each state of the plot, not once for every size, place and step of the ladder that
// asks, and a place is weighed only over the runs of points near its box and only until it can no
// longer be the first of least badness (matplotlib/lib/matplotlib/legend.py,
// Legend._find_best_position). A key of a line of 40,000 points asked for 3 sizes at each of 4
// steps read and weighed its points 120 times over (every call read them all and weighed them at
// each of the 9 places): a tenth of a second of the window's GUI thread. The places found are
// those found outside a fitting, where everything is read afresh.
#include "render/FigureRoom.h"
#include "render/FigureRoomSteps.h"
#include "render/LegendPlacement.h"
#include "render/LegendPlacementInputs.h"
#include "render/PinnedFont.h"

#include <QTest>

#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

constexpr int kPoints = 40000;

// A 300 x 240 plot (short of room at 9 pt) of one axis rect over 0..10 both ways, a wave of
// kPoints points across all of it, three periods between 0.5 and 9.5, named in a key below it.
struct WavePlot
{
    QCustomPlot plot;
    QCPAxisRect *rect = nullptr;
    QCPLegend *legend = nullptr;
    QCPGraph *wave = nullptr;

    WavePlot()
    {
        const QFont font(PinnedFont::family(), 9);
        plot.setFont(font);
        plot.setViewport(QRect(0, 0, 300, 240));
        plot.setAutoAddPlottableToLegend(false);
        plot.plotLayout()->clear();
        rect = new QCPAxisRect(&plot);
        plot.plotLayout()->addElement(0, 0, rect);
        legend = new QCPLegend;
        legend->setFont(font);
        plot.plotLayout()->addElement(1, 0, legend);
        plot.plotLayout()->setRowStretchFactor(1, 0.001);
        for (QCPAxis *axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)}) {
            axis->setTickLabelFont(font);
            axis->setRange(0.0, 10.0);
        }
        wave = plot.addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        setWave(3.0);
        wave->setName(u"wave"_s);
        legend->addItem(new QCPPlottableLegendItem(legend, wave));
        plot.replot();
    }

    void setWave(double periods, double middle = 5.0, double height = 4.5)
    {
        QList<double> x, y;
        for (int i = 0; i < kPoints; ++i) {
            x.append(10.0 * i / (kPoints - 1));
            y.append(middle + height * std::sin(2.0 * std::numbers::pi * periods * x.constLast() / 10.0));
        }
        wave->setData(x, y, true);
    }

    // The sizes the key takes in one to three columns, as moveKeys tries them.
    QList<QSize> sizes() const { return {LegendPlacement::stackedSize(legend, 1), QSize(60, 30), QSize(110, 50)}; }
};

using Places = QList<std::optional<Qt::Alignment>>;

Places placesOf(WavePlot &scene)
{
    Places places;
    for (const QSize size : scene.sizes())
        places.append(LegendPlacement::leastCovered(scene.rect, size, 0, 1.0));
    return places;
}

} // namespace

class TestLegendPlacementWork : public QObject
{
    Q_OBJECT

private slots:
    void theDataAreReadOnceAFitting();
    void aPlotChangedIsReadAgain();
    void theLadderReadsOnce();
};

void TestLegendPlacementWork::theDataAreReadOnceAFitting()
{
    WavePlot scene;
    // Outside a fitting, each ask reads the wave whole.
    quint64 before = LegendPlacement::pointsWeighed();
    const Places alone = placesOf(scene);
    QVERIFY(LegendPlacement::pointsWeighed() - before >= quint64(3 * kPoints));
    QVERIFY(std::all_of(alone.begin(), alone.end(), [](const auto &place) { return place.has_value(); }));
    QVERIFY2(!LegendPlacement::freeCorner(scene.rect, scene.sizes().constFirst(), 0), "every place hides some wave");

    // Within one, four steps asking for three sizes each read it once, and each ask weighs fewer
    // points than the wave has (nine places over all of them, before), and find what was found alone.
    const LegendPlacement::Fitting fitting;
    before = LegendPlacement::pointsWeighed();
    for (int step = 0; step < 4; ++step)
        QCOMPARE(placesOf(scene), alone);
    const quint64 weighed = LegendPlacement::pointsWeighed() - before;
    qInfo("12 asks weighed %llu points, %.2f times the wave's", weighed, double(weighed) / kPoints);
    QVERIFY2(weighed <= quint64((1 + 12) * kPoints), qPrintable(u"%1 points weighed"_s.arg(weighed)));
}

void TestLegendPlacementWork::aPlotChangedIsReadAgain()
{
    // The places found outside a fitting, read afresh: for another range of the x axis, and for
    // another wave set in the graph's own container.
    WavePlot alone;
    const Places first = placesOf(alone);
    alone.rect->axis(QCPAxis::atBottom)->setRange(2.5, 7.5);
    const Places zoomed = placesOf(alone);
    alone.rect->axis(QCPAxis::atBottom)->setRange(0.0, 10.0);
    alone.setWave(0.5, 2.0, 1.0);
    const Places calm = placesOf(alone);
    QVERIFY2(calm != first && zoomed != first, "other waves hide the wave elsewhere");

    WavePlot scene;
    const LegendPlacement::Fitting fitting;
    QCOMPARE(placesOf(scene), first);
    scene.rect->axis(QCPAxis::atBottom)->setRange(2.5, 7.5);
    QCOMPARE(placesOf(scene), zoomed);
    scene.rect->axis(QCPAxis::atBottom)->setRange(0.0, 10.0);
    QCOMPARE(placesOf(scene), first);
    scene.setWave(0.5, 2.0, 1.0);
    QCOMPARE(placesOf(scene), calm);
}

// FigureRoom's step that moves a key over the data, asked again at each layout of the ladder.
void TestLegendPlacementWork::theLadderReadsOnce()
{
    WavePlot scene;
    QVERIFY(FigureRoom::shortOfRoom(scene.plot, 9.0));
    const LegendPlacement::Fitting fitting;
    const quint64 before = LegendPlacement::pointsWeighed();
    for (int step = 0; step < 4; ++step) {
        QVERIFY(FigureRoom::Steps::legendsOverData(&scene.plot));
        QCOMPARE(scene.legend->layout(), scene.rect->insetLayout());
        FigureRoom::restore(&scene.plot);
        scene.plot.replot();
    }
    const quint64 weighed = LegendPlacement::pointsWeighed() - before;
    qInfo("4 steps weighed %llu points, %.2f times the wave's", weighed, double(weighed) / kPoints);
    QVERIFY2(weighed <= quint64((1 + 4) * kPoints), qPrintable(u"%1 points weighed"_s.arg(weighed)));
}

QTEST_MAIN(TestLegendPlacementWork)
#include "tst_legendplacementwork.moc"
