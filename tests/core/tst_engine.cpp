// Engine: every quantity against independent references, threaded results equal to serial
// ones bit for bit, blocks computed alone equal to the whole table, cancellation, and check()
// refusing blocks outside the table or over the memory budget (docs/ARCHITECTURE.md, The mathematics and Layers).

#include "EngineTable.h"
#include "Reference.h"
#include "support/Sanitizer.h"

#include "core/Engine.h"
#include "core/MemoryBudget.h"
#include "core/Quantity.h"

#include <QTest>

#include <atomic>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;
using namespace posenc;
using reference::kTwoTo24;

namespace {

RowMatrixXf serialBlock(const Engine &engine, Quantity quantity, const Block &block)
{
    RowMatrixXf out(block.rows, block.cols);
    out.setConstant(std::numeric_limits<float>::quiet_NaN());
    engine.computeBlock(quantity, block, out);
    return out;
}

// A block of the whole table of `quantity`, capped for the similarity (L x L).
Block wholeBlock(const Engine &engine, Quantity quantity)
{
    const Shape s = engine.shape(quantity);
    if (quantity == Quantity::Similarity)
        return Block {0, std::min<std::int64_t>(s.rows, 700), 0, std::min<std::int64_t>(s.cols, 600)};
    return Block {0, s.rows, 0, s.cols};
}

const QList<Quantity> &allQuantities()
{
    static const QList<Quantity> all = {Quantity::Pe,   Quantity::Embedding,  Quantity::Input, Quantity::Output,
                                        Quantity::Mask, Quantity::Similarity, Quantity::Error};
    return all;
}

// Parameter sets that exercise every path: sum and concat, both layouts and angle modes, odd d,
// each dropout variant.
QList<std::pair<const char *, Params>> parameterSets()
{
    Params sum;
    sum.dModel = 67;
    sum.maxLen = testing::sized(3000);
    sum.dropout = 0.3;
    sum.seed = 17;

    Params concat = sum;
    concat.compose = Compose::Concat;
    concat.peDims = 21;
    concat.layout = Layout::Split;
    concat.angles = Angles::Float32;
    concat.dropoutMode = DropoutMode::ProtectSpecial;
    concat.special = {0, 5, -1};
    concat.seqLen = testing::sized(2500);
    concat.init = InitKind::ScaledNormal;

    Params embedding = sum;
    embedding.dropoutMode = DropoutMode::Embedding;
    embedding.scaleKind = ScaleKind::Custom;
    embedding.customScale = 0.37;

    Params masked = sum;
    masked.dropoutMode = DropoutMode::MaskedFill;
    masked.seqLen = testing::sized(1234);
    masked.layout = Layout::Split;
    return {{"sum", sum},
            {"concat split float32 protect-special", concat},
            {"embedding dropout", embedding},
            {"masked-fill", masked}};
}

} // namespace

class TestEngine : public QObject
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
    void threadedEqualsSerial_data();
    void threadedEqualsSerial();
    void blockAloneEqualsWholeTable_data();
    void blockAloneEqualsWholeTable();
    void writesOnlyItsBlock_data();
    void writesOnlyItsBlock();
    void cancelledComputeReturnsFalse_data();
    void cancelledComputeReturnsFalse();
    void uncancelledComputeReturnsTrue();
    void checkRejectsBlocksOutside_data();
    void checkRejectsBlocksOutside();
    void checkAcceptsBlocksInside_data();
    void checkAcceptsBlocksInside();
    void checkRefusesOverBudget_data();
    void checkRefusesOverBudget();
    void memoryBudgetHelpers();
    void farEndOfLongestTable();
};

void TestEngine::quantityNames()
{
    const QStringList expected
        = {u"pe"_s, u"embedding"_s, u"input"_s, u"output"_s, u"mask"_s, u"similarity"_s, u"error"_s};
    const QStringList names = Quantities::names();
    QCOMPARE(QSet<QString>(names.begin(), names.end()), QSet<QString>(expected.begin(), expected.end()));
    QCOMPARE(names.size(), expected.size());
    for (const Quantity q : allQuantities()) {
        const QString name = Quantities::name(q);
        QVERIFY(expected.contains(name));
        QCOMPARE(Quantities::fromName(name), std::optional<Quantity>(q));
    }
    QVERIFY(!Quantities::fromName(u"bogus"_s));
    QVERIFY(!Quantities::fromName(u""_s));
}

void TestEngine::shapes_data()
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

void TestEngine::shapes()
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
    QCOMPARE(engine.positionalTable().columns(), peCols);
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

void TestEngine::peQuantityMatchesReference_data()
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
    params.layout = layout;
    params.angles = angles;
    params.compose = compose;
    if (compose == Compose::Concat)
        params.peDims = k;
    return params;
}

} // namespace

// Quantity::Pe is the table of d columns (or of k columns with frequencies of d = k in concat),
// near the start and at the end of the longest table: within 1e-6 of float64 for exact angles,
// within 1 ulp of the float32-angle reference otherwise.
void TestEngine::peQuantityMatchesReference()
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

void TestEngine::errorQuantityMatchesReference_data()
{
    addPeRows();
}

// Quantity::Error = float32-angle value - float64 value, within 1e-7.
void TestEngine::errorQuantityMatchesReference()
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

void TestEngine::inputPartsAddUpToInput_data()
{
    QTest::addColumn<Compose>("compose");
    QTest::addColumn<ScaleKind>("scale");
    QTest::newRow("sum, sqrt(d)") << Compose::Sum << ScaleKind::Sqrt;
    QTest::newRow("sum, 1") << Compose::Sum << ScaleKind::One;
    QTest::newRow("concat, sqrt(d)") << Compose::Concat << ScaleKind::Sqrt;
}

// inputParts: the embedding part is Quantity::Embedding (zero in the PE-only columns), the
// positional part is Quantity::Pe (zero in the E-only columns), and X is their float sum.
void TestEngine::inputPartsAddUpToInput()
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

void TestEngine::similarityMatchesClosedForm_data()
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
void TestEngine::similarityMatchesClosedForm()
{
    QFETCH(std::int64_t, d);
    QFETCH(Layout, layout);
    QFETCH(Block, block);
    Params params;
    params.dModel = d;
    params.maxLen = 4096;
    params.layout = layout;
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
void TestEngine::similarityDependsOnlyOnOffset()
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
void TestEngine::similarityInConcatUsesPeColumns()
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

void TestEngine::threadedEqualsSerial_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<Quantity>("quantity");
    for (const auto &[name, params] : parameterSets())
        for (const Quantity q : allQuantities())
            QTest::addRow("%s, %s", name, qPrintable(Quantities::name(q))) << params << q;
}

// compute() with 2 threads and with the machine's equals the serial result, bit for bit; so do
// table() and computeBlock().
void TestEngine::threadedEqualsSerial()
{
    QFETCH(Params, params);
    QFETCH(Quantity, quantity);
    QVERIFY2(params.isValid(), qPrintable(params.validate().value(0).sentence()));
    const Engine engine(params);
    const Block block = wholeBlock(engine, quantity);
    QVERIFY(!engine.check(quantity, block));
    const RowMatrixXf serial = testing::computeTable(engine, quantity, block, 1);
    QVERIFY(!serial.array().isNaN().any());
    QCOMPARE(reference::firstBitDifference(serial, testing::computeTable(engine, quantity, block, 2)), QString());
    QCOMPARE(reference::firstBitDifference(serial, testing::computeTable(engine, quantity, block, 0)), QString());
    QCOMPARE(reference::firstBitDifference(serial, serialBlock(engine, quantity, block)), QString());
    const std::optional<RowMatrixXf> table = engine.table(quantity, block, ComputeOptions {2, nullptr});
    QVERIFY(table);
    QCOMPARE(reference::firstBitDifference(serial, *table), QString());
}

void TestEngine::blockAloneEqualsWholeTable_data()
{
    threadedEqualsSerial_data();
}

// Any block, computed alone (serially or threaded), equals the same cells of the whole table.
void TestEngine::blockAloneEqualsWholeTable()
{
    QFETCH(Params, params);
    QFETCH(Quantity, quantity);
    const Engine engine(params);
    const Block whole = wholeBlock(engine, quantity);
    const RowMatrixXf table = testing::computeTable(engine, quantity, whole, 0);
    const std::int64_t rows = whole.rows, cols = whole.cols;
    const std::int64_t nearAnchor = std::min<std::int64_t>(1023, rows - 70); // across row 1024 where it exists
    for (const Block block :
         {Block {0, 1, 0, 1}, Block {1, 3, 1, 3}, Block {rows - 1, 1, cols - 1, 1}, Block {33, 600, 5, cols - 7},
          Block {nearAnchor, 70, 0, cols}, Block {250, 333, cols / 2, cols / 3}, Block {rows - 97, 97, 3, 1}}) {
        for (const int threads : {1, 2}) {
            const RowMatrixXf part = threads == 1 ? serialBlock(engine, quantity, block)
                                                  : testing::computeTable(engine, quantity, block, threads);
            const RowMatrixXf expected = table.block(block.row0, block.col0, block.rows, block.cols);
            const QString difference = reference::firstBitDifference(expected, part, block.row0, block.col0);
            QVERIFY2(difference.isEmpty(),
                     qPrintable(u"block (%1, %2, %3, %4), %5 threads: "_s.arg(block.row0)
                                    .arg(block.rows)
                                    .arg(block.col0)
                                    .arg(block.cols)
                                    .arg(threads)
                                + difference));
        }
    }
}

void TestEngine::writesOnlyItsBlock_data()
{
    QTest::addColumn<Quantity>("quantity");
    for (const Quantity q : allQuantities())
        QTest::addRow("%s", qPrintable(Quantities::name(q))) << q;
}

// The destination may be a window into a bigger matrix (an outer stride): nothing outside it
// is written, and the window holds what a block-sized matrix gets.
void TestEngine::writesOnlyItsBlock()
{
    QFETCH(Quantity, quantity);
    Params params;
    params.dModel = 50;
    params.maxLen = 2000;
    const Engine engine(params);
    const Block block {100, 1500, 3, 41};
    RowMatrixXf big(block.rows + 5, 60);
    big.setConstant(-1234.5f);
    QVERIFY(engine.compute(quantity, block, big.block(2, 7, block.rows, block.cols), ComputeOptions {2, nullptr}));
    const RowMatrixXf alone = testing::computeTable(engine, quantity, block, 1);
    QCOMPARE(reference::firstBitDifference(alone, big.block(2, 7, block.rows, block.cols)), QString());
    for (Eigen::Index r = 0; r < big.rows(); ++r)
        for (Eigen::Index c = 0; c < big.cols(); ++c) {
            const bool inside = r >= 2 && r < 2 + block.rows && c >= 7 && c < 7 + block.cols;
            if (!inside)
                QVERIFY2(big(r, c) == -1234.5f, qPrintable(u"(%1, %2) outside the window was written"_s.arg(r).arg(c)));
        }
}

void TestEngine::cancelledComputeReturnsFalse_data()
{
    QTest::addColumn<Quantity>("quantity");
    QTest::addColumn<int>("threads");
    for (const Quantity q : allQuantities())
        for (const int threads : {1, 2, 0})
            QTest::addRow("%s, %d threads", qPrintable(Quantities::name(q)), threads) << q << threads;
}

// A cancel flag already set: compute() returns false and table() nothing.
void TestEngine::cancelledComputeReturnsFalse()
{
    QFETCH(Quantity, quantity);
    QFETCH(int, threads);
    Params params;
    params.dModel = 64;
    params.maxLen = 4096;
    const Engine engine(params);
    const std::atomic<bool> cancel {true};
    const Block block = wholeBlock(engine, quantity);
    RowMatrixXf out(block.rows, block.cols);
    QVERIFY(!engine.compute(quantity, block, out, ComputeOptions {threads, &cancel}));
    QVERIFY(!engine.table(quantity, block, ComputeOptions {threads, &cancel}));
}

void TestEngine::uncancelledComputeReturnsTrue()
{
    Params params;
    params.dModel = 64;
    params.maxLen = 4096;
    const Engine engine(params);
    const std::atomic<bool> cancel {false};
    const Block block {0, 4096, 0, 64};
    RowMatrixXf out(block.rows, block.cols);
    QVERIFY(engine.compute(Quantity::Output, block, out, ComputeOptions {2, &cancel}));
    QCOMPARE(reference::firstBitDifference(testing::computeTable(engine, Quantity::Output, block, 1), out), QString());
}

void TestEngine::checkRejectsBlocksOutside_data()
{
    QTest::addColumn<Quantity>("quantity");
    QTest::addColumn<Block>("block");
    QTest::addColumn<Compose>("compose");
    // L = 1000, d = 64; in concat k = 16, so E has 48 columns.
    QTest::newRow("pe: one row past the end") << Quantity::Pe << Block {999, 2, 0, 64} << Compose::Sum;
    QTest::newRow("pe: starts at L") << Quantity::Pe << Block {1000, 1, 0, 1} << Compose::Sum;
    QTest::newRow("pe: negative row0") << Quantity::Pe << Block {-1, 2, 0, 64} << Compose::Sum;
    QTest::newRow("pe: negative col0") << Quantity::Pe << Block {0, 2, -1, 2} << Compose::Sum;
    QTest::newRow("pe: one column past d") << Quantity::Pe << Block {0, 1, 0, 65} << Compose::Sum;
    QTest::newRow("pe: negative rows") << Quantity::Pe << Block {5, -1, 0, 64} << Compose::Sum;
    QTest::newRow("input: col0 = d") << Quantity::Input << Block {0, 1, 64, 1} << Compose::Sum;
    QTest::newRow("output: huge rows") << Quantity::Output << Block {0, std::int64_t(1) << 40, 0, 64} << Compose::Sum;
    QTest::newRow("mask: row past L") << Quantity::Mask << Block {500, 501, 0, 1} << Compose::Sum;
    QTest::newRow("similarity: column past L") << Quantity::Similarity << Block {0, 1, 0, 1001} << Compose::Sum;
    QTest::newRow("similarity: row past L") << Quantity::Similarity << Block {1000, 1, 0, 1} << Compose::Sum;
    QTest::newRow("concat pe: column past k") << Quantity::Pe << Block {0, 1, 0, 17} << Compose::Concat;
    QTest::newRow("concat error: column past k") << Quantity::Error << Block {0, 1, 16, 1} << Compose::Concat;
    QTest::newRow("concat embedding: column past d - k")
        << Quantity::Embedding << Block {0, 1, 40, 9} << Compose::Concat;
}

void TestEngine::checkRejectsBlocksOutside()
{
    QFETCH(Quantity, quantity);
    QFETCH(Block, block);
    QFETCH(Compose, compose);
    Params params;
    params.dModel = 64;
    params.maxLen = 1000;
    params.compose = compose;
    params.peDims = 16;
    const Engine engine(params);
    const std::optional<QString> error = engine.check(quantity, block);
    QVERIFY2(error.has_value(), "the block must be refused");
    QVERIFY(!error->isEmpty());
}

void TestEngine::checkAcceptsBlocksInside_data()
{
    QTest::addColumn<Quantity>("quantity");
    QTest::addColumn<Block>("block");
    QTest::addColumn<Compose>("compose");
    QTest::newRow("pe: whole") << Quantity::Pe << Block {0, 1000, 0, 64} << Compose::Sum;
    QTest::newRow("pe: last cell") << Quantity::Pe << Block {999, 1, 63, 1} << Compose::Sum;
    QTest::newRow("similarity: whole") << Quantity::Similarity << Block {0, 1000, 0, 1000} << Compose::Sum;
    QTest::newRow("concat pe: all k columns") << Quantity::Pe << Block {0, 1000, 0, 16} << Compose::Concat;
    QTest::newRow("concat embedding: all d - k") << Quantity::Embedding << Block {0, 1000, 0, 48} << Compose::Concat;
    QTest::newRow("concat output: all d") << Quantity::Output << Block {0, 1000, 0, 64} << Compose::Concat;
}

void TestEngine::checkAcceptsBlocksInside()
{
    QFETCH(Quantity, quantity);
    QFETCH(Block, block);
    QFETCH(Compose, compose);
    Params params;
    params.dModel = 64;
    params.maxLen = 1000;
    params.compose = compose;
    params.peDims = 16;
    const Engine engine(params);
    const std::optional<QString> error = engine.check(quantity, block);
    QVERIFY2(!error, qPrintable(error.value_or(QString())));
}

void TestEngine::checkRefusesOverBudget_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<Quantity>("quantity");
    QTest::addColumn<Block>("block");
    QTest::addColumn<bool>("refused");
    QTest::addColumn<QString>("cells"); // in the message; empty: not checked
    Params small;
    small.dModel = 512;
    small.maxLen = 4096;
    small.memoryBudget = std::uint64_t(1) << 20; // 1 MiB: 262144 float cells
    QTest::newRow("1 MiB: 1024 x 512 pe") << small << Quantity::Pe << Block {0, 1024, 0, 512} << true << u"524288"_s;
    QTest::newRow("1 MiB: 1024 x 512 output")
        << small << Quantity::Output << Block {0, 1024, 0, 512} << true << u"524288"_s;
    QTest::newRow("1 MiB: 513 x 512 input")
        << small << Quantity::Input << Block {0, 513, 0, 512} << true << u"262656"_s;
    QTest::newRow("1 MiB: 512 x 512 pe, exactly the budget")
        << small << Quantity::Pe << Block {0, 512, 0, 512} << false << QString();
    QTest::newRow("1 MiB: 4096 x 4096 similarity")
        << small << Quantity::Similarity << Block {0, 4096, 0, 4096} << true << QString();
    Params huge;
    huge.dModel = 4096;
    huge.maxLen = Params::kMaxLen;
    QTest::newRow("2 GiB default: 2^24 x 4096 pe")
        << huge << Quantity::Pe << Block {0, Params::kMaxLen, 0, 4096} << true << u"68719476736"_s;
    QTest::newRow("2 GiB default: 2^24 x 2^24 similarity")
        << huge << Quantity::Similarity << Block {0, Params::kMaxLen, 0, Params::kMaxLen} << true << QString();
    QTest::newRow("2 GiB default: 2^17 x 4096 mask, exactly 2 GiB")
        << huge << Quantity::Mask << Block {0, std::int64_t(1) << 17, 0, 4096} << false << QString();
    QTest::newRow("2 GiB default: 2^17 + 1 rows")
        << huge << Quantity::Mask << Block {0, (std::int64_t(1) << 17) + 1, 0, 4096} << true << u"536875008"_s;
}

// Over the budget: refused with a message that gives the cells and GiB.
void TestEngine::checkRefusesOverBudget()
{
    QFETCH(Params, params);
    QFETCH(Quantity, quantity);
    QFETCH(Block, block);
    QFETCH(bool, refused);
    QFETCH(QString, cells);
    const Engine engine(params);
    const std::optional<QString> error = engine.check(quantity, block);
    QCOMPARE(error.has_value(), refused);
    if (!refused)
        return;
    QVERIFY2(error->contains(u"GiB"_s), qPrintable(*error));
    if (!cells.isEmpty())
        QVERIFY2(error->contains(cells), qPrintable(u"'%1' should give the cells, %2"_s.arg(*error, cells)));
}

void TestEngine::memoryBudgetHelpers()
{
    QCOMPARE(MemoryBudget::bytesFor(0), std::uint64_t(0));
    QCOMPARE(MemoryBudget::bytesFor(10), std::uint64_t(40));
    QCOMPARE(MemoryBudget::bytesFor(std::uint64_t(1) << 61), std::uint64_t(1) << 63);
    QCOMPARE(MemoryBudget::bytesFor(std::uint64_t(1) << 62), std::numeric_limits<std::uint64_t>::max());
    QCOMPARE(MemoryBudget::bytesFor(std::numeric_limits<std::uint64_t>::max()),
             std::numeric_limits<std::uint64_t>::max());
    QVERIFY(!MemoryBudget::check(100, 400, u"x"_s));
    const std::optional<QString> over = MemoryBudget::check(101, 400, u"the table"_s);
    QVERIFY(over);
    QVERIFY2(over->contains(u"101"_s) && over->contains(u"GiB"_s), qPrintable(*over));
    const std::optional<QString> overflow
        = MemoryBudget::check(std::numeric_limits<std::uint64_t>::max(), 1u << 30, u"t"_s);
    QVERIFY(overflow);
    QVERIFY2(overflow->contains(u"18446744073709551615"_s), qPrintable(*overflow));
    const QString two = MemoryBudget::formatGiB(std::uint64_t(2) << 30);
    QVERIFY2(two.contains(u"2"_s) && two.contains(u"GiB"_s), qPrintable(two));
}

// The longest table the parameters allow: its last rows and columns, against float64.
void TestEngine::farEndOfLongestTable()
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

QTEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
