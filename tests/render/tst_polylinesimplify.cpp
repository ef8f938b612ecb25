// The lines a graph draws on screen keep only the vertices that a tenth of a pixel does not
// explain: every vertex left out lies within the tolerance of the segment drawn in its place, the
// ends and the breaks (NaN) stay, and a curve sampled a point a pixel loses most of its vertices.
#include "render/PolylineSimplify.h"
#include "support/TestMain.h"

#include <QRandomGenerator>
#include <QTest>

#include <cmath>
#include <limits>

namespace tst_polylinesimplify {
using namespace posenc;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The distance of `p` from the segment a-b, in double.
double distanceToSegment(QPointF p, QPointF a, QPointF b)
{
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    const double length = dx * dx + dy * dy;
    double t = length > 0.0 ? ((p.x() - a.x()) * dx + (p.y() - a.y()) * dy) / length : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(p.x() - (a.x() + t * dx), p.y() - (a.y() + t * dy));
}

bool finite(QPointF p)
{
    return std::isfinite(p.x()) && std::isfinite(p.y());
}

// Every vertex of `points` is kept, or lies within `tolerance` of the kept segment between the
// kept vertices around it; the kept vertices are a subsequence, breaks included.
void checkWithin(const QList<QPointF> &points, const QList<QPointF> &kept, double tolerance)
{
    qsizetype k = 0;
    qsizetype previousKept = -1;
    for (qsizetype i = 0; i < points.size(); ++i) {
        const bool isKept = k < kept.size() && (points[i] == kept[k] || (!finite(points[i]) && !finite(kept[k])));
        if (isKept) {
            previousKept = i;
            ++k;
            continue;
        }
        QVERIFY2(finite(points[i]), "a break was left out");
        QVERIFY2(previousKept >= 0 && k < kept.size(), "an end was left out");
        QVERIFY2(finite(points[previousKept]) && finite(kept[k]), "a segment was drawn across a break");
        const double d = distanceToSegment(points[i], points[previousKept], kept[k]);
        QVERIFY2(d <= tolerance * (1 + 1e-12), qPrintable(QStringLiteral("vertex %1 is %2 px away").arg(i).arg(d)));
    }
    QCOMPARE(k, kept.size());
}

} // namespace

class TestPolylineSimplify : public QObject
{
    Q_OBJECT

private slots:
    void everyVertexLeftOutIsWithinTheTolerance_data();
    void everyVertexLeftOutIsWithinTheTolerance();
    void aStraightLineIsItsEnds();
    void aCurveAPointAPixelLosesMostOfItsVertices();
    void aTurnBackIsKept();
    void shortLinesAndNoToleranceAreKept();
};

void TestPolylineSimplify::everyVertexLeftOutIsWithinTheTolerance_data()
{
    QTest::addColumn<QList<QPointF>>("points");
    QTest::addColumn<double>("tolerance");
    QList<QPointF> sine, noise, broken, steps, vertical;
    QRandomGenerator random(62);
    for (int x = 0; x < 800; ++x) {
        sine.append({x * 0.5, 150.0 + 120.0 * std::sin(x * 0.02)});
        noise.append({double(x), 100.0 + 40.0 * random.generateDouble()});
        broken.append({double(x), x % 97 == 13 ? kNaN : 50.0 + 30.0 * std::cos(x * 0.05)});
        steps.append({double(x / 4 * 4 + (x % 2)), double((x / 2) % 7) * 10.0}); // lsStepLeft's corners
        vertical.append({300.0 + 1e-3 * x, x * 0.37}); // a line along one pixel column
    }
    QTest::newRow("a sine, two points a pixel") << sine << 0.1;
    QTest::newRow("noise, a point a pixel") << noise << 0.1;
    QTest::newRow("breaks") << broken << 0.1;
    QTest::newRow("steps") << steps << 0.1;
    QTest::newRow("vertical") << vertical << 0.1;
    QTest::newRow("a sine, half a pixel at a ratio of 2") << sine << 0.05;
    QTest::newRow("a sine, a coarse tolerance") << sine << 2.0;
}

void TestPolylineSimplify::everyVertexLeftOutIsWithinTheTolerance()
{
    QFETCH(QList<QPointF>, points);
    QFETCH(double, tolerance);
    const QList<QPointF> kept = simplifyPolyline(points, tolerance);
    QVERIFY(kept.size() <= points.size());
    QCOMPARE(kept.front(), points.front());
    QCOMPARE(kept.back(), points.back());
    checkWithin(points, kept, tolerance);
}

void TestPolylineSimplify::aStraightLineIsItsEnds()
{
    QList<QPointF> line;
    for (int i = 0; i <= 1000; ++i)
        line.append({i * 0.7, 20.0 + i * 0.3});
    QCOMPARE(simplifyPolyline(line, 0.1), (QList<QPointF> {line.front(), line.back()}));
}

// Why it is there: ALiBi's attention span draws 32 such curves, each a point a pixel, and every
// segment's stroke costs the same however short.
void TestPolylineSimplify::aCurveAPointAPixelLosesMostOfItsVertices()
{
    QList<QPointF> decay;
    for (int x = 0; x < 600; ++x)
        decay.append({double(x), 20.0 + 280.0 * std::exp(-x / 90.0)});
    const QList<QPointF> kept = simplifyPolyline(decay, 0.1);
    QVERIFY2(kept.size() * 5 < decay.size(), qPrintable(QString::number(kept.size())));
}

// A segment's distance, not its line's: a line that runs past its end and comes back stays.
void TestPolylineSimplify::aTurnBackIsKept()
{
    const QList<QPointF> spike {{0, 0}, {10, 0}, {40, 0}, {20, 0}, {30, 0}};
    const QList<QPointF> kept = simplifyPolyline(spike, 0.1);
    QVERIFY(kept.contains(QPointF(40, 0)));
    checkWithin(spike, kept, 0.1);
}

void TestPolylineSimplify::shortLinesAndNoToleranceAreKept()
{
    const QList<QPointF> two {{0, 0}, {1, 1}};
    QCOMPARE(simplifyPolyline(two, 0.1), two);
    const QList<QPointF> three {{0, 0}, {1, 0.01}, {2, 0}};
    QCOMPARE(simplifyPolyline(three, 0.0), three);
    QCOMPARE(simplifyPolyline(three, kNaN), three);
    QCOMPARE(simplifyPolyline({}, 0.1), QList<QPointF>());
}

POSENC_TEST_APPLESS_MAIN(TestPolylineSimplify)
} // namespace tst_polylinesimplify
#include "tst_polylinesimplify.moc"
