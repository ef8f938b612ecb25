// Embeddings: seeded N(0, sigma^2) cells checked by statistics (mean, variance, the normal
// CDF, tails, independence), reproducibility by seed, and blocks equal to the whole table
// (docs/ARCHITECTURE.md, The mathematics).

#include "FilledBlocks.h"
#include "Reference.h"
#include "support/TestMain.h"

#include "core/Embeddings.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace tst_embeddingsnormal {
using namespace Qt::StringLiterals;
using namespace posenc;
using reference::kTwoTo24;
using testing::fillBlock;

namespace {

// Standard normal CDF.
double phi(double x)
{
    return 0.5 * std::erfc(-x / std::numbers::sqrt2);
}

} // namespace

class TestEmbeddingsNormal : public QObject
{
    Q_OBJECT

private slots:
    void normalStatistics_data();
    void normalStatistics();
    void everyColumnAndRowIsNormal();
    void farPositionsAreNormal();
    void sameSeedSameMatrix();
    void otherSeedDiffers_data();
    void otherSeedDiffers();
    void blockEqualsWholeTable_data();
    void blockEqualsWholeTable();
    void sigmaScalesEveryCell();
};

void TestEmbeddingsNormal::normalStatistics_data()
{
    QTest::addColumn<InitKind>("init");
    QTest::addColumn<double>("customSigma");
    QTest::addColumn<double>("sigma");
    QTest::newRow("normal: sigma 1") << InitKind::Normal << 1.0 << 1.0;
    QTest::newRow("scaled-normal: sigma d^-1/2") << InitKind::ScaledNormal << 1.0 << 1.0 / std::sqrt(512.0);
    QTest::newRow("custom sigma 0.37") << InitKind::Custom << 0.37 << 0.37;
    QTest::newRow("custom sigma 3") << InitKind::Custom << 3.0 << 3.0;
}

// 2048 x 512 cells: mean within 4 standard errors of 0, variance within 4 standard errors of
// sigma^2 (Var s^2 ~ 2 sigma^4 / n), Kolmogorov-Smirnov distance to the normal CDF below its
// 0.1% critical value, the fraction beyond 3 sigma, and no correlation between neighbours.
void TestEmbeddingsNormal::normalStatistics()
{
    QFETCH(InitKind, init);
    QFETCH(double, customSigma);
    QFETCH(double, sigma);
    Params params;
    params.dModel = 512;
    params.maxLen = 2048;
    params.init = init;
    params.customSigma = customSigma;
    params.seed = 1234;
    QVERIFY(params.isValid());
    const Embeddings embeddings = Embeddings::fromParams(params);
    QVERIFY(embeddings.isGenerated());
    QCOMPARE(embeddings.columns(), std::int64_t(512));
    QVERIFY2(std::abs(embeddings.sigma() - sigma) <= 1e-7 * sigma,
             qPrintable(u"sigma() = %1, expected %2"_s.arg(embeddings.sigma()).arg(sigma)));

    const RowMatrixXf e = fillBlock(embeddings, Block {0, 2048, 0, 512});
    QVERIFY2(e.allFinite(), "every cell must be finite");
    const double n = double(e.size());
    const Eigen::ArrayXd x = Eigen::Map<const Eigen::ArrayXf>(e.data(), e.size()).cast<double>() / sigma;

    const double mean = x.mean();
    QVERIFY2(std::abs(mean) < 4.0 / std::sqrt(n), qPrintable(u"mean / sigma = %1"_s.arg(mean)));
    const double variance = (x - mean).square().sum() / (n - 1.0);
    QVERIFY2(std::abs(variance - 1.0) < 4.0 * std::sqrt(2.0 / n),
             qPrintable(u"variance / sigma^2 = %1 (tolerance %2)"_s.arg(variance).arg(4.0 * std::sqrt(2.0 / n))));

    std::vector<double> sorted(x.data(), x.data() + x.size());
    std::sort(sorted.begin(), sorted.end());
    double ks = 0.0;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        const double f = phi(sorted[i]);
        ks = std::max({ks, std::abs(double(i + 1) / n - f), std::abs(f - double(i) / n)});
    }
    QVERIFY2(ks < 1.95 / std::sqrt(n),
             qPrintable(u"Kolmogorov-Smirnov D = %1, critical %2"_s.arg(ks).arg(1.95 / std::sqrt(n))));

    // The normal CDF at a few quantiles.
    for (const double q : {-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0}) {
        const double expected = phi(q);
        const double got = double(std::upper_bound(sorted.begin(), sorted.end(), q) - sorted.begin()) / n;
        QVERIFY2(std::abs(got - expected) < 4.0 * std::sqrt(expected * (1.0 - expected) / n),
                 qPrintable(u"P(x < %1 sigma) = %2, expected %3"_s.arg(q).arg(got).arg(expected)));
    }
    const double tail = 2.0 * phi(-3.0);
    const double beyond3 = (x.abs() > 3.0).cast<double>().sum() / n;
    QVERIFY2(std::abs(beyond3 - tail) < 4.0 * std::sqrt(tail * (1.0 - tail) / n),
             qPrintable(u"P(|x| > 3 sigma) = %1, expected %2"_s.arg(beyond3).arg(tail)));

    // Columns 1 to 128 apart (both cells of one Box-Muller pair, across pairs, words and
    // 64-column chunks), and neighbouring rows.
    const Eigen::ArrayXXd m = e.cast<double>().array() / sigma;
    for (const int shift : {1, 2, 3, 4, 8, 16, 32, 64, 128}) {
        const double c = (m.leftCols(512 - shift) * m.rightCols(512 - shift)).mean();
        QVERIFY2(std::abs(c) < 4.0 / std::sqrt(double(2048 * (512 - shift))),
                 qPrintable(u"correlation of columns j, j + %1: %2"_s.arg(shift).arg(c)));
    }
    const double rows = (m.topRows(2047) * m.bottomRows(2047)).mean();
    QVERIFY2(std::abs(rows) < 4.0 / std::sqrt(2047.0 * 512.0),
             qPrintable(u"correlation of rows p, p + 1: %1"_s.arg(rows)));
}

// No column and no row is degenerate: per-column and per-row variance within 6 standard errors.
void TestEmbeddingsNormal::everyColumnAndRowIsNormal()
{
    const Embeddings embeddings(77, 1.0, 300);
    const RowMatrixXf e = fillBlock(embeddings, Block {0, 2048, 0, 300});
    const Eigen::ArrayXXd m = e.cast<double>().array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
        const double mean = m.col(j).mean();
        const double variance = m.col(j).square().mean();
        QVERIFY2(std::abs(mean) < 6.0 / std::sqrt(2048.0), qPrintable(u"column %1 mean %2"_s.arg(j).arg(mean)));
        QVERIFY2(std::abs(variance - 1.0) < 6.0 * std::sqrt(2.0 / 2048.0),
                 qPrintable(u"column %1 variance %2"_s.arg(j).arg(variance)));
    }
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        const double variance = m.row(r).square().mean();
        QVERIFY2(std::abs(variance - 1.0) < 6.0 * std::sqrt(2.0 / 300.0),
                 qPrintable(u"row %1 variance %2"_s.arg(r).arg(variance)));
    }
}

// Rows just below 2^24 are as normal as the first ones.
void TestEmbeddingsNormal::farPositionsAreNormal()
{
    const Embeddings embeddings(5, 1.0, 512);
    const RowMatrixXf e = fillBlock(embeddings, Block {kTwoTo24 - 512, 512, 0, 512});
    QVERIFY(e.allFinite());
    const Eigen::ArrayXd x = Eigen::Map<const Eigen::ArrayXf>(e.data(), e.size()).cast<double>();
    const double n = double(x.size());
    QVERIFY2(std::abs(x.mean()) < 4.0 / std::sqrt(n), qPrintable(u"mean %1"_s.arg(x.mean())));
    const double variance = x.square().mean();
    QVERIFY2(std::abs(variance - 1.0) < 4.0 * std::sqrt(2.0 / n), qPrintable(u"variance %1"_s.arg(variance)));
}

void TestEmbeddingsNormal::sameSeedSameMatrix()
{
    const Block block {0, 257, 0, 300};
    const RowMatrixXf a = fillBlock(Embeddings(42, 1.0, 300), block);
    const RowMatrixXf b = fillBlock(Embeddings(42, 1.0, 300), block);
    const QString difference = reference::firstBitDifference(a, b);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));

    Params params;
    params.dModel = 300;
    params.seed = 42;
    const QString viaParams = reference::firstBitDifference(a, fillBlock(Embeddings::fromParams(params), block));
    QVERIFY2(viaParams.isEmpty(), qPrintable(u"fromParams: "_s + viaParams));
}

void TestEmbeddingsNormal::otherSeedDiffers_data()
{
    QTest::addColumn<quint64>("seedA");
    QTest::addColumn<quint64>("seedB");
    QTest::newRow("0 vs 1") << quint64(0) << quint64(1);
    QTest::newRow("42 vs 43") << quint64(42) << quint64(43);
    QTest::newRow("1 vs 1 + 2^32 (high word)") << quint64(1) << (quint64(1) + (quint64(1) << 32));
    QTest::newRow("0 vs 2^63") << quint64(0) << (quint64(1) << 63);
}

// Another seed gives an unrelated table: almost no equal cells, no correlation.
void TestEmbeddingsNormal::otherSeedDiffers()
{
    QFETCH(quint64, seedA);
    QFETCH(quint64, seedB);
    const Block block {0, 256, 0, 256};
    const RowMatrixXf a = fillBlock(Embeddings(seedA, 1.0, 256), block);
    const RowMatrixXf b = fillBlock(Embeddings(seedB, 1.0, 256), block);
    const double equal = (a.array() == b.array()).cast<double>().mean();
    QVERIFY2(equal < 1e-3, qPrintable(u"%1 of the cells are equal"_s.arg(equal)));
    const double correlation = (a.cast<double>().array() * b.cast<double>().array()).mean();
    QVERIFY2(std::abs(correlation) < 4.0 / 256.0, qPrintable(u"correlation %1"_s.arg(correlation)));
}

void TestEmbeddingsNormal::blockEqualsWholeTable_data()
{
    QTest::addColumn<std::int64_t>("origin");
    QTest::addColumn<Block>("block"); // relative to origin
    for (const std::int64_t origin : {std::int64_t(0), kTwoTo24 - 200}) {
        const auto row
            = [origin](const char *name, Block b) { QTest::addRow("%s from %ld", name, long(origin)) << origin << b; };
        row("one cell", Block {0, 1, 0, 1});
        row("one column 1", Block {0, 200, 1, 1});
        row("cols 63-64", Block {3, 17, 63, 2});
        row("second chunk", Block {5, 7, 64, 64});
        row("cols 65-194", Block {10, 50, 65, 130});
        row("last cell", Block {199, 1, 299, 1});
        row("cols 127-299", Block {0, 200, 127, 173});
        row("cols 1-298", Block {77, 33, 1, 298});
        row("odd everything", Block {101, 3, 3, 5});
        row("whole", Block {0, 200, 0, 300});
    }
}

// Any block (odd row0, col0 and widths, across the 64-column chunks) equals the same cells of
// the whole table bit for bit.
void TestEmbeddingsNormal::blockEqualsWholeTable()
{
    QFETCH(std::int64_t, origin);
    QFETCH(Block, block);
    const Embeddings embeddings(9, 0.5, 300);
    const RowMatrixXf whole = fillBlock(embeddings, Block {origin, 200, 0, 300});
    const RowMatrixXf part = fillBlock(embeddings, Block {origin + block.row0, block.rows, block.col0, block.cols});
    const RowMatrixXf expected = whole.block(block.row0, block.col0, block.rows, block.cols);
    const QString difference = reference::firstBitDifference(expected, part, origin + block.row0, block.col0);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

// E = sigma * z: the same seed at another sigma scales every cell by the ratio.
void TestEmbeddingsNormal::sigmaScalesEveryCell()
{
    const Block block {0, 64, 0, 100};
    const RowMatrixXf one = fillBlock(Embeddings(3, 1.0, 100), block);
    const RowMatrixXf scaled = fillBlock(Embeddings(3, 2.5, 100), block);
    for (Eigen::Index r = 0; r < one.rows(); ++r)
        for (Eigen::Index c = 0; c < one.cols(); ++c) {
            const double expected = 2.5 * double(one(r, c));
            QVERIFY2(std::abs(double(scaled(r, c)) - expected) <= 1e-6 * std::abs(expected) + 1e-30,
                     qPrintable(u"(%1, %2): expected %3, got %4"_s.arg(r).arg(c).arg(reference::num(expected),
                                                                                     reference::numf(scaled(r, c)))));
        }
}

POSENC_TEST_GUILESS_MAIN(TestEmbeddingsNormal)
} // namespace tst_embeddingsnormal
#include "tst_embeddingsnormal.moc"
