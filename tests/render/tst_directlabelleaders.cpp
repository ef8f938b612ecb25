// A direct label off its curve, joined to it by a leader line (DirectLabelLeader.h), as
// matplotlib's ax.annotate(name, xy=point, xytext=place, arrowprops=dict(arrowstyle="-")) sets one
// where the curves crowd: its leader runs from a point of its own curve to the nearest point of its
// box, crosses no other curve, and is drawn in the label's colour where it is computed. Measured
// against plain geometry here (distances of points to segments), not against the placing's cells.
#include "render/DirectLabelLeader.h"
#include "render/DirectLabelPlaces.h"
#include "render/DirectLabelScene.h"
#include "support/PlainPlot.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>

namespace tst_directlabelleaders {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// The distance from `p` to the segment a..b.
double toSegment(QPointF p, QPointF a, QPointF b)
{
    const QPointF d = b - a;
    const double length2 = QPointF::dotProduct(d, d);
    const double t = length2 == 0.0 ? 0.0 : std::clamp(QPointF::dotProduct(p - a, d) / length2, 0.0, 1.0);
    const QPointF nearest = a + d * t;
    return std::hypot(p.x() - nearest.x(), p.y() - nearest.y());
}

// The least distance between the segments a..b and c..d, read from points every tenth of a unit.
double between(QPointF a, QPointF b, QPointF c, QPointF d)
{
    double least = 1e9;
    const int steps = std::max(1, int(std::ceil(QLineF(a, b).length() * 10.0)));
    for (int i = 0; i <= steps; ++i)
        least = std::min(least, toSegment(a + (b - a) * (double(i) / steps), c, d));
    return least;
}

QCPGraph *level(QCustomPlot &plot, double from, double to, double at, const QColor &colour)
{
    QCPGraph *graph = plot.addGraph();
    graph->setData(QList<double> {from, to}, QList<double> {at, at}, true);
    graph->setPen(QPen(colour, 1.0));
    return graph;
}

} // namespace

class TestDirectLabelLeaders : public QObject
{
    Q_OBJECT

private slots:
    void aLeaderRunsFromItsPointToItsBox();
    void aSegmentMeetsABoxAsItsPointsDo();
    void aCrowdedCurveIsNamedOffItWithALeader();
    void theLeaderIsDrawnWhereItIsComputed();
};

// The leader starts kLeaderOff past its curve's point and ends kLeaderOff short of the nearest
// point of the label's box; none where the point is within the box's reach.
void TestDirectLabelLeaders::aLeaderRunsFromItsPointToItsBox()
{
    const QRectF box(100.0, 20.0, 60.0, 12.0);
    for (const QPointF anchor : {QPointF(80.0, 60.0), QPointF(130.0, 70.0), QPointF(190.0, 5.0), QPointF(40.0, 26.0)}) {
        const QLineF line = DirectLabels::leaderOf(box, anchor);
        QVERIFY(!line.isNull());
        QCOMPARE(std::hypot(line.x1() - anchor.x(), line.y1() - anchor.y()), DirectLabels::kLeaderOff);
        // Its end kLeaderOff from the box, and no point of the box nearer its anchor than that end's direction.
        double nearest = 1e9;
        for (double x = box.left(); x <= box.right(); x += 0.5)
            for (double y = box.top(); y <= box.bottom(); y += 0.5)
                nearest = std::min(nearest, std::hypot(x - anchor.x(), y - anchor.y()));
        const double reach = std::hypot(line.x2() - anchor.x(), line.y2() - anchor.y());
        QVERIFY2(std::abs(reach + DirectLabels::kLeaderOff - nearest) < 0.5,
                 qPrintable(u"reaches %1 of %2"_s.arg(reach).arg(nearest)));
    }
    QVERIFY(DirectLabels::leaderOf(box, QPointF(120.0, 25.0)).isNull());
    QVERIFY(DirectLabels::leaderOf(box, QPointF(120.0, 33.5)).isNull());
}

void TestDirectLabelLeaders::aSegmentMeetsABoxAsItsPointsDo()
{
    const QRectF box(10.0, 10.0, 30.0, 8.0);
    int trial = 0;
    for (double x0 = 0.0; x0 <= 50.0; x0 += 7.0)
        for (double y0 = 0.0; y0 <= 30.0; y0 += 5.0)
            for (double x1 = 3.0; x1 <= 50.0; x1 += 11.0)
                for (double y1 = 2.0; y1 <= 30.0; y1 += 9.0) {
                    const QLineF line(x0, y0, x1, y1);
                    bool expected = false;
                    for (int i = 0; i <= 2000 && !expected; ++i)
                        expected = box.contains(line.pointAt(i / 2000.0));
                    // A segment grazing a corner is read either way by points a fortieth of a unit apart.
                    if (expected != DirectLabels::meets(line, box)
                        && between(line.p1(), line.p2(), box.topLeft(), box.topRight()) > 0.05
                        && between(line.p1(), line.p2(), box.bottomLeft(), box.bottomRight()) > 0.05
                        && between(line.p1(), line.p2(), box.topLeft(), box.bottomLeft()) > 0.05
                        && between(line.p1(), line.p2(), box.topRight(), box.bottomRight()) > 0.05)
                        QFAIL(qPrintable(u"segment %1,%2 %3,%4"_s.arg(x0).arg(y0).arg(x1).arg(y1)));
                    ++trial;
                }
    QVERIFY(trial > 100);
}

// A curve shielded by two others 4 units off it on both sides, but for its first 60 units, has no
// place beside it nor over it for a label 100 units wide; with leaders its label stands in the free
// room above or below, its leader from a point of its own first stretch crossing neither other.
void TestDirectLabelLeaders::aCrowdedCurveIsNamedOffItWithALeader()
{
    QCustomPlot plot;
    QCPAxisRect *rect = PlainPlot::make(plot);
    QCPGraph *own = level(plot, 0.0, 300.0, 100.0, Qt::darkBlue);
    QCPGraph *above = level(plot, 60.0, 300.0, 104.0, Qt::darkRed);
    QCPGraph *below = level(plot, 60.0, 300.0, 96.0, Qt::darkGreen);
    QFont font = plot.font();
    font.setPixelSize(11);
    QString name = u"the curve in the middle"_s;
    while (DirectLabels::sizeOf(font, name).width() < 100.0)
        name += u" X"_s;

    QList<DirectLabels::Wanted> beside {DirectLabels::Wanted::of(own, {name})};
    QVERIFY(!DirectLabels::placeAll(beside, font, {}));
    QList<DirectLabels::Wanted> wanted {DirectLabels::Wanted::of(own, {name})};
    QVERIFY(DirectLabels::placeAll(wanted, font, {}, nullptr, true));
    const DirectLabels::Spot spot = *wanted.constFirst().at;
    QVERIFY(spot.anchor);
    QVERIFY(!spot.over);
    const QRectF inside = rect->rect();
    QVERIFY(inside.contains(spot.box));
    const auto pixel = [&](double x, double y) {
        return QPointF(rect->axis(QCPAxis::atBottom)->coordToPixel(x), rect->axis(QCPAxis::atLeft)->coordToPixel(y));
    };
    // Its anchor on its own curve.
    QVERIFY(toSegment(*spot.anchor, pixel(0.0, 100.0), pixel(300.0, 100.0)) < 0.01);
    // The box clear of the other curves by kGap, and of its own.
    for (const auto &[from, to] :
         {std::pair {pixel(60.0, 104.0), pixel(300.0, 104.0)}, std::pair {pixel(60.0, 96.0), pixel(300.0, 96.0)},
          std::pair {pixel(0.0, 100.0), pixel(300.0, 100.0)}}) {
        const bool across = spot.box.top() <= from.y() && spot.box.bottom() >= from.y()
            && spot.box.right() >= std::min(from.x(), to.x()) && spot.box.left() <= std::max(from.x(), to.x());
        QVERIFY(!across);
        const double off = std::min({std::abs(spot.box.top() - from.y()), std::abs(spot.box.bottom() - from.y())});
        QVERIFY2(off >= DirectLabels::kGap || spot.box.right() < std::min(from.x(), to.x()),
                 qPrintable(u"%1 units off a curve"_s.arg(off)));
    }
    // Its leader crosses neither other curve, a line's half width and more off them.
    const QLineF line = DirectLabels::leaderOf(spot.box, *spot.anchor);
    QVERIFY(!line.isNull());
    for (const QCPGraph *other : {above, below}) {
        const double value = other->data()->constBegin()->value;
        QVERIFY(between(line.p1(), line.p2(), pixel(60.0, value), pixel(300.0, value)) > 0.5);
    }
}

// The leader is painted with its label, in its colour, where leader() computes it (QCPItemText
// leaves the painter moved to its text's position: a leader drawn after it stood off its place).
void TestDirectLabelLeaders::theLeaderIsDrawnWhereItIsComputed()
{
    QCustomPlot plot;
    QCPAxisRect *rect = PlainPlot::make(plot);
    auto *text = new DirectLabels::LeaderText(&plot);
    text->setClipAxisRect(rect);
    text->setText(u"named"_s);
    text->setColor(QColor(200, 0, 0));
    text->position->setType(QCPItemPosition::ptPlotCoords);
    text->position->setCoords(200.0, 150.0);
    text->anchor->setType(QCPItemPosition::ptPlotCoords);
    text->anchor->setCoords(60.0, 40.0);
    text->leads = true;
    plot.replot();
    const QLineF line = text->leader();
    QVERIFY(line.length() > 50.0);
    const QImage image = plot.toPixmap(300, 200, 1.0).toImage();
    int red = 0;
    for (double t = 0.2; t <= 0.8; t += 0.1) {
        const QPoint p = line.pointAt(t).toPoint();
        bool found = false;
        for (int dx = -1; dx <= 1 && !found; ++dx)
            for (int dy = -1; dy <= 1 && !found; ++dy) {
                const QColor c = image.pixelColor(p + QPoint(dx, dy));
                found = c.red() > c.green() + 40 && c.red() > c.blue() + 40;
            }
        red += found;
    }
    QCOMPARE(red, 7);
    text->leads = false;
    QVERIFY(text->leader().isNull());
}

POSENC_TEST_MAIN(TestDirectLabelLeaders)
} // namespace tst_directlabelleaders
#include "tst_directlabelleaders.moc"
