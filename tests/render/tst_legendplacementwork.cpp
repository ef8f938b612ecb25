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
#include "support/TestMain.h"

#include "OneRectPlot.h"

#include <QTest>

#include <cmath>
#include <numbers>

namespace tst_legendplacementwork {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

constexpr int kPoints = 40000;

// A 300 x 240 plot of one axis rect over 0..10 both ways, a line in its upper right corner, and a
// key of three entries, one row of them, inside the rect where it hides the least (setBest), and a
// mark (a text item clipped to the rect) in its middle: the first free place in matplotlib's order
// is the upper left.
struct KeyInPlot
{
    QCustomPlot plot;
    QCPAxisRect *rect = nullptr;
    QCPLegend *legend = nullptr;
    QList<QCPGraph *> graphs;
    QCPItemText *mark = nullptr;

    KeyInPlot()
    {
        rect = OneRectPlot::layOut(plot);
        const QFont font = OneRectPlot::font();
        legend = new QCPLegend;
        legend->setFont(font);
        rect->insetLayout()->addElement(legend, Qt::AlignBottom | Qt::AlignRight);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        legend->setWrap(3);
        for (const QString &name : {u"a"_s, u"b"_s, u"c"_s}) {
            graphs.append(plot.addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)));
            graphs.constLast()->setName(name);
            legend->addItem(new QCPPlottableLegendItem(legend, graphs.constLast()));
        }
        graphs.constFirst()->setData({7.0, 10.0}, {7.0, 10.0}, true);
        mark = new QCPItemText(&plot);
        mark->setClipAxisRect(rect);
        mark->setClipToAxisRect(true);
        mark->position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        mark->position->setCoords(5.0, 5.0);
        mark->setFont(font);
        mark->setText(u"mark"_s);
        LegendPlacement::setBest(legend);
        plot.replot();
    }

    // Where the key stands in its plot, and the columns it takes.
    std::pair<Qt::Alignment, int> placed() const { return {rect->insetLayout()->insetAlignment(0), legend->wrap()}; }
};

// One of what a key's place is decided by, changed in `scene`: the mark moved over the upper left,
// an entry's name made longer than a third of the plot, the key's columns set wider apart, a line
// drawn over the upper left (an item), the upper left's corner shaded, the line hidden (its data, which stay as they
// are in a fitting, free the upper right).
void change(KeyInPlot &scene, int what)
{
    switch (what) {
    case 0:
        scene.mark->position->setCoords(1.0, 9.0);
        break;
    case 1:
        scene.graphs[1]->setName(u"a name longer than a third of the plot"_s);
        break;
    case 2:
        scene.legend->setColumnSpacing(90);
        break;
    case 3: {
        auto *line = new QCPItemLine(&scene.plot);
        line->setClipAxisRect(scene.rect);
        line->setClipToAxisRect(true);
        for (QCPItemPosition *end : {line->start, line->end})
            end->setAxes(scene.rect->axis(QCPAxis::atBottom), scene.rect->axis(QCPAxis::atLeft));
        line->start->setCoords(0.5, 9.5);
        line->end->setCoords(2.0, 8.0);
        break;
    }
    case 4: {
        auto *shade = new QCPItemRect(&scene.plot);
        shade->setClipAxisRect(scene.rect);
        shade->setClipToAxisRect(true);
        for (QCPItemPosition *corner : {shade->topLeft, shade->bottomRight})
            corner->setAxes(scene.rect->axis(QCPAxis::atBottom), scene.rect->axis(QCPAxis::atLeft));
        shade->topLeft->setCoords(0.0, 10.0);
        shade->bottomRight->setCoords(3.0, 8.0);
        shade->setBrush(QColor(200, 220, 240));
        break;
    }
    case 5:
        scene.graphs.constFirst()->setVisible(false);
        break;
    }
    scene.plot.replot();
}

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
        rect = OneRectPlot::layOut(plot);
        legend = OneRectPlot::keyBelow(plot);
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
    void aPlaceDecidedIsTakenAgainForItsState();
    void aChangedStateIsDecidedAgain_data();
    void aChangedStateIsDecidedAgain();
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

// Within a fitting, a key and its plot as they were before (a step undone, a path of steps taken
// again: FigureLayoutLoop::giveUpTo) are placed as they were, without weighing the data again.
void TestLegendPlacementWork::aPlaceDecidedIsTakenAgainForItsState()
{
    KeyInPlot scene;
    const LegendPlacement::Fitting fitting;
    LegendPlacement::placeBest(scene.legend, scene.rect);
    const auto first = scene.placed();
    QCOMPARE(first.first, Qt::AlignTop | Qt::AlignLeft);
    scene.mark->position->setCoords(1.0, 9.0);
    scene.plot.replot();
    LegendPlacement::placeBest(scene.legend, scene.rect);
    QVERIFY(scene.placed() != first);
    scene.mark->position->setCoords(5.0, 5.0);
    scene.plot.replot();
    const quint64 made = LegendPlacement::decisionsMade(), remembered = LegendPlacement::decisionsRemembered();
    const quint64 weighed = LegendPlacement::pointsWeighed();
    LegendPlacement::placeBest(scene.legend, scene.rect);
    QCOMPARE(scene.placed(), first);
    QCOMPARE(LegendPlacement::decisionsMade(), made);
    QCOMPARE(LegendPlacement::decisionsRemembered(), remembered + 1);
    QCOMPARE(LegendPlacement::pointsWeighed(), weighed);
}

void TestLegendPlacementWork::aChangedStateIsDecidedAgain_data()
{
    QTest::addColumn<int>("what");
    QTest::newRow("a mark moved") << 0;
    QTest::newRow("an entry's longer name") << 1;
    QTest::newRow("columns apart") << 2;
    QTest::newRow("a line drawn") << 3;
    QTest::newRow("a shade drawn") << 4;
    QTest::newRow("the line hidden") << 5;
}

// Within a fitting, a key placed in its plot as it was, then placed again after one of what its place
// is decided by changed, stands where a key placed outside any fitting stands in a plot made with
// that change (nothing remembered): the decision remembered for the plot as it was is not taken.
void TestLegendPlacementWork::aChangedStateIsDecidedAgain()
{
    QFETCH(int, what);
    // The reference: the plot made with the change and the key placed afresh, outside a fitting.
    LegendPlacement::beginFitting();
    KeyInPlot alone;
    LegendPlacement::placeBest(alone.legend, alone.rect);
    const auto before = alone.placed();
    KeyInPlot changed;
    change(changed, what);
    LegendPlacement::beginFitting();
    LegendPlacement::placeBest(changed.legend, changed.rect);
    const auto after = changed.placed();
    QVERIFY2(after != before, "the change moves the key or folds it");

    // Within a fitting: placed before the change, then after it.
    KeyInPlot scene;
    const LegendPlacement::Fitting fitting;
    LegendPlacement::placeBest(scene.legend, scene.rect);
    QCOMPARE(scene.placed(), before);
    change(scene, what);
    LegendPlacement::placeBest(scene.legend, scene.rect);
    QCOMPARE(scene.placed(), after);
}

POSENC_TEST_MAIN(TestLegendPlacementWork)
} // namespace tst_legendplacementwork
#include "tst_legendplacementwork.moc"
