// Engine: threaded results equal to serial ones bit for bit, blocks computed alone equal to the
// whole table, writing only their block, and cancellation (docs/ARCHITECTURE.md, Layers).

#include "EngineTable.h"
#include "Reference.h"
#include "support/Sanitizer.h"
#include "support/TestMain.h"

#include "core/Engine.h"
#include "core/Quantity.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <limits>

namespace tst_engineblocks {
using namespace Qt::StringLiterals;
using namespace posenc;
using testing::allQuantities;

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
    concat.sinusoidal.layout = Layout::Split;
    concat.sinusoidal.angles = Angles::Float32;
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
    masked.sinusoidal.layout = Layout::Split;
    return {{"sum", sum},
            {"concat split float32 protect-special", concat},
            {"embedding dropout", embedding},
            {"masked-fill", masked}};
}

} // namespace

class TestEngineBlocks : public QObject
{
    Q_OBJECT

private slots:
    void threadedEqualsSerial_data();
    void threadedEqualsSerial();
    void blockAloneEqualsWholeTable_data();
    void blockAloneEqualsWholeTable();
    void writesOnlyItsBlock_data();
    void writesOnlyItsBlock();
    void cancelledComputeReturnsFalse_data();
    void cancelledComputeReturnsFalse();
    void uncancelledComputeReturnsTrue();
};

void TestEngineBlocks::threadedEqualsSerial_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<Quantity>("quantity");
    for (const auto &[name, params] : parameterSets())
        for (const Quantity q : allQuantities())
            QTest::addRow("%s, %s", name, qPrintable(Quantities::name(q))) << params << q;
}

// compute() with 2 threads and with the machine's equals the serial result, bit for bit; so do
// table() and computeBlock().
void TestEngineBlocks::threadedEqualsSerial()
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

void TestEngineBlocks::blockAloneEqualsWholeTable_data()
{
    threadedEqualsSerial_data();
}

// Any block, computed alone (serially or threaded), equals the same cells of the whole table.
void TestEngineBlocks::blockAloneEqualsWholeTable()
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

void TestEngineBlocks::writesOnlyItsBlock_data()
{
    QTest::addColumn<Quantity>("quantity");
    for (const Quantity q : allQuantities())
        QTest::addRow("%s", qPrintable(Quantities::name(q))) << q;
}

// The destination may be a window into a bigger matrix (an outer stride): nothing outside it
// is written, and the window holds what a block-sized matrix gets.
void TestEngineBlocks::writesOnlyItsBlock()
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

void TestEngineBlocks::cancelledComputeReturnsFalse_data()
{
    QTest::addColumn<Quantity>("quantity");
    QTest::addColumn<int>("threads");
    for (const Quantity q : allQuantities())
        for (const int threads : {1, 2, 0})
            QTest::addRow("%s, %d threads", qPrintable(Quantities::name(q)), threads) << q << threads;
}

// A cancel flag already set: compute() returns false and table() nothing.
void TestEngineBlocks::cancelledComputeReturnsFalse()
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

void TestEngineBlocks::uncancelledComputeReturnsTrue()
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

POSENC_TEST_GUILESS_MAIN(TestEngineBlocks)
} // namespace tst_engineblocks
#include "tst_engineblocks.moc"
