// Embeddings from their sources: rows of a given matrix, the choice made from the parameters,
// materialized tables equal to filled ones on any number of threads, and the engine's embedding
// quantity scaled from either source (docs/ARCHITECTURE.md, The mathematics).

#include "FilledBlocks.h"
#include "Reference.h"
#include "support/TestMain.h"

#include "core/Embeddings.h"
#include "core/Engine.h"
#include "core/PositionalTable.h"

#include <QTest>

#include <cmath>
#include <memory>

namespace tst_embeddingssources {
using namespace Qt::StringLiterals;
using namespace posenc;
using testing::fillBlock;

namespace {

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

} // namespace

class TestEmbeddingsSources : public QObject
{
    Q_OBJECT

private slots:
    void matrixRowsAreReturned();
    void fromParams_data();
    void fromParams();
    void materializeEqualsFill_data();
    void materializeEqualsFill();
    void embeddingQuantityIsScaledMatrix_data();
    void embeddingQuantityIsScaledMatrix();
    void embeddingQuantityIsScaledGenerated();
};

// Rows of a given matrix come back unchanged, whole or in blocks.
void TestEmbeddingsSources::matrixRowsAreReturned()
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

void TestEmbeddingsSources::fromParams_data()
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

void TestEmbeddingsSources::fromParams()
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

void TestEmbeddingsSources::materializeEqualsFill_data()
{
    QTest::addColumn<int>("threads");
    QTest::newRow("serial") << 1;
    QTest::newRow("2 threads") << 2;
    QTest::newRow("machine's threads") << 0;
}

void TestEmbeddingsSources::materializeEqualsFill()
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

void TestEmbeddingsSources::embeddingQuantityIsScaledMatrix_data()
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
void TestEmbeddingsSources::embeddingQuantityIsScaledMatrix()
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
void TestEmbeddingsSources::embeddingQuantityIsScaledGenerated()
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

POSENC_TEST_GUILESS_MAIN(TestEmbeddingsSources)
} // namespace tst_embeddingssources
#include "tst_embeddingssources.moc"
