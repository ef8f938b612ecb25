// PeWindowMeans against the float64 definition written here: for each window, the sum over
// the block's rows of exp(-(n - centre)^2 / (2 sigma^2)) sin / cos(n w_i), the PE rows only in
// the numerator, divided by the sum of the weights; the values independent of how the
// windows and columns are asked for.

#include "Reference.h"
#include "support/TestMain.h"

#include "core/sinusoidal/PeWindowMeans.h"

#include <QTest>

#include <cmath>
#include <vector>

namespace tst_pewindowmeans {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

struct Case
{
    std::int64_t dModel = 20;
    Layout layout = Layout::Interleaved;
    std::int64_t first = 0;
    std::int64_t rows = 0;
    std::int64_t windows = 0;
    std::int64_t peLast = std::numeric_limits<std::int64_t>::max();
};

RowWindows windowsOf(const Case &c)
{
    const double spacing = double(c.rows) / double(c.windows);
    return {double(c.first) + 0.5 * spacing - 0.5,
            spacing,
            0.6 * spacing,
            c.windows,
            c.first,
            c.first + c.rows - 1,
            c.peLast};
}

// The mean of PE column j (or of its square) under window a, summed over every row within 9 sigma.
double referenceMean(const Case &c, const RowWindows &w, std::int64_t a, std::int64_t column,
                     Moment moment = Moment::Mean)
{
    const double centre = w.centre(a);
    const auto lo = std::max(c.first, static_cast<std::int64_t>(std::floor(centre - 9.0 * w.sigma)));
    const auto hi = std::min(c.first + c.rows - 1, static_cast<std::int64_t>(std::ceil(centre + 9.0 * w.sigma)));
    double sum = 0.0, total = 0.0;
    for (std::int64_t n = lo; n <= hi; ++n) {
        const double u = (double(n) - centre) / w.sigma;
        const double weight = std::exp(-0.5 * u * u);
        total += weight;
        if (n <= c.peLast) {
            const double value = reference::preciseValue(n, column, c.dModel, 10000.0, c.layout);
            sum += weight * (moment == Moment::Square ? value * value : value);
        }
    }
    return sum / total;
}

// The paper's sinusoid, base 10000, in `layout`.
SinusoidalParams paperIn(Layout layout)
{
    SinusoidalParams p;
    p.layout = layout;
    return p;
}

} // namespace

class TestPeWindowMeans : public QObject
{
    Q_OBJECT

private slots:
    void meansMatchTheWeightedSums_data();
    void meansMatchTheWeightedSums();
    void squaresMatchTheWeightedSums_data() { meansMatchTheWeightedSums_data(); }
    void squaresMatchTheWeightedSums();
    void fastPairsSquareToOneHalf();
    void valuesDoNotDependOnWhatIsAsked();
    void fastPairsVanishAwayFromTheEdges();
};

void TestPeWindowMeans::meansMatchTheWeightedSums_data()
{
    QTest::addColumn<std::int64_t>("dModel");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<std::int64_t>("first");
    QTest::addColumn<std::int64_t>("rows");
    QTest::addColumn<std::int64_t>("windows");
    QTest::addColumn<std::int64_t>("peLast");
    const std::int64_t none = std::numeric_limits<std::int64_t>::max();
    QTest::newRow("interleaved, whole table") << std::int64_t(20) << Layout::Interleaved << std::int64_t(0)
                                              << std::int64_t(24000) << std::int64_t(40) << none;
    QTest::newRow("split, odd d, rows near 2^24")
        << std::int64_t(21) << Layout::Split << (std::int64_t(1) << 24) - 30011 << std::int64_t(30011)
        << std::int64_t(37) << none;
    QTest::newRow("zoomed block, PE rows end inside") << std::int64_t(16) << Layout::Interleaved << std::int64_t(5003)
                                                      << std::int64_t(9001) << std::int64_t(23) << std::int64_t(9500);
    QTest::newRow("sigma 1.5 rows") << std::int64_t(12) << Layout::Split << std::int64_t(100) << std::int64_t(500)
                                    << std::int64_t(200) << none;
}

void TestPeWindowMeans::meansMatchTheWeightedSums()
{
    QFETCH(std::int64_t, dModel);
    QFETCH(Layout, layout);
    QFETCH(std::int64_t, first);
    QFETCH(std::int64_t, rows);
    QFETCH(std::int64_t, windows);
    QFETCH(std::int64_t, peLast);
    const Case c {dModel, layout, first, rows, windows, peLast};
    const RowWindows w = windowsOf(c);
    const PeWindowMeans means(dModel, paperIn(layout), w);
    double worst = 0.0;
    QString where;
    means.forEachWindow(0, windows, 0, dModel, [&](std::int64_t a, const double *values) {
        for (std::int64_t j = 0; j < dModel; ++j) {
            // Away from the edges the pairs below firstLivePair() are zeros by design: their
            // means are below float32 resolution.
            const bool skipped = !means.meetsEdge(a) && reference::role(j, dModel, layout).pair < means.firstLivePair();
            const double error = std::abs(values[j] - referenceMean(c, w, a, j)) - (skipped ? 1.0 / (1 << 24) : 0.0);
            if (error > worst) {
                worst = error;
                where = u"window %1, column %2"_s.arg(a).arg(j);
            }
        }
    });
    QVERIFY2(worst < 1e-10, qPrintable(u"%1 off at %2"_s.arg(worst).arg(where)));
}

void TestPeWindowMeans::squaresMatchTheWeightedSums()
{
    QFETCH(std::int64_t, dModel);
    QFETCH(Layout, layout);
    QFETCH(std::int64_t, first);
    QFETCH(std::int64_t, rows);
    QFETCH(std::int64_t, windows);
    QFETCH(std::int64_t, peLast);
    const Case c {dModel, layout, first, rows, windows, peLast};
    const RowWindows w = windowsOf(c);
    const PeWindowMeans squares(dModel, paperIn(layout), w, Moment::Square);
    double worst = 0.0;
    QString where;
    squares.forEachWindow(0, windows, 0, dModel, [&](std::int64_t a, const double *values) {
        for (std::int64_t j = 0; j < dModel; ++j) {
            // Pairs whose 2 w is dead away from the edges are a flat 1/2 by design.
            const bool skipped
                = !squares.meetsEdge(a) && reference::role(j, dModel, layout).pair < squares.firstLivePair();
            const double error
                = std::abs(values[j] - referenceMean(c, w, a, j, Moment::Square)) - (skipped ? 1.0 / (1 << 24) : 0.0);
            if (error > worst) {
                worst = error;
                where = u"window %1, column %2"_s.arg(a).arg(j);
            }
        }
    });
    // The sums at 2 w <= 2 carry aliases of exp(-sigma^2 (2 pi - 2 w)^2 / 2): 1.1e-9 each at the
    // least sigma, 1.5, and w = 1.
    QVERIFY2(worst < 5e-9, qPrintable(u"%1 off at %2"_s.arg(worst).arg(where)));
}

void TestPeWindowMeans::fastPairsSquareToOneHalf()
{
    // sin^2 + cos^2 = 1 in every window, and a pair too fast for the window squares to 1/2 in
    // both columns: the variance of a full swing, whatever its mean (0).
    const Case c {512, Layout::Interleaved, 0, 1 << 20, 256};
    const PeWindowMeans squares(c.dModel, paperIn(c.layout), windowsOf(c), Moment::Square);
    QVERIFY(squares.firstLivePair() > 0);
    squares.forEachWindow(0, 256, 0, c.dModel, [&](std::int64_t a, const double *v) {
        for (std::int64_t j = 0; j < c.dModel; j += 2)
            QVERIFY2(std::abs(v[j] + v[j + 1] - 1.0) < 1e-12, qPrintable(u"window %1 pair %2"_s.arg(a).arg(j / 2)));
        if (!squares.meetsEdge(a)) {
            QCOMPARE(v[0], 0.5);
            QCOMPARE(v[1], 0.5);
        }
    });
}

void TestPeWindowMeans::valuesDoNotDependOnWhatIsAsked()
{
    const Case c {64, Layout::Split, 0, 1 << 20, 256};
    const PeWindowMeans means(c.dModel, paperIn(c.layout), windowsOf(c));
    std::vector<double> whole(256 * 64), part(256 * 64);
    means.forEachWindow(0, 256, 0, 64,
                        [&](std::int64_t a, const double *v) { std::copy(v, v + 64, whole.begin() + a * 64); });
    // From an anchor on, a few columns at a time: the same bits.
    means.forEachWindow(128, 128, 20, 30,
                        [&](std::int64_t a, const double *v) { std::copy(v, v + 30, part.begin() + a * 64 + 20); });
    for (std::int64_t a = 128; a < 256; ++a)
        for (std::int64_t j = 20; j < 50; ++j)
            QCOMPARE(part[a * 64 + j], whole[a * 64 + j]);
}

void TestPeWindowMeans::fastPairsVanishAwayFromTheEdges()
{
    // sigma = 0.6 * 4096 rows: every pair whose exp(-sigma^2 w^2 / 2) < 2^-24 is a zero.
    const Case c {512, Layout::Interleaved, 0, 1 << 20, 256};
    const RowWindows w = windowsOf(c);
    const PeWindowMeans means(c.dModel, paperIn(c.layout), w);
    const std::int64_t live = means.firstLivePair();
    QVERIFY(live > 0 && live < 256);
    const double wLive = reference::omega(live, 512, 10000.0);
    QVERIFY(std::exp(-0.5 * w.sigma * w.sigma * wLive * wLive) >= 1.0 / (1 << 24));
    const double wDead = reference::omega(live - 1, 512, 10000.0);
    QVERIFY(std::exp(-0.5 * w.sigma * w.sigma * wDead * wDead) < 1.0 / (1 << 24));
    means.forEachWindow(10, 20, 0, 2 * live, [&](std::int64_t a, const double *v) {
        QVERIFY(!means.meetsEdge(a));
        for (std::int64_t j = 0; j < 2 * live; ++j)
            QCOMPARE(v[j], 0.0);
    });
}

POSENC_TEST_MAIN(TestPeWindowMeans)
} // namespace tst_pewindowmeans
#include "tst_pewindowmeans.moc"
