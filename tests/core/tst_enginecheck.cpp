// Engine::check(): refusing blocks outside the table or over the memory budget, and the memory
// budget's arithmetic (docs/ARCHITECTURE.md, Layers and Errors are values).

#include "core/Engine.h"
#include "core/MemoryBudget.h"
#include "core/Quantity.h"
#include "support/TestMain.h"

#include <QTest>

#include <limits>

namespace tst_enginecheck {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestEngineCheck : public QObject
{
    Q_OBJECT

private slots:
    void checkRejectsBlocksOutside_data();
    void checkRejectsBlocksOutside();
    void checkAcceptsBlocksInside_data();
    void checkAcceptsBlocksInside();
    void checkRefusesOverBudget_data();
    void checkRefusesOverBudget();
    void memoryBudgetHelpers();
};

void TestEngineCheck::checkRejectsBlocksOutside_data()
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

void TestEngineCheck::checkRejectsBlocksOutside()
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

void TestEngineCheck::checkAcceptsBlocksInside_data()
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

void TestEngineCheck::checkAcceptsBlocksInside()
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

void TestEngineCheck::checkRefusesOverBudget_data()
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
void TestEngineCheck::checkRefusesOverBudget()
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

void TestEngineCheck::memoryBudgetHelpers()
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
    // Before: a table of 2 MiB "(0.00 GiB), over the memory budget of 0.00 GiB".
    QCOMPARE(MemoryBudget::formatGiB(std::uint64_t(2) << 20), u"0.00195 GiB"_s);
    QCOMPARE(MemoryBudget::formatGiB(1), u"9.31e-10 GiB"_s);
    QCOMPARE(MemoryBudget::formatGiB(0), u"0 GiB"_s);
    // A need just over the budget is told apart from it: once "(0.01 GiB), over the memory budget of
    // 0.01 GiB" for 11.9 MB over 10.7 MB (--memory-budget 0.01).
    const std::uint64_t budget = std::uint64_t(std::llround(0.01 * double(1u << 30)));
    const std::optional<QString> near = MemoryBudget::check(2981888, budget, u"t"_s);
    QVERIFY(near);
    QVERIFY2(near->contains(u"(0.0111 GiB), over the memory budget of 0.01 GiB"_s), qPrintable(*near));
    const std::optional<QString> byte = MemoryBudget::check(2, 4, u"t"_s);
    QVERIFY(byte);
    QVERIFY2(byte->contains(u"(7.45e-09 GiB), over the memory budget of 3.73e-09 GiB"_s), qPrintable(*byte));
}

POSENC_TEST_GUILESS_MAIN(TestEngineCheck)
} // namespace tst_enginecheck
#include "tst_enginecheck.moc"
