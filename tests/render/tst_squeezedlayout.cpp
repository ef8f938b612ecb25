// A figure squeezed below its parts' least sizes: QCustomPlot lays a part whose least size is 0
// out 2^31 pixels wide (QCPLayout::getSectionSizes shares the room left, less than none once the
// grid's spacing is taken, by the part's share of it, none: -inf x 0), and every rect read after
// SqueezedLayout::collapseOverflowed is within reach, a colour bar's included.
#include "render/SqueezedLayout.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>

namespace tst_squeezedlayout {
using namespace posenc;

class TestSqueezedLayout : public QObject
{
    Q_OBJECT

private slots:
    void soundRects_data();
    void soundRects();
    void squeezedRowCollapsesItsEmptyPart_data();
    void squeezedRowCollapsesItsEmptyPart();
    void roomyLayoutIsLeftAsLaidOut();
    void squeezablePlotReplotsSound();
    void resizeBurstReplotsOnce();
    void screenIsTheFigureOnItsBackground();
};

namespace {

// Lays the plot's layout out in `room`, as a replot does, without painting.
void layOut(QCustomPlot &plot, const QRect &room)
{
    QCPLayoutGrid *layout = plot.plotLayout();
    layout->setOuterRect(room);
    for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        layout->update(phase);
}

QList<QRect> everyRect(QCustomPlot &plot)
{
    QList<QRect> rects;
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true)) {
        if (!element)
            continue;
        rects << element->outerRect() << element->rect();
        if (auto *scale = qobject_cast<QCPColorScale *>(element))
            rects << scale->axis()->axisRect()->outerRect();
    }
    return rects;
}

bool allSound(const QList<QRect> &rects)
{
    return std::all_of(rects.begin(), rects.end(), SqueezedLayout::isSound);
}

// A panel that may be no wider than `widest` but needs `least`, beside a horizontal colour bar,
// whose least width is 0 (QCPColorScale::update), in one row. Squeezed, the row gives the panel
// room in proportion to its need and the bar none.
void panelBesideBar(QCustomPlot &plot, int least, int widest)
{
    plot.plotLayout()->clear();
    auto *panel = new QCPAxisRect(&plot);
    panel->setAutoMargins(QCP::msNone);
    panel->setMargins(QMargins());
    panel->setMinimumSize(least, 10);
    panel->setMaximumSize(widest, QWIDGETSIZE_MAX);
    plot.plotLayout()->addElement(0, 0, panel);
    auto *bar = new QCPColorScale(&plot);
    bar->setType(QCPAxis::atBottom);
    plot.plotLayout()->addElement(0, 1, bar);
}

} // namespace

void TestSqueezedLayout::soundRects_data()
{
    QTest::addColumn<QRect>("rect");
    QTest::addColumn<bool>("sound");
    QTest::newRow("ordinary") << QRect(4, 2, 300, 200) << true;
    QTest::newRow("empty") << QRect(4, 2, 0, 0) << true;
    QTest::newRow("negative width, as inside a squeezed element's margins")
        << QRect(QPoint(10, 0), QPoint(5, 20)) << true;
    QTest::newRow("2^31 wide") << QRect(QPoint(4, 2), QPoint(std::numeric_limits<int>::min() + 3, 226)) << false;
    QTest::newRow("far left") << QRect(std::numeric_limits<int>::min(), 0, 10, 10) << false;
}

void TestSqueezedLayout::soundRects()
{
    QFETCH(QRect, rect);
    QFETCH(bool, sound);
    QCOMPARE(SqueezedLayout::isSound(rect), sound);
}

void TestSqueezedLayout::squeezedRowCollapsesItsEmptyPart_data()
{
    QTest::addColumn<int>("least");
    QTest::addColumn<int>("widest");
    QTest::addColumn<int>("room");
    // Rooms narrower than the grid's spacing (5 px): less than nothing is left to share.
    QTest::newRow("room of one pixel") << 80 << 1 << 1;
    QTest::newRow("room of three pixels") << 64 << 16 << 3;
    QTest::newRow("panel free to grow") << 64 << QWIDGETSIZE_MAX << 4;
}

void TestSqueezedLayout::squeezedRowCollapsesItsEmptyPart()
{
    QFETCH(int, least);
    QFETCH(int, widest);
    QFETCH(int, room);
    QCustomPlot plot;
    panelBesideBar(plot, least, widest);
    layOut(plot, QRect(0, 0, room, 100));
    // What QCustomPlot does, which the collapse is for: were this to stop holding, the collapse
    // would have nothing to mend here.
    QVERIFY2(!allSound(everyRect(plot)), "QCustomPlot no longer lays a squeezed part out overflowed");
    SqueezedLayout::collapseOverflowed(plot.plotLayout());
    QVERIFY(allSound(everyRect(plot)));
    auto *bar = qobject_cast<QCPColorScale *>(plot.plotLayout()->element(0, 1));
    QVERIFY(bar);
    QVERIFY(bar->outerRect().width() >= 0);
    // Where its grid placed it: after the panel and the grid's spacing.
    const int spacing = plot.plotLayout()->columnSpacing();
    QVERIFY(bar->outerRect().left() >= 0 && bar->outerRect().left() <= room + spacing);
    QCOMPARE(bar->axis()->axisRect()->outerRect(), bar->rect());
}

void TestSqueezedLayout::roomyLayoutIsLeftAsLaidOut()
{
    QCustomPlot plot;
    panelBesideBar(plot, 120, QWIDGETSIZE_MAX);
    layOut(plot, QRect(0, 0, 400, 100));
    const QList<QRect> before = everyRect(plot);
    QVERIFY(allSound(before));
    SqueezedLayout::collapseOverflowed(plot.plotLayout());
    QCOMPARE(everyRect(plot), before);
}

// The window's and the files' figures are drawn on a SqueezablePlot: its own replot's layout is
// collapsed before it is drawn or read, where a QCustomPlot's is not.
void TestSqueezedLayout::squeezablePlotReplotsSound()
{
    QCustomPlot plain;
    SqueezablePlot squeezable;
    for (QCustomPlot *plot : std::initializer_list<QCustomPlot *> {&plain, &squeezable}) {
        panelBesideBar(*plot, 80, 1);
        plot->setViewport(QRect(0, 0, 1, 100));
        plot->replot();
    }
    QVERIFY(!allSound(everyRect(plain)));
    QVERIFY(allSound(everyRect(squeezable)));
}

// A burst of resizes in one turn of the event loop is laid out and its buffers sized once, at the
// size it ends at; a paint before that replot makes it, so that no paint shows the buffers of a size
// before, and the replot queued is then not made again.
void TestSqueezedLayout::resizeBurstReplotsOnce()
{
    QWidget window;
    window.resize(400, 300);
    auto *plot = new SqueezablePlot(&window);
    plot->setGeometry(0, 0, 200, 150);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
    int replots = 0;
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [&replots] { ++replots; });
    for (const int width : {240, 280, 320, 360})
        plot->resize(width, 180);
    QCOMPARE(plot->viewport(), QRect(0, 0, 360, 180));
    QCOMPARE(replots, 0);
    QCoreApplication::processEvents();
    QCOMPARE(replots, 1);
    QCoreApplication::processEvents();
    QCOMPARE(replots, 1);

    plot->resize(300, 120);
    const QImage shown = plot->grab().toImage();
    QCOMPARE(replots, 2);
    QCOMPARE(shown.size(), QSize(300, 120) * plot->devicePixelRatioF());
    QCoreApplication::processEvents();
    QCOMPARE(replots, 2);
}

namespace {

QImage argb(const QImage &image)
{
    return image.convertToFormat(QImage::Format_ARGB32);
}

} // namespace

// The view's first paint buffer has no alpha channel where the canvas fills it with the background
// colour (a replot leaves out clearing it, a paint copies it): the pixels on screen are still those of
// QCustomPlot's own drawing of every layer over the background (toPixmap), antialiased edges and
// texts included, whatever colour it takes; and a background the canvas cannot fill (a gradient)
// is drawn under a buffer cleared to transparent again, not over the last opaque one.
void TestSqueezedLayout::screenIsTheFigureOnItsBackground()
{
    QWidget window;
    window.resize(360, 260);
    auto *plot = new SqueezablePlot(&window);
    plot->setGeometry(0, 0, 320, 220);
    plot->setPlottingHint(QCP::phCacheLabels, false); // toPixmap draws its labels uncached
    QCPGraph *graph = plot->addGraph();
    graph->setAntialiased(true);
    graph->setPen(QPen(QColor(30, 90, 200), 1.7));
    for (int i = 0; i <= 200; ++i)
        graph->addData(i, std::sin(i * 0.07) * (1.0 + i / 100.0));
    plot->rescaleAxes();
    plot->xAxis->setLabel(QStringLiteral("position p"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto shownAsDrawn = [plot] {
        plot->replot();
        const QImage shown = argb(plot->grab().toImage());
        const QImage drawn = argb(plot->toPixmap(plot->width(), plot->height()).toImage());
        QCOMPARE(shown.size(), drawn.size());
        QVERIFY(shown == drawn);
    };
    plot->setBackground(QColor(250, 248, 240));
    shownAsDrawn();
    plot->setBackground(QColor(20, 24, 40));
    shownAsDrawn();

    const QColor under(200, 40, 40);
    QLinearGradient gradient(0, 0, 1, 1);
    gradient.setColorAt(0, under);
    gradient.setColorAt(1, under);
    plot->setBackground(QBrush(gradient));
    plot->replot();
    const QImage shown = argb(plot->grab().toImage());
    const double ratio = plot->devicePixelRatioF();
    QCOMPARE(shown.pixelColor(int(2 * ratio), int(2 * ratio)), under);

    plot->setBackground(QColor(255, 255, 255));
    shownAsDrawn();
}

POSENC_TEST_MAIN(TestSqueezedLayout)
} // namespace tst_squeezedlayout
#include "tst_squeezedlayout.moc"
