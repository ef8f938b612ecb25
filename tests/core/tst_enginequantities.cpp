// Engine: every quantity against independent references, its names and shapes, and the far end
// of the longest table (docs/ARCHITECTURE.md, The mathematics and Layers).

#include "EngineTable.h"
#include "Reference.h"
#include "support/TestMain.h"

#include "core/Engine.h"
#include "core/Quantity.h"

#include "support/TestFamily.h"

#include <QTest>

#include <cmath>
#include <limits>

namespace tst_enginequantities {
using namespace Qt::StringLiterals;
using namespace posenc;
using reference::kTwoTo24;
using testing::allQuantities;

class TestEngineQuantities : public QObject
{
    Q_OBJECT

private slots:
    void quantityNames();
    void shapes_data();
    void shapes();
    void peQuantityMatchesReference_data();
    void peQuantityMatchesReference();
    void errorQuantityMatchesReference_data();
    void errorQuantityMatchesReference();
    void inputPartsAddUpToInput_data();
    void inputPartsAddUpToInput();
    void similarityMatchesClosedForm_data();
    void similarityMatchesClosedForm();
    void similarityDependsOnlyOnOffset();
    void similarityInConcatUsesPeColumns();
    void farEndOfLongestTable();
};

void TestEngineQuantities::quantityNames()
{
    // The shared quantities (core/QuantityList.h), then each family's, in the list's order.
    QStringList expected = {u"pe"_s,         u"embedding"_s,    u"input"_s,           u"output"_s,           u"mask"_s,
                            u"similarity"_s, u"position-ids"_s, u"position-effect"_s, u"document-distance"_s};
    for (const TestFamily &family : TestFamilies::all())
        expected += family.quantities;
    const QStringList names = Quantities::names();
    QCOMPARE(QSet<QString>(names.begin(), names.end()), QSet<QString>(expected.begin(), expected.end()));
    QCOMPARE(names.size(), expected.size());
    QCOMPARE(names, expected);
    for (const Quantity q : allQuantities()) {
        const QString name = Quantities::name(q);
        QVERIFY(expected.contains(name));
        QCOMPARE(Quantities::fromName(name), std::optional<Quantity>(q));
    }
    QVERIFY(!Quantities::fromName(u"bogus"_s));
    QVERIFY(!Quantities::fromName(u""_s));
}

void TestEngineQuantities::shapes_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<std::int64_t>("peCols");
    QTest::addColumn<std::int64_t>("eCols");
    Params p;
    p.maxLen = 300;
    p.dModel = 64;
    QTest::newRow("sum") << p << std::int64_t(64) << std::int64_t(64);
    p.compose = Compose::Concat;
    p.peDims = 10;
    QTest::newRow("concat k=10") << p << std::int64_t(10) << std::int64_t(54);
    p.peDims.reset();
    QTest::newRow("concat k unset") << p << std::int64_t(32) << std::int64_t(32);
}

void TestEngineQuantities::shapes()
{
    QFETCH(Params, params);
    QFETCH(std::int64_t, peCols);
    QFETCH(std::int64_t, eCols);
    const Engine engine(params);
    const std::int64_t L = params.maxLen, d = params.dModel;
    QCOMPARE(engine.shape(Quantity::Pe), (Shape {L, peCols}));
    QCOMPARE(engine.shape(Quantity::Error), (Shape {L, peCols}));
    QCOMPARE(engine.shape(Quantity::Embedding), (Shape {L, eCols}));
    QCOMPARE(engine.shape(Quantity::Input), (Shape {L, d}));
    QCOMPARE(engine.shape(Quantity::Output), (Shape {L, d}));
    QCOMPARE(engine.shape(Quantity::Mask), (Shape {L, d}));
    QCOMPARE(engine.shape(Quantity::Similarity), (Shape {L, L}));
    QCOMPARE(engine.positionTerm().columns(), peCols);
    QCOMPARE(engine.embeddings().columns(), eCols);
}

static void addPeRows()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<Angles>("angles");
    QTest::addColumn<Compose>("compose");
    QTest::addColumn<std::int64_t>("k");
    QTest::newRow("d=512 interleaved exact sum")
        << std::int64_t(512) << Layout::Interleaved << Angles::Exact << Compose::Sum << std::int64_t(0);
    QTest::newRow("d=511 split exact sum")
        << std::int64_t(511) << Layout::Split << Angles::Exact << Compose::Sum << std::int64_t(0);
    QTest::newRow("d=64 interleaved float32 sum")
        << std::int64_t(64) << Layout::Interleaved << Angles::Float32 << Compose::Sum << std::int64_t(0);
    QTest::newRow("d=100 k=37 split exact concat")
        << std::int64_t(100) << Layout::Split << Angles::Exact << Compose::Concat << std::int64_t(37);
    QTest::newRow("d=100 k=64 interleaved float32 concat")
        << std::int64_t(100) << Layout::Interleaved << Angles::Float32 << Compose::Concat << std::int64_t(64);
}

void TestEngineQuantities::peQuantityMatchesReference_data()
{
    addPeRows();
}

namespace {

// The longest table of an addPeRows() row.
Params peRowParams(std::int64_t d, Layout layout, Angles angles, Compose compose, std::int64_t k)
{
    Params params;
    params.dModel = d;
    params.maxLen = Params::kMaxLen;
    params.sinusoidal.layout = layout;
    params.sinusoidal.angles = angles;
    params.compose = compose;
    if (compose == Compose::Concat)
        params.peDims = k;
    return params;
}

} // namespace

// Quantity::Pe is the table of d columns (or of k columns with frequencies of d = k in concat),
// near the start and at the end of the longest table: within 1e-6 of float64 for exact angles,
// within 1 ulp of the float32-angle reference otherwise.
void TestEngineQuantities::peQuantityMatchesReference()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    QFETCH(Angles, angles);
    QFETCH(Compose, compose);
    QFETCH(std::int64_t, k);
    const Params params = peRowParams(d, layout, angles, compose, k);
    QVERIFY2(params.isValid(), qPrintable(params.validate().value(0).sentence()));
    const Engine engine(params);
    const std::int64_t cols = compose == Compose::Concat ? k : d;
    QCOMPARE(engine.shape(Quantity::Pe).cols, cols);
    for (const reference::RowRange range : {reference::RowRange {0, 70}, reference::RowRange {kTwoTo24 - 70, 70}}) {
        const RowMatrixXf pe = testing::computeTable(engine, Quantity::Pe, Block {range.row0, range.rows, 0, cols}, 2);
        for (std::int64_t r = 0; r < range.rows; ++r)
            for (std::int64_t j = 0; j < cols; ++j) {
                const std::int64_t p = range.row0 + r;
                if (angles == Angles::Exact) {
                    const double expected = reference::exactValue(p, j, cols, 10000.0, layout);
                    QVERIFY2(std::abs(double(pe(r, j)) - expected) <= 1e-6,
                             qPrintable(u"(%1, %2): expected %3, got %4"_s.arg(p).arg(j).arg(
                                 reference::num(expected), reference::numf(pe(r, j)))));
                } else {
                    const float expected = reference::float32AngleValue(p, j, cols, 10000.0, layout);
                    QVERIFY2(reference::ulpDistance(pe(r, j), expected) <= 1,
                             qPrintable(u"(%1, %2): expected %3, got %4"_s.arg(p).arg(j).arg(
                                 reference::numf(expected), reference::numf(pe(r, j)))));
                }
            }
    }
}

void TestEngineQuantities::errorQuantityMatchesReference_data()
{
    addPeRows();
}

// Quantity::Error = float32-angle value - float64 value, within 1e-7.
void TestEngineQuantities::errorQuantityMatchesReference()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    QFETCH(Angles, angles);
    QFETCH(Compose, compose);
    QFETCH(std::int64_t, k);
    const Params params = peRowParams(d, layout, angles, compose, k);
    const Engine engine(params);
    const std::int64_t cols = compose == Compose::Concat ? k : d;
    QCOMPARE(engine.shape(Quantity::Error).cols, cols);
    for (const reference::RowRange range : {reference::RowRange {16000, 40}, reference::RowRange {kTwoTo24 - 40, 40}}) {
        const RowMatrixXf error
            = testing::computeTable(engine, Quantity::Error, Block {range.row0, range.rows, 0, cols}, 2);
        double largest = 0.0;
        for (std::int64_t r = 0; r < range.rows; ++r)
            for (std::int64_t j = 0; j < cols; ++j) {
                const std::int64_t p = range.row0 + r;
                const double expected = double(reference::float32AngleValue(p, j, cols, 10000.0, layout))
                    - reference::exactValue(p, j, cols, 10000.0, layout);
                largest = std::max(largest, std::abs(expected));
                QVERIFY2(std::abs(double(error(r, j)) - expected) <= 1e-7,
                         qPrintable(u"(%1, %2): expected %3, got %4"_s.arg(p).arg(j).arg(
                             reference::num(expected), reference::numf(error(r, j)))));
            }
        QVERIFY(largest > 1e-4); // the comparison is not between two zeros
    }
}

void TestEngineQuantities::inputPartsAddUpToInput_data()
{
    QTest::addColumn<Compose>("compose");
    QTest::addColumn<ScaleKind>("scale");
    QTest::newRow("sum, sqrt(d)") << Compose::Sum << ScaleKind::Sqrt;
    QTest::newRow("sum, 1") << Compose::Sum << ScaleKind::One;
    QTest::newRow("concat, sqrt(d)") << Compose::Concat << ScaleKind::Sqrt;
}

// inputParts: the embedding part is Quantity::Embedding (zero in the PE-only columns), the
// positional part is Quantity::Pe (zero in the E-only columns), and X is their float sum.
void TestEngineQuantities::inputPartsAddUpToInput()
{
    QFETCH(Compose, compose);
    QFETCH(ScaleKind, scale);
    Params params;
    params.dModel = 90;
    params.maxLen = 500;
    params.compose = compose;
    params.peDims = 30;
    params.scaleKind = scale;
    params.seed = 5;
    const Engine engine(params);
    const std::int64_t eCols = compose == Compose::Concat ? 60 : 90;
    const std::int64_t peOffset = compose == Compose::Concat ? 60 : 0;
    const RowMatrixXf e = testing::computeTable(engine, Quantity::Embedding, Block {0, 500, 0, eCols}, 1);
    const RowMatrixXf pe = testing::computeTable(engine, Quantity::Pe, Block {0, 500, 0, 90 - peOffset}, 1);
    const RowMatrixXf x = testing::computeTable(engine, Quantity::Input, Block {0, 500, 0, 90}, 1);
    for (const Block block :
         {Block {0, 500, 0, 90}, Block {3, 101, 7, 77}, Block {499, 1, 59, 2}, Block {200, 50, 61, 29}}) {
        RowMatrixXf ePart(block.rows, block.cols), qPart(block.rows, block.cols);
        engine.inputParts(block, ePart, qPart);
        for (std::int64_t r = 0; r < block.rows; ++r)
            for (std::int64_t c = 0; c < block.cols; ++c) {
                const std::int64_t p = block.row0 + r, j = block.col0 + c;
                const float expectedE = j < eCols ? e(p, j) : 0.0f;
                const float expectedQ = j >= peOffset ? pe(p, j - peOffset) : 0.0f;
                QVERIFY2(reference::sameBits(ePart(r, c), expectedE),
                         qPrintable(u"embedding part (%1, %2)"_s.arg(p).arg(j)));
                QVERIFY2(reference::sameBits(qPart(r, c), expectedQ),
                         qPrintable(u"positional part (%1, %2)"_s.arg(p).arg(j)));
                QVERIFY2(reference::sameBits(x(p, j), expectedE + expectedQ),
                         qPrintable(u"X (%1, %2): %3, parts add to %4"_s.arg(p).arg(j).arg(
                             reference::numf(x(p, j)), reference::numf(expectedE + expectedQ))));
            }
    }
    // The scale: E columns of X are float(s) * E.
    const float s = float(scale == ScaleKind::Sqrt ? std::sqrt(90.0) : 1.0);
    RowMatrixXf raw(500, eCols);
    engine.embeddings().fill(Block {0, 500, 0, eCols}, raw);
    QCOMPARE(reference::firstBitDifference((raw.array() * s).matrix(), e), QString());
}

void TestEngineQuantities::similarityMatchesClosedForm_data()
{
    QTest::addColumn<std::int64_t>("d");
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<Block>("block");
    for (const std::int64_t d : {2, 64, 512}) {
        QTest::addRow("d=%ld interleaved, first rows", long(d)) << d << Layout::Interleaved << Block {0, 64, 0, 64};
        QTest::addRow("d=%ld split, first rows", long(d)) << d << Layout::Split << Block {0, 64, 0, 64};
        QTest::addRow("d=%ld interleaved, far rows", long(d)) << d << Layout::Interleaved << Block {3000, 32, 100, 257};
    }
}

// S[p, q] = PE_p . PE_q = sum_i cos((p - q) w_i) for even d (both layouts: same pairs).
void TestEngineQuantities::similarityMatchesClosedForm()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    QFETCH(Block, block);
    Params params;
    params.dModel = d;
    params.maxLen = 4096;
    params.sinusoidal.layout = layout;
    const Engine engine(params);
    QVERIFY(!engine.check(Quantity::Similarity, block));
    const RowMatrixXf s = testing::computeTable(engine, Quantity::Similarity, block, 2);
    const double tolerance = 2e-7 * double(d) + 1e-6;
    for (std::int64_t r = 0; r < block.rows; ++r)
        for (std::int64_t c = 0; c < block.cols; ++c) {
            const std::int64_t p = block.row0 + r, q = block.col0 + c;
            double expected = 0.0;
            for (std::int64_t i = 0; i < d / 2; ++i)
                expected += std::cos(double(p - q) * reference::omega(i, d, 10000.0));
            QVERIFY2(std::abs(double(s(r, c)) - expected) <= tolerance,
                     qPrintable(u"S(%1, %2) = %3, closed form %4"_s.arg(p).arg(q).arg(reference::numf(s(r, c)),
                                                                                      reference::num(expected))));
        }
    if (block.row0 == 0 && block.col0 == 0)
        for (std::int64_t p = 0; p < block.rows; ++p)
            QVERIFY(std::abs(double(s(p, p)) - double(d) / 2.0) <= tolerance);
}

// S[p, q] = S[p + k, q + k] and S[p, q] = S[q, p], for odd d too (where the closed form has
// the extra sin sin term, the shift invariance is lost, so only even d is shifted).
void TestEngineQuantities::similarityDependsOnlyOnOffset()
{
    Params params;
    params.dModel = 128;
    params.maxLen = 1 << 20;
    const Engine engine(params);
    const RowMatrixXf base = testing::computeTable(engine, Quantity::Similarity, Block {100, 40, 90, 60}, 2);
    const double tolerance = 2e-7 * 128.0 + 1e-6;
    for (const std::int64_t shift : {1, 31, 1000, 65536, (1 << 20) - 300}) {
        const RowMatrixXf shifted
            = testing::computeTable(engine, Quantity::Similarity, Block {100 + shift, 40, 90 + shift, 60}, 1);
        const double worst = (shifted - base).cwiseAbs().maxCoeff();
        QVERIFY2(worst <= tolerance, qPrintable(u"shift %1: max |S[p+k,q+k] - S[p,q]| = %2"_s.arg(shift).arg(worst)));
    }
    const RowMatrixXf transposed = testing::computeTable(engine, Quantity::Similarity, Block {90, 60, 100, 40}, 1);
    QVERIFY((transposed.transpose() - base).cwiseAbs().maxCoeff() <= tolerance);
}

// In concat the similarity is that of the k-column PE table that enters X.
void TestEngineQuantities::similarityInConcatUsesPeColumns()
{
    Params params;
    params.dModel = 100;
    params.maxLen = 500;
    params.compose = Compose::Concat;
    params.peDims = 64;
    const Engine engine(params);
    const RowMatrixXf s = testing::computeTable(engine, Quantity::Similarity, Block {10, 20, 200, 30}, 1);
    for (std::int64_t r = 0; r < 20; ++r)
        for (std::int64_t c = 0; c < 30; ++c) {
            double expected = 0.0;
            for (std::int64_t i = 0; i < 32; ++i)
                expected += std::cos(double(10 + r - 200 - c) * reference::omega(i, 64, 10000.0));
            QVERIFY2(std::abs(double(s(r, c)) - expected) <= 1e-4,
                     qPrintable(u"S(%1, %2) = %3, expected %4"_s.arg(10 + r).arg(200 + c).arg(
                         reference::numf(s(r, c)), reference::num(expected))));
        }
}

// The longest table the parameters allow: its last rows and columns, against float64.
void TestEngineQuantities::farEndOfLongestTable()
{
    Params params;
    params.dModel = 4096;
    params.maxLen = Params::kMaxLen;
    const Engine engine(params);
    const Block block {kTwoTo24 - 3, 3, 4090, 6};
    QVERIFY(!engine.check(Quantity::Pe, block));
    const RowMatrixXf pe = testing::computeTable(engine, Quantity::Pe, block, 1);
    for (std::int64_t r = 0; r < 3; ++r)
        for (std::int64_t c = 0; c < 6; ++c) {
            const double expected
                = reference::exactValue(block.row0 + r, block.col0 + c, 4096, 10000.0, Layout::Interleaved);
            QVERIFY(std::abs(double(pe(r, c)) - expected) <= 1e-6);
        }
}

POSENC_TEST_GUILESS_MAIN(TestEngineQuantities)
} // namespace tst_enginequantities
#include "tst_enginequantities.moc"
