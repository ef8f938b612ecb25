// ColumnStatistics: the PE's per-column mean, std and RMS over every position at L = 2^20
// against geometric series summed here in long double (and a few columns summed term by
// term); s*E's against float64 statistics of the Engine's own table; independent of threads.

#include "EngineTable.h"
#include "Reference.h"
#include "support/TestMain.h"

#include "core/ColumnStatistics.h"

#include <QTest>

#include <atomic>
#include <cmath>
#include <complex>

namespace tst_columnstatistics {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// Mean and mean square of sin / cos(p w) over p < L: sum z^p = (1 - z^L) / (1 - z).
std::pair<double, double> sinusoidMoments(double w, std::int64_t L, bool isCos)
{
    using C = std::complex<long double>;
    const auto geometric = [L](long double angle) {
        const C z = std::polar(1.0L, angle);
        return (C(1.0L) - std::pow(z, static_cast<long double>(L))) / (C(1.0L) - z) / static_cast<long double>(L);
    };
    const C first = geometric(w);
    const long double doubled = geometric(2.0L * w).real();
    const long double mean = isCos ? first.real() : first.imag();
    const long double square = isCos ? 0.5L * (1.0L + doubled) : 0.5L * (1.0L - doubled);
    return {static_cast<double>(mean), static_cast<double>(square)};
}

Params sized(std::int64_t d, std::int64_t L)
{
    Params p;
    p.dModel = d;
    p.maxLen = L;
    p.seed = 11;
    return p;
}

} // namespace

class TestColumnStatistics : public QObject
{
    Q_OBJECT

private slots:
    void peMatchesTheClosedFormsAtLargeL_data();
    void peMatchesTheClosedFormsAtLargeL();
    void peMatchesDirectSumsAtLargeL();
    void tablePartsMatchDirectStatistics_data();
    void tablePartsMatchDirectStatistics();
    void sameBitsWhateverTheThreads();
    void estimateSaysSoAndKeepsThePeExact();
    void cancelledGivesNothing();
};

void TestColumnStatistics::peMatchesTheClosedFormsAtLargeL_data()
{
    QTest::addColumn<Params>("params");
    Params interleaved = sized(64, std::int64_t(1) << 20);
    Params split = interleaved;
    split.dModel = 75;
    split.sinusoidal.layout = Layout::Split;
    Params concat = interleaved;
    concat.compose = Compose::Concat;
    concat.peDims = 24;
    QTest::newRow("interleaved d 64") << interleaved;
    QTest::newRow("split, odd d 75") << split;
    QTest::newRow("concat, 24 PE columns") << concat;
}

void TestColumnStatistics::peMatchesTheClosedFormsAtLargeL()
{
    QFETCH(Params, params);
    const Engine engine(params);
    const auto stats = ColumnStatistics::compute(engine);
    QVERIFY(stats);
    QVERIFY(stats->isExact());
    QCOMPARE(stats->rows, params.maxLen);
    const std::int64_t k = params.peColumns();
    const std::int64_t offset = params.dModel - k; // the PE columns come last in concat
    for (std::int64_t j = 0; j < params.dModel; ++j) {
        double mean = 0.0, square = 0.0;
        if (j >= offset) {
            const reference::Role role = reference::role(j - offset, k, params.sinusoidal.layout);
            std::tie(mean, square)
                = sinusoidMoments(reference::omega(role.pair, k, params.sinusoidal.base), params.maxLen, role.isCos);
        }
        const double std = std::sqrt(std::max(0.0, square - mean * mean));
        QVERIFY2(std::abs(stats->peMean[j] - mean) < 1e-6 && std::abs(stats->peStd[j] - std) < 1e-6
                     && std::abs(stats->peRms[j] - std::sqrt(square)) < 1e-6,
                 qPrintable(u"column %1: %2 %3 %4 vs %5 %6 %7"_s.arg(j)
                                .arg(stats->peMean[j])
                                .arg(stats->peStd[j])
                                .arg(stats->peRms[j])
                                .arg(mean)
                                .arg(std)
                                .arg(std::sqrt(square))));
    }
}

void TestColumnStatistics::peMatchesDirectSumsAtLargeL()
{
    // The last columns, slow and near-constant (the offsets the Magnitudes figure shows), and
    // the fastest, summed term by term over all 2^20 positions.
    const Params p = sized(64, std::int64_t(1) << 20);
    const Engine engine(p);
    const auto stats = ColumnStatistics::compute(engine);
    QVERIFY(stats);
    for (const std::int64_t j : {0, 1, 62, 63}) {
        long double sum = 0.0L, squares = 0.0L;
        for (std::int64_t pos = 0; pos < p.maxLen; ++pos) {
            const long double v = reference::preciseValue(pos, j, 64, p.sinusoidal.base, p.sinusoidal.layout);
            sum += v;
            squares += v * v;
        }
        const double mean = static_cast<double>(sum / p.maxLen);
        const double rms = std::sqrt(static_cast<double>(squares / p.maxLen));
        QVERIFY2(std::abs(stats->peMean[j] - mean) < 1e-9 && std::abs(stats->peRms[j] - rms) < 1e-9,
                 qPrintable(u"column %1: %2 vs %3, %4 vs %5"_s.arg(j)
                                .arg(stats->peMean[j])
                                .arg(mean)
                                .arg(stats->peRms[j])
                                .arg(rms)));
    }
}

void TestColumnStatistics::tablePartsMatchDirectStatistics_data()
{
    QTest::addColumn<Params>("params");
    Params sum = sized(96, 3000);
    Params concat = sum;
    concat.compose = Compose::Concat;
    concat.peDims = 40;
    concat.init = InitKind::ScaledNormal;
    Params float32 = sum;
    float32.dModel = 75;
    float32.sinusoidal.layout = Layout::Split;
    float32.sinusoidal.angles = Angles::Float32;
    Params loaded = sized(20, 500);
    RowMatrixXf offset = RowMatrixXf::Constant(500, 20, 3.0f);
    offset.col(4).setLinSpaced(500, -1.0f, 1.0f); // a constant offset and a ramp
    loaded.embeddings = std::make_shared<const EmbeddingMatrix>(EmbeddingMatrix {offset, {}, {}});
    QTest::newRow("sum d 96") << sum;
    QTest::newRow("concat") << concat;
    QTest::newRow("float32 angles, split, odd d") << float32;
    QTest::newRow("loaded matrix with offsets") << loaded;
}

void TestColumnStatistics::tablePartsMatchDirectStatistics()
{
    QFETCH(Params, params);
    const Engine engine(params);
    const auto stats = ColumnStatistics::compute(engine, {2, nullptr});
    QVERIFY(stats);
    const Block all {0, params.maxLen, 0, params.dModel};
    RowMatrixXf e(all.rows, all.cols), q(all.rows, all.cols);
    engine.inputParts(all, e, q); // s*E and PE in X's columns, zero where a part is absent
    for (std::int64_t j = 0; j < params.dModel; ++j) {
        for (const auto &[part, mean, std, rms] :
             {std::tuple {&e, stats->embeddingMean[j], stats->embeddingStd[j], stats->embeddingRms[j]},
              std::tuple {&q, stats->peMean[j], stats->peStd[j], stats->peRms[j]}}) {
            const Eigen::ArrayXd column = part->col(j).cast<double>().array();
            const double m = column.mean();
            const double s = std::sqrt((column - m).square().mean());
            const double r = std::sqrt(column.square().mean());
            const double scale = std::max(1.0, r);
            QVERIFY2(std::abs(mean - m) < 1e-7 * scale && std::abs(std - s) < 1e-7 * scale
                         && std::abs(rms - r) < 1e-7 * scale,
                     qPrintable(
                         u"column %1: %2 %3 %4 vs %5 %6 %7"_s.arg(j).arg(mean).arg(std).arg(rms).arg(m).arg(s).arg(r)));
        }
    }
}

void TestColumnStatistics::sameBitsWhateverTheThreads()
{
    const Engine engine(sized(256, 20000));
    const auto serial = ColumnStatistics::compute(engine, {1, nullptr});
    QVERIFY(serial);
    for (const int threads : {2, 3, 0}) {
        const auto threaded = ColumnStatistics::compute(engine, {threads, nullptr});
        QVERIFY(threaded);
        QVERIFY((threaded->embeddingMean == serial->embeddingMean).all());
        QVERIFY((threaded->embeddingStd == serial->embeddingStd).all());
    }
}

void TestColumnStatistics::estimateSaysSoAndKeepsThePeExact()
{
    const Engine engine(sized(128, 100000));
    const auto estimate = ColumnStatistics::estimate(engine, 2000);
    const auto exact = ColumnStatistics::compute(engine);
    QVERIFY(estimate && exact);
    QVERIFY(!estimate->isExact());
    QVERIFY(estimate->rows >= 1000 && estimate->rows <= 4000);
    QVERIFY((estimate->peMean == exact->peMean).all());
    // s*E has sigma s = sqrt(128) per cell: the estimate's std within a few standard errors.
    for (std::int64_t j = 0; j < 128; ++j)
        QVERIFY(std::abs(estimate->embeddingStd[j] / std::sqrt(128.0) - 1.0) < 0.15);
}

void TestColumnStatistics::cancelledGivesNothing()
{
    const Engine engine(sized(128, 100000));
    const std::atomic<bool> cancel {true};
    QVERIFY(!ColumnStatistics::compute(engine, {0, &cancel}));
}

POSENC_TEST_MAIN(TestColumnStatistics)
} // namespace tst_columnstatistics
#include "tst_columnstatistics.moc"
