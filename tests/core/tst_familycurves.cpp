// The families figure's oscillating sums (docs/ARCHITECTURE.md, Exact at any size): each pixel's
// least and most of sum_i cos(k w_i) over its offsets, every offset within the budget, else an
// even sample of each pixel's offsets and its last one, against the sums written out here in
// float64 term by term; and the vectorised turns they are made of (RotationSimd), the same bits on
// every SIMD target as their documented order written out here.
#include "SimdTargetRuns.h"
#include "support/TestMain.h"

#include "core/FamilyCurves.h"
#include "core/RotationSimd.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace tst_familycurves {
using namespace posenc;

namespace {

// The paper's frequencies of a d-column table: w_i = 10000^(-2i/d).
std::vector<double> frequencies(int d)
{
    std::vector<double> w(static_cast<std::size_t>(d / 2));
    for (std::size_t i = 0; i < w.size(); ++i)
        w[i] = std::pow(10000.0, -2.0 * double(i) / double(d));
    return w;
}

double cosineSum(std::int64_t k, const std::vector<double> &w)
{
    double sum = 0.0;
    for (const double frequency : w)
        sum += std::cos(double(k) * frequency);
    return sum;
}

} // namespace

class TestFamilyCurves : public QObject
{
    Q_OBJECT

private slots:
    void eachPixelSpansItsOffsets_data();
    void eachPixelSpansItsOffsets();
    void theQuerysPixelReachesItsExactValue_data();
    void theQuerysPixelReachesItsExactValue();
    void turnsAreTheSameBitsOnEveryTarget_data();
    void turnsAreTheSameBitsOnEveryTarget();
    void curvesAreTheSameBitsOnEveryTarget();
};

void TestFamilyCurves::eachPixelSpansItsOffsets_data()
{
    QTest::addColumn<int>("d");
    QTest::addColumn<std::int64_t>("maxLen");
    QTest::addColumn<int>("pixels");
    QTest::addColumn<std::int64_t>("budget");
    QTest::addColumn<bool>("dyadic"); // frequencies 2^-1 .. 2^-(d/2) rather than the paper's
    // Every offset: 4097 offsets x 32 frequencies, turned in chunks from anchors.
    QTest::newRow("every offset") << 64 << std::int64_t(4097) << 300 << (std::int64_t(1) << 20) << false;
    // A sample a pixel: 65536 offsets x 512 frequencies past a preview's budget, 3 samples and
    // the last offset a pixel; 511 frequencies leave seven after the last whole eight of the
    // vectors' partial sums (RotationSimd), added one after another.
    QTest::newRow("sampled") << 1024 << std::int64_t(65536) << 600 << (std::int64_t(1) << 20) << false;
    QTest::newRow("sampled, odd pairs") << 1022 << std::int64_t(65536) << 577 << (std::int64_t(1) << 20) << false;
    // 2^24 offsets x 4 frequencies over 100 pixels: 2621 samples a pixel at a stride of 64, anchored
    // again every 256 samples within each pixel at its own offset, a + t stride. Dyadic frequencies,
    // so that k w is exact at offsets of millions (the paper's 0.1 rounds k w by 1e-10 there, which
    // the sums and the float64 reference round differently).
    QTest::newRow("sampled, anchored within pixels")
        << 8 << (std::int64_t(1) << 24) << 100 << (std::int64_t(1) << 20) << true;
}

// Each pixel's band is the least and most of the sums at the offsets it took: in full detail every
// offset, sampled the first of each pixel at the stride the budget allows and its last offset.
void TestFamilyCurves::eachPixelSpansItsOffsets()
{
    QFETCH(int, d);
    QFETCH(std::int64_t, maxLen);
    QFETCH(int, pixels);
    QFETCH(std::int64_t, budget);
    QFETCH(bool, dyadic);
    std::vector<double> w = frequencies(d);
    if (dyadic)
        for (std::size_t i = 0; i < w.size(); ++i)
            w[i] = std::ldexp(1.0, -int(i) - 1);
    const std::int64_t query = maxLen / 2;
    const OffsetPixels offsets = OffsetPixels::of(query, maxLen, double(-query), double(maxLen - 1 - query), pixels);
    std::int64_t sampled = -1;
    const auto curve = FamilyCurves::cosineSum(offsets, w, 1.0, 0.0, {}, budget, &sampled, nullptr);
    QVERIFY(curve);
    QCOMPARE(curve->lo.size(), qsizetype(offsets.starts.size()));
    const bool every = offsets.count() * std::int64_t(w.size()) <= budget;
    QCOMPARE(sampled == 0, every);
    for (std::size_t g = 0; g < offsets.starts.size(); ++g) {
        const std::int64_t a = offsets.starts[g], b = offsets.end(g);
        std::vector<std::int64_t> taken;
        if (every) {
            for (std::int64_t k = a; k <= b; ++k)
                taken.push_back(k);
        } else {
            const std::int64_t count = b - a + 1, n = std::min(count, sampled);
            const std::int64_t stride = n > 1 ? std::max<std::int64_t>(1, (count - 1) / (n - 1)) : 1;
            for (std::int64_t t = 0; t < n; ++t)
                taken.push_back(a + t * stride);
            taken.push_back(b);
            // The query's offset, every cosine 1, whatever the stride.
            if (a <= 0 && b >= 0)
                taken.push_back(0);
        }
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const std::int64_t k : taken) {
            lo = std::min(lo, cosineSum(k, w));
            hi = std::max(hi, cosineSum(k, w));
        }
        // The rotations drift by a few ulps of each term between anchors.
        const double tolerance = 1e-11 * double(w.size());
        const auto at = static_cast<qsizetype>(g);
        QVERIFY2(std::abs(curve->lo[at] - lo) <= tolerance && std::abs(curve->hi[at] - hi) <= tolerance,
                 qPrintable(QStringLiteral("pixel %1: [%2, %3], expected [%4, %5]")
                                .arg(g)
                                .arg(curve->lo[at], 0, 'g', 17)
                                .arg(curve->hi[at], 0, 'g', 17)
                                .arg(lo, 0, 'g', 17)
                                .arg(hi, 0, 'g', 17)));
    }
}

void TestFamilyCurves::theQuerysPixelReachesItsExactValue_data()
{
    QTest::addColumn<int>("d");
    QTest::addColumn<std::int64_t>("maxLen");
    QTest::addColumn<int>("pixels");
    QTest::addColumn<std::int64_t>("query");
    // The families lesson's Llama 3.1 8B (d 4096, its middle query) on a 1920 window's panel, and
    // gpt-oss-20b's width 2880: 6 to 8 samples a pixel strode past offset 0.
    QTest::newRow("d 4096, 1733 pixels") << 4096 << std::int64_t(131072) << 1733 << std::int64_t(65535);
    QTest::newRow("d 2880, 1500 pixels") << 2880 << std::int64_t(131072) << 1500 << std::int64_t(40001);
    QTest::newRow("d 512, 333 pixels, query near the end") << 512 << (std::int64_t(1) << 20) << 333
                                                            << std::int64_t(1048000);
}

// The band of the pixel that holds the query's offset reaches the sum there, d/2 (every cosine 1),
// whatever the sample's stride: the lesson's text says PE·PE = 2048 at the query, the figure
// topped at about 1500.
void TestFamilyCurves::theQuerysPixelReachesItsExactValue()
{
    QFETCH(int, d);
    QFETCH(std::int64_t, maxLen);
    QFETCH(int, pixels);
    QFETCH(std::int64_t, query);
    const std::vector<double> w = frequencies(d);
    const OffsetPixels offsets = OffsetPixels::of(query, maxLen, double(-query) - 0.5, double(maxLen - query) - 0.5,
                                                  pixels);
    std::int64_t sampled = 0;
    const auto curve = FamilyCurves::cosineSum(offsets, w, 1.0, 0.0, {}, FamilyCurves::kMaxEvaluations, &sampled,
                                               nullptr);
    QVERIFY(curve);
    QVERIFY2(sampled > 0, "the sums were to be sampled");
    const auto g = std::upper_bound(offsets.starts.begin(), offsets.starts.end(), std::int64_t(0))
        - offsets.starts.begin() - 1;
    QVERIFY(offsets.starts[std::size_t(g)] <= 0 && offsets.end(std::size_t(g)) >= 0);
    const double exact = cosineSum(0, w);
    QCOMPARE(exact, double(d / 2));
    QVERIFY2(std::abs(curve->hi[g] - exact) <= 1e-9 * exact,
             qPrintable(QStringLiteral("the query's pixel tops at %1, PE·PE there is %2")
                            .arg(curve->hi[g], 0, 'g', 17)
                            .arg(exact, 0, 'g', 17)));
}

void TestFamilyCurves::turnsAreTheSameBitsOnEveryTarget_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("count");
    // Frequencies around every vector width and the eight partial sums, a few samples and many.
    for (const int n : {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 64, 383, 384, 512})
        for (const int count : {1, 4, 300})
            QTest::addRow("%d frequencies, %d samples", n, count) << n << count;
}

// RotationSimd::turnAndSum and turn against their order written out in scalar float64: frequency f
// into partial f mod 8 within the whole eights, the partials paired, the rest one after another.
void TestFamilyCurves::turnsAreTheSameBitsOnEveryTarget()
{
    QFETCH(int, n);
    QFETCH(int, count);
    QVERIFY(testing::nameTheTargets());
    const std::vector<double> w = frequencies(2 * n);
    std::vector<double> re0(w.size()), im0(w.size()), c(w.size()), s(w.size());
    for (std::size_t f = 0; f < w.size(); ++f) {
        re0[f] = std::cos(37.0 * w[f]);
        im0[f] = std::sin(37.0 * w[f]);
        c[f] = std::cos(3.0 * w[f]);
        s[f] = std::sin(3.0 * w[f]);
    }
    std::vector<double> re = re0, im = im0, expected(std::size_t(count), 0.25);
    const std::size_t whole = w.size() / 8 * 8;
    for (int t = 0; t < count; ++t) {
        double partial[8] = {};
        for (std::size_t f = 0; f < whole; ++f)
            partial[f % 8] += re[f];
        double sum = ((partial[0] + partial[1]) + (partial[2] + partial[3]))
            + ((partial[4] + partial[5]) + (partial[6] + partial[7]));
        for (std::size_t f = whole; f < w.size(); ++f)
            sum += re[f];
        expected[std::size_t(t)] += sum;
        for (std::size_t f = 0; f < w.size(); ++f) {
            const double next = re[f] * c[f] - im[f] * s[f];
            im[f] = re[f] * s[f] + im[f] * c[f];
            re[f] = next;
        }
    }
    // One more turn of the last, as RotationSimd::turn turns.
    std::vector<double> turnedRe = re, turnedIm = im;
    for (std::size_t f = 0; f < w.size(); ++f) {
        const double next = turnedRe[f] * c[f] - turnedIm[f] * s[f];
        turnedIm[f] = turnedRe[f] * s[f] + turnedIm[f] * c[f];
        turnedRe[f] = next;
    }
    const auto bits = [](const std::vector<double> &a, const std::vector<double> &b) {
        return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
    };
    const auto results = testing::onEveryTarget<std::vector<std::vector<double>>>([&] {
        std::vector<double> r = re0, i = im0, sums(std::size_t(count), 0.25);
        RotationSimd::turnAndSum(r.data(), i.data(), c.data(), s.data(), w.size(), count, sums.data());
        std::vector<double> r2 = r, i2 = i;
        RotationSimd::turn(r2.data(), i2.data(), c.data(), s.data(), w.size());
        return std::vector<std::vector<double>> {sums, r, i, r2, i2};
    });
    for (std::size_t t = 0; t < results.size(); ++t) {
        const auto &got = results[t];
        QVERIFY2(bits(got[0], expected), qPrintable(testing::targetName(t) + QStringLiteral(": the sums")));
        QVERIFY2(bits(got[1], re) && bits(got[2], im),
                 qPrintable(testing::targetName(t) + QStringLiteral(": the turns")));
        QVERIFY2(bits(got[3], turnedRe) && bits(got[4], turnedIm),
                 qPrintable(testing::targetName(t) + QStringLiteral(": turn")));
    }
}

// A whole curve, every offset and sampled, is the same on every target.
void TestFamilyCurves::curvesAreTheSameBitsOnEveryTarget()
{
    const std::vector<double> w = frequencies(768);
    for (const std::int64_t budget : {std::int64_t(1) << 30, FamilyCurves::kPreviewEvaluations}) {
        const OffsetPixels offsets = OffsetPixels::of(30000, 65536, -30000.5, 35535.5, 600);
        const auto curves = testing::onEveryTarget<FamilyCurve>([&] {
            std::int64_t sampled = -1;
            auto curve = FamilyCurves::cosineSum(offsets, w, 1.0, 0.0, {}, budget, &sampled, nullptr);
            return curve.value_or(FamilyCurve {});
        });
        QVERIFY(!curves.front().lo.isEmpty());
        for (std::size_t t = 1; t < curves.size(); ++t) {
            const auto same = [](const QList<double> &a, const QList<double> &b) {
                return a.size() == b.size()
                    && std::memcmp(a.constData(), b.constData(), std::size_t(a.size()) * sizeof(double)) == 0;
            };
            QVERIFY2(same(curves[t].lo, curves[0].lo) && same(curves[t].hi, curves[0].hi),
                     qPrintable(testing::targetName(t)));
        }
    }
}

POSENC_TEST_GUILESS_MAIN(TestFamilyCurves)
} // namespace tst_familycurves
#include "tst_familycurves.moc"
