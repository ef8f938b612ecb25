#include "core/DiagonalRuns.h"
#include "core/deberta/DebertaBuckets.h"
#include "core/t5/T5Buckets.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

namespace tst_diagonalruns {
using namespace posenc;

namespace {

// The stretches of equal values of `f` over [first, last], each value read once, in order.
std::vector<DiagonalRun> scanned(std::int64_t first, std::int64_t last, const std::function<double(std::int64_t)> &f)
{
    std::vector<DiagonalRun> list;
    for (std::int64_t k = first; k <= last; ++k) {
        const double value = f(k);
        if (!list.empty() && list.back().value == value)
            list.back().last = k;
        else
            list.push_back({k, k, value});
    }
    return list;
}

} // namespace

// DiagonalRuns::runs finds a staircase's runs by galloping and bisection, trying first the length of
// the run before; whatever its search, the runs are those a scan of every diagonal finds.
class TestDiagonalRuns : public QObject
{
    Q_OBJECT

private slots:
    void theRunsAreThoseOfAScan_data();
    void theRunsAreThoseOfAScan();
};

void TestDiagonalRuns::theRunsAreThoseOfAScan_data()
{
    QTest::addColumn<std::function<double(std::int64_t)>>("f");
    QTest::addColumn<std::int64_t>("first");
    QTest::addColumn<std::int64_t>("last");
    using F = std::function<double(std::int64_t)>;
    // DeBERTa's make_log_bucket_position (runs growing past max_position, uncapped), T5's buckets
    // (clamped: one long last run), runs that grow and shrink by turns, one run, one diagonal.
    QTest::newRow("DeBERTa 256, 512") << F([](std::int64_t k) { return double(DebertaBuckets::bucket(k, 256, 512)); })
                                      << std::int64_t(-20000) << std::int64_t(20000);
    QTest::newRow("DeBERTa 8, 24") << F([](std::int64_t k) { return double(DebertaBuckets::bucket(k, 8, 24)); })
                                   << std::int64_t(-5000) << std::int64_t(3000);
    QTest::newRow("T5 32, 128 both ways")
        << F([](std::int64_t k) { return double(T5Buckets::bucket(k, 32, 128, true)); }) << std::int64_t(-3000)
        << std::int64_t(3000);
    QTest::newRow("T5 48, 120 causal") << F([](std::int64_t k) { return double(T5Buckets::bucket(k, 48, 120, false)); })
                                       << std::int64_t(-4000) << std::int64_t(50);
    QTest::newRow("lengths by turns") << F([](std::int64_t k) {
        // Run lengths 1, 9, 2, 8, 3, 7, ... on each side of 0: the guess of the run before
        // is too long, then too short.
        const std::int64_t a = k < 0 ? -k : k;
        std::int64_t step = 0, end = 0;
        while (end < a) {
            end += step % 2 == 0 ? 1 + step / 2 : 9 - step / 2 % 8;
            ++step;
        }
        return k < 0 ? -double(step) : double(step);
    }) << std::int64_t(-700) << std::int64_t(900);
    QTest::newRow("sqrt") << F([](std::int64_t k) { return std::floor(std::sqrt(double(k < 0 ? -k : k))); })
                          << std::int64_t(-9999) << std::int64_t(12345);
    QTest::newRow("one run") << F([](std::int64_t) { return 3.0; }) << std::int64_t(-50) << std::int64_t(70);
    QTest::newRow("one diagonal") << F([](std::int64_t k) { return double(k); }) << std::int64_t(5) << std::int64_t(5);
}

void TestDiagonalRuns::theRunsAreThoseOfAScan()
{
    QFETCH(std::function<double(std::int64_t)>, f);
    QFETCH(std::int64_t, first);
    QFETCH(std::int64_t, last);
    const std::vector<DiagonalRun> found = DiagonalRuns::runs(first, last, f);
    const std::vector<DiagonalRun> expected = scanned(first, last, f);
    QCOMPARE(found.size(), expected.size());
    for (std::size_t i = 0; i < found.size(); ++i)
        QVERIFY2(found[i] == expected[i],
                 qPrintable(QStringLiteral("run %1: %2..%3 = %4, scanned %5..%6 = %7")
                                .arg(i)
                                .arg(found[i].first)
                                .arg(found[i].last)
                                .arg(found[i].value)
                                .arg(expected[i].first)
                                .arg(expected[i].last)
                                .arg(expected[i].value)));
}

POSENC_TEST_APPLESS_MAIN(TestDiagonalRuns)
} // namespace tst_diagonalruns
#include "tst_diagonalruns.moc"
