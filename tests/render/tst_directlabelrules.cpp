// Where a curve's direct label (DirectLabels) may stand, as a careful author sets one: beside the
// curve where it is seen, clear of its ink, and over it on a white ground only where no place beside
// it is free. Measured against plain geometry here (distances of the label's box to the segments the
// curves draw, their pens' half widths), not against the placing's cells.
#include "render/DirectLabelPlaces.h"
#include "render/DirectLabelScene.h"
#include "support/PlainPlot.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>

namespace tst_directlabelrules {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// A line from (x0, y0) to (x1, y1) in the plot's coordinates, drawn with a solid pen of `width`.
QCPGraph *line(QCustomPlot &plot, QPointF from, QPointF to, double width, const QColor &colour)
{
    QCPGraph *graph = plot.addGraph();
    graph->setData(QList<double> {from.x(), to.x()}, QList<double> {from.y(), to.y()}, true);
    graph->setPen(QPen(colour, width));
    return graph;
}

QPointF pixel(QCPAxisRect *rect, QPointF at)
{
    return {rect->axis(QCPAxis::atBottom)->coordToPixel(at.x()), rect->axis(QCPAxis::atLeft)->coordToPixel(at.y())};
}

// The least distance from `box` to the segment a..b, read from points every tenth of a unit.
double toBox(const QRectF &box, QPointF a, QPointF b)
{
    double least = 1e9;
    const int steps = std::max(1, int(std::ceil(QLineF(a, b).length() * 10.0)));
    for (int i = 0; i <= steps; ++i) {
        const QPointF p = a + (b - a) * (double(i) / steps);
        const double dx = std::max({box.left() - p.x(), 0.0, p.x() - box.right()});
        const double dy = std::max({box.top() - p.y(), 0.0, p.y() - box.bottom()});
        least = std::min(least, std::hypot(dx, dy));
    }
    return least;
}

QFont labelFont()
{
    QFont font;
    font.setPixelSize(11);
    return font;
}

} // namespace

class TestDirectLabelRules : public QObject
{
    Q_OBJECT

private slots:
    void aLabelKeepsOffAThickLinesInk();
    void aGroundOnlyWhereNoPlaceBesideIsFree();
    void aLabelStandsWhereItsCurveIsSeen();
};

// A line 6 units wide: its label stands beside it off its ink (half its pen from its centre), not a
// gap off its centre, on the ink (why-sqrt-d's "σ 1, s 1" on its 4-unit line); and a label of
// another curve keeps off that ink too.
void TestDirectLabelRules::aLabelKeepsOffAThickLinesInk()
{
    QCustomPlot plot;
    QCPAxisRect *rect = PlainPlot::make(plot);
    QCPGraph *thick = line(plot, {0.0, 100.0}, {300.0, 100.0}, 6.0, Qt::darkGreen);
    // A thin line 14 units under it, its label only room between the two.
    QCPGraph *thin = line(plot, {0.0, 70.0}, {300.0, 70.0}, 1.0, Qt::darkBlue);
    QList<DirectLabels::Wanted> wanted {DirectLabels::Wanted::of(thick, {u"thick"_s}),
                                        DirectLabels::Wanted::of(thin, {u"thin"_s})};
    QVERIFY(DirectLabels::placeAll(wanted, labelFont(), {}));
    const QPointF a = pixel(rect, {0.0, 100.0}), b = pixel(rect, {300.0, 100.0});
    for (const DirectLabels::Wanted &label : wanted) {
        QVERIFY(label.at && !label.at->over);
        // Half the pen and half a unit: the label reads beside the ink, not on it.
        QVERIFY2(
            toBox(label.at->box, a, b) >= 3.0 + 0.5 - 0.01,
            qPrintable(u"%1 %2 units off the thick line's centre"_s.arg(label.text).arg(toBox(label.at->box, a, b))));
    }
}

// A line with free room beside it is labelled beside it, never over it on a white ground, even
// where a ground is allowed; a line shielded on both sides by lines 10 units off (room for no label
// beside it, but for one over it) is labelled over it on a ground only with one allowed (buckets' "T5 key after" stood
// on a ground with room beside its curve elsewhere).
void TestDirectLabelRules::aGroundOnlyWhereNoPlaceBesideIsFree()
{
    QCustomPlot plot;
    QCPAxisRect *rect = PlainPlot::make(plot);
    QCPGraph *free = line(plot, {0.0, 150.0}, {300.0, 150.0}, 2.0, Qt::darkBlue);
    QList<DirectLabels::Wanted> beside {DirectLabels::Wanted::of(free, {u"free"_s})};
    QVERIFY(DirectLabels::placeAll(beside, labelFont(), {}, nullptr, false, true));
    QVERIFY(!beside.constFirst().at->over);
    QVERIFY(toBox(beside.constFirst().at->box, pixel(rect, {0.0, 150.0}), pixel(rect, {300.0, 150.0})) >= 1.0);

    QCustomPlot crowded;
    PlainPlot::make(crowded);
    QCPGraph *shielded = line(crowded, {0.0, 100.0}, {300.0, 100.0}, 1.0, Qt::darkBlue);
    line(crowded, {0.0, 110.0}, {300.0, 110.0}, 1.0, Qt::darkRed);
    line(crowded, {0.0, 90.0}, {300.0, 90.0}, 1.0, Qt::darkGreen);
    QList<DirectLabels::Wanted> none {DirectLabels::Wanted::of(shielded, {u"shielded"_s})};
    QVERIFY(!DirectLabels::placeAll(none, labelFont(), {}));
    QList<DirectLabels::Wanted> grounded {DirectLabels::Wanted::of(shielded, {u"shielded"_s})};
    QVERIFY(DirectLabels::placeAll(grounded, labelFont(), {}, nullptr, false, true));
    QVERIFY(grounded.constFirst().at->over);
}

// A curve drawn under another, solid and as wide, along its right part is seen on its left part
// alone: its label stands beside that part (buckets' "T5 causal" stood where "T5 key before"
// covered it), and the curve drawn over is labelled where it is drawn.
void TestDirectLabelRules::aLabelStandsWhereItsCurveIsSeen()
{
    QCustomPlot plot;
    QCPAxisRect *rect = PlainPlot::make(plot);
    QCPGraph *under = plot.addGraph();
    under->setData(QList<double> {0.0, 100.0, 300.0}, QList<double> {40.0, 100.0, 100.0}, true);
    under->setPen(QPen(Qt::darkGreen, 2.0));
    QCPGraph *over = line(plot, {100.0, 100.0}, {300.0, 100.0}, 2.0, Qt::darkRed);
    QList<DirectLabels::Wanted> wanted {DirectLabels::Wanted::of(under, {u"under"_s})};
    QVERIFY(DirectLabels::placeAll(wanted, labelFont(), {}));
    const QRectF box = wanted.constFirst().at->box;
    // Beside its seen part, from (0, 40) to (100, 100): within two gaps of it, not at the covered end.
    const double seen = toBox(box, pixel(rect, {0.0, 40.0}), pixel(rect, {100.0, 100.0}));
    QVERIFY2(seen <= 2.0 * DirectLabels::kGap + 1.0, qPrintable(u"%1 units off its seen part"_s.arg(seen)));
    QVERIFY2(box.center().x() < pixel(rect, {100.0, 100.0}).x(), qPrintable(u"centred at %1"_s.arg(box.center().x())));
    QList<DirectLabels::Wanted> drawn {DirectLabels::Wanted::of(over, {u"over"_s})};
    QVERIFY(DirectLabels::placeAll(drawn, labelFont(), {}));
}

POSENC_TEST_MAIN(TestDirectLabelRules)
} // namespace tst_directlabelrules
#include "tst_directlabelrules.moc"
