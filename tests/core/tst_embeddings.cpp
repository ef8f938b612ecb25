// Embeddings: seeded N(0, sigma^2) cells checked by statistics (mean, variance, the normal
// CDF, tails, independence), reproducibility by seed, blocks equal to the whole table, and
// rows of a given matrix (docs/ARCHITECTURE.md, The mathematics).

#include "Reference.h"

#include "core/Embeddings.h"
#include "core/Engine.h"
#include "core/PositionalTable.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

using namespace Qt::StringLiterals;
using namespace posenc;
using reference::kTwoTo24;

namespace {

RowMatrixXf fillBlock(const Embeddings &embeddings, const Block &block)
{
    RowMatrixXf out(block.rows, block.cols);
    out.setConstant(std::numeric_limits<float>::quiet_NaN());
    embeddings.fill(block, out);
    return out;
}

// A matrix whose cells are not round numbers, different in every cell.
std::shared_ptr<EmbeddingMatrix> testMatrix(std::int64_t rows, std::int64_t cols)
{
    auto m = std::make_shared<EmbeddingMatrix>();
    m->values.resize(rows, cols);
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
            m->values(r, c) = float(std::sin(0.37 * double(r) + 1.91 * double(c)) * 1.7 + 0.001 * double(r));
    m->source = u"test.npy"_s;
    return m;
}

// Standard normal CDF.
double phi(double x)
{
    return 0.5 * std::erfc(-x / std::numbers::sqrt2);
}

} // namespace

class TestEmbeddings : public QObject
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
    void matrixRowsAreReturned();
    void fromParams_data();
    void fromParams();
    void materializeEqualsFill_data();
    void materializeEqualsFill();
    void embeddingQuantityIsScaledMatrix_data();
    void embeddingQuantityIsScaledMatrix();
    void embeddingQuantityIsScaledGenerated();
};

void TestEmbeddings::normalStatistics_data()
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
void TestEmbeddings::normalStatistics()
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
void TestEmbeddings::everyColumnAndRowIsNormal()
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
void TestEmbeddings::farPositionsAreNormal()
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

void TestEmbeddings::sameSeedSameMatrix()
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

void TestEmbeddings::otherSeedDiffers_data()
{
    QTest::addColumn<quint64>("seedA");
    QTest::addColumn<quint64>("seedB");
    QTest::newRow("0 vs 1") << quint64(0) << quint64(1);
    QTest::newRow("42 vs 43") << quint64(42) << quint64(43);
    QTest::newRow("1 vs 1 + 2^32 (high word)") << quint64(1) << (quint64(1) + (quint64(1) << 32));
    QTest::newRow("0 vs 2^63") << quint64(0) << (quint64(1) << 63);
}

// Another seed gives an unrelated table: almost no equal cells, no correlation.
void TestEmbeddings::otherSeedDiffers()
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

void TestEmbeddings::blockEqualsWholeTable_data()
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
void TestEmbeddings::blockEqualsWholeTable()
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
void TestEmbeddings::sigmaScalesEveryCell()
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

// Rows of a given matrix come back unchanged, whole or in blocks.
void TestEmbeddings::matrixRowsAreReturned()
{
    const auto m = testMatrix(50, 24);
    const Embeddings embeddings(m);
    QVERIFY(!embeddings.isGenerated());
    QCOMPARE(embeddings.columns(), std::int64_t(24));
    for (const Block block : {Block {0, 50, 0, 24}, Block {3, 11, 5, 7}, Block {49, 1, 23, 1}, Block {10, 20, 1, 22}}) {
        const RowMatrixXf expected = m->values.block(block.row0, block.col0, block.rows, block.cols);
        const QString difference
            = reference::firstBitDifference(expected, fillBlock(embeddings, block), block.row0, block.col0);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
    }
}

void TestEmbeddings::fromParams_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<std::int64_t>("columns");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<bool>("generated");
    Params p;
    QTest::newRow("defaults") << p << std::int64_t(512) << 1.0 << true;
    p.init = InitKind::ScaledNormal;
    p.dModel = 64;
    QTest::newRow("scaled-normal d=64") << p << std::int64_t(64) << 0.125 << true;
    p.compose = Compose::Concat;
    p.peDims = 24;
    QTest::newRow("concat: d - k columns") << p << std::int64_t(40) << 0.125 << true;
    p.init = InitKind::Custom;
    p.customSigma = 0.02;
    QTest::newRow("custom sigma") << p << std::int64_t(40) << 0.02 << true;
    p.embeddings = testMatrix(1024, 40);
    QTest::newRow("matrix") << p << std::int64_t(40) << 0.0 << false;
}

void TestEmbeddings::fromParams()
{
    QFETCH(Params, params);
    QFETCH(std::int64_t, columns);
    QFETCH(double, sigma);
    QFETCH(bool, generated);
    QVERIFY(params.isValid());
    const Embeddings embeddings = Embeddings::fromParams(params);
    QCOMPARE(embeddings.columns(), columns);
    QCOMPARE(embeddings.isGenerated(), generated);
    if (generated) {
        QVERIFY(std::abs(embeddings.sigma() - sigma) <= 1e-7 * sigma);
    } else {
        const RowMatrixXf expected = params.embeddings->values.topRows(100);
        QVERIFY(reference::firstBitDifference(expected, fillBlock(embeddings, Block {0, 100, 0, columns})).isEmpty());
    }
}

void TestEmbeddings::materializeEqualsFill_data()
{
    QTest::addColumn<int>("threads");
    QTest::newRow("serial") << 1;
    QTest::newRow("2 threads") << 2;
    QTest::newRow("machine's threads") << 0;
}

void TestEmbeddings::materializeEqualsFill()
{
    QFETCH(int, threads);
    const Embeddings embeddings(11, 0.7, 130);
    const auto matrix = Embeddings::materialize(embeddings, 333, threads);
    QVERIFY(matrix);
    const QString difference
        = reference::firstBitDifference(fillBlock(embeddings, Block {0, 333, 0, 130}), matrix->values);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    // A materialized matrix serves the same rows again.
    const Embeddings again(matrix);
    QVERIFY(reference::firstBitDifference(matrix->values.middleRows(100, 50), fillBlock(again, Block {100, 50, 0, 130}))
                .isEmpty());
}

void TestEmbeddings::embeddingQuantityIsScaledMatrix_data()
{
    QTest::addColumn<ScaleKind>("scaleKind");
    QTest::addColumn<double>("customScale");
    QTest::addColumn<Compose>("compose");
    QTest::newRow("scale 1, sum") << ScaleKind::One << 1.0 << Compose::Sum;
    QTest::newRow("scale sqrt(d), sum") << ScaleKind::Sqrt << 1.0 << Compose::Sum;
    QTest::newRow("scale 0.37, sum") << ScaleKind::Custom << 0.37 << Compose::Sum;
    QTest::newRow("scale sqrt(d), concat") << ScaleKind::Sqrt << 1.0 << Compose::Concat;
}

// With a loaded matrix, Quantity::Embedding = float(s) * M and X = float(s) * M + PE (sum), or
// [float(s) * M | PE of a k-column table] (concat): float arithmetic, bit for bit.
void TestEmbeddings::embeddingQuantityIsScaledMatrix()
{
    QFETCH(ScaleKind, scaleKind);
    QFETCH(double, customScale);
    QFETCH(Compose, compose);
    Params params;
    params.dModel = 24;
    params.maxLen = 50;
    params.scaleKind = scaleKind;
    params.customScale = customScale;
    params.compose = compose;
    params.peDims = 10;
    const std::int64_t eCols = compose == Compose::Concat ? 14 : 24;
    params.embeddings = testMatrix(60, eCols);
    QVERIFY2(params.isValid(), qPrintable(params.validate().value(0).sentence()));
    const double s = scaleKind == ScaleKind::One ? 1.0 : scaleKind == ScaleKind::Sqrt ? std::sqrt(24.0) : customScale;
    const float sf = float(s);

    const Engine engine(params);
    const auto embedding = engine.table(Quantity::Embedding, Block {0, 50, 0, eCols}, {1, nullptr});
    QVERIFY(embedding);
    const RowMatrixXf expected = (params.embeddings->values.topRows(50).array() * sf).matrix();
    QString difference = reference::firstBitDifference(expected, *embedding);
    QVERIFY2(difference.isEmpty(), qPrintable(u"Embedding: "_s + difference));

    const auto input = engine.table(Quantity::Input, Block {0, 50, 0, 24}, {1, nullptr});
    QVERIFY(input);
    const std::int64_t peCols = compose == Compose::Concat ? 10 : 24;
    const PositionalTable pe(peCols, 10000.0, Layout::Interleaved, Angles::Exact);
    RowMatrixXf peTable(50, peCols);
    pe.fill(Block {0, 50, 0, peCols}, peTable);
    RowMatrixXf expectedInput(50, 24);
    if (compose == Compose::Sum)
        expectedInput = (expected.array() + peTable.array()).matrix();
    else
        expectedInput << expected, peTable;
    difference = reference::firstBitDifference(expectedInput, *input);
    QVERIFY2(difference.isEmpty(), qPrintable(u"Input: "_s + difference));
    // And against float64 throughout: s * M + sin/cos.
    for (std::int64_t p = 0; p < 50; ++p)
        for (std::int64_t j = 0; j < 24; ++j) {
            const bool isPe = compose == Compose::Sum || j >= eCols;
            const bool isE = compose == Compose::Sum || j < eCols;
            const double e = isE ? s * double(params.embeddings->values(p, j)) : 0.0;
            const double q = isPe ? reference::exactValue(p, compose == Compose::Sum ? j : j - eCols, peCols, 10000.0,
                                                          Layout::Interleaved)
                                  : 0.0;
            QVERIFY2(std::abs(double((*input)(p, j)) - (e + q)) <= 1e-6 * (1.0 + std::abs(e + q)),
                     qPrintable(u"X(%1, %2) = %3, float64 %4"_s.arg(p).arg(j).arg(reference::numf((*input)(p, j)),
                                                                                  reference::num(e + q))));
        }
}

// With random embeddings, Quantity::Embedding is float(s) times the cells of Embeddings.
void TestEmbeddings::embeddingQuantityIsScaledGenerated()
{
    Params params;
    params.dModel = 100;
    params.maxLen = 300;
    params.seed = 8;
    params.init = InitKind::ScaledNormal;
    const Engine engine(params);
    const Block block {0, 300, 0, 100};
    const auto embedding = engine.table(Quantity::Embedding, block, {1, nullptr});
    QVERIFY(embedding);
    const RowMatrixXf expected = (fillBlock(Embeddings(8, 0.1, 100), block).array() * float(std::sqrt(100.0))).matrix();
    const QString difference = reference::firstBitDifference(expected, *embedding);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

QTEST_GUILESS_MAIN(TestEmbeddings)
#include "tst_embeddings.moc"
