// The check of tables that are neither sinusoids nor RoPE tables, and the window's API: random
// numbers are unknown, a RoBERTa-shaped learned table reads positions from row 2, and any block
// of |table - reference| comes with its per-column maximum, on a worker thread too.
#include "core/CheckTables.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"

#include <QtTest>

#include <cmath>

namespace tst_tablechecklearned {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

class TestTableCheckLearned : public QObject
{
    Q_OBJECT

private slots:
    void randomNumbersAreUnknown_data()
    {
        QTest::addColumn<unsigned>("seed");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("cols");
        QTest::newRow("512 x 64") << 1u << qint64(512) << qint64(64);
        QTest::newRow("4096 x 128") << 2u << qint64(4096) << qint64(128);
        QTest::newRow("300 x 7") << 3u << qint64(300) << qint64(7);
    }
    void randomNumbersAreUnknown()
    {
        QFETCH(unsigned, seed);
        QFETCH(qint64, rows);
        QFETCH(qint64, cols);
        const Checked c = check(random(rows, cols, seed));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.match.verdict, CheckVerdict::Unknown);
        QVERIFY(c.match.table.isEmpty());
        QVERIFY(!c.match.family);
        QVERIFY(!c.match.maxAbsError);
        QVERIFY(c.match.diagnosis.contains(u"random"_s));
    }

    void robertaShapedTableStartsAtRowTwo()
    {
        const Checked c = check(roberta(514, 96, 7));
        QCOMPARE(c.match.table, u"learned"_s);
        QCOMPARE(*c.match.family, Encoding::Learned);
        // No formula to compare with: learned, never correct.
        QCOMPARE(c.match.verdict, CheckVerdict::Learned);
        QVERIFY(c.match.correctAgainst.isEmpty());
        // The nearest formula and its error, however far.
        QVERIFY(c.match.notes.join(u'\n').contains(u"nearest sinusoidal reference"_s));
        QCOMPARE(*c.match.firstPositionRow, qint64(2));
        QCOMPARE(*c.match.positionOffset, qint64(-2));
        QVERIFY(c.match.params.has_value());
        QCOMPARE(c.match.params->learned.offset, qint64(2));
        QVERIFY(c.match.notes.join(u'\n').contains(u"row 1: zeros"_s));
    }

    // transformers#20761: the table read from row 0.
    void readWithoutItsOffset()
    {
        TableCheck::Declared declared = declaring(u"position-offset"_s, [](Params &p) { p.learned.offset = 0; });
        const Checked c = check(roberta(514, 96, 7), StoredType::Float32, declared);
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(c.match.mistakes, QStringList {u"position-offset"_s});
        // The offset declared as it is: still learned, an offset is no reference to compare cells with.
        declared.params.learned.offset = 2;
        QCOMPARE(check(roberta(514, 96, 7), StoredType::Float32, declared).match.verdict, CheckVerdict::Learned);
    }

    void zerosAreUnknown()
    {
        const Checked c = check(RowMatrixXf::Zero(100, 8));
        QCOMPARE(c.match.verdict, CheckVerdict::Unknown);
    }

    void emptyTablesAreRefused()
    {
        QVERIFY(check(RowMatrixXf(10, 0)).error.contains(u"no columns"_s));
        QVERIFY(check(RowMatrixXf(0, 10)).error.contains(u"no rows"_s));
    }

    // The window's heatmap: any block of |table - reference|, and the largest per column.
    void errorBlocks()
    {
        const std::int64_t d = 32;
        RowMatrixXf values
            = table(3000, d, [&](std::int64_t p, std::int64_t j) { return paper(p, j, d, 10000.0, false); });
        values(2100, 5) += 0.25f;
        const auto rows = std::make_shared<const MatrixRows>(std::make_shared<const RowMatrixXf>(values),
                                                             StoredType::Float32, u"t"_s);
        auto identified = TableCheck::identify(*rows, {});
        const TableMatch match = std::get<TableMatch>(identified);
        const Block block {2000, 200, 4, 4};
        const auto direct = TableCheck::errorBlock(match, *rows, block);
        const auto &error = std::get<TableCheck::ErrorBlock>(direct);
        QCOMPARE(error.error.rows(), qint64(200));
        QCOMPARE(error.error.cols(), qint64(4));
        QVERIFY(std::fabs(error.error(100, 1) - 0.25f) < 1e-6f);
        QVERIFY(std::fabs(error.columnMax[1] - 0.25f) < 1e-6f);
        QVERIFY(error.columnMax[0] < 1.2e-7f);
        // The same, computed on a worker thread.
        auto cancel = std::make_shared<std::atomic<bool>>(false);
        auto future = TableCheck::errorBlockAsync(rows, match, block, cancel);
        future.waitForFinished();
        const auto result = future.result();
        const auto &async = std::get<TableCheck::ErrorBlock>(result);
        QCOMPARE(async.error, error.error);
        // Cancelled before it starts, it says so.
        cancel->store(true);
        QVERIFY(std::holds_alternative<QString>(TableCheck::errorBlock(match, *rows, block, cancel.get())));
        // Outside the table: refused.
        QVERIFY(std::holds_alternative<QString>(TableCheck::errorBlock(match, *rows, {2990, 20, 0, 4})));
        // The whole table's per-column maximum, streamed on a worker thread, as verify gives it.
        auto stream = TableCheck::verifyAsync(rows, match, {}, std::make_shared<std::atomic<bool>>(false),
                                              std::make_shared<WorkProgress>());
        stream.waitForFinished();
        const TableCheck::Verification whole = stream.result();
        QVERIFY(std::fabs(whole.columnMax[5] - 0.25f) < 1e-6f);
        QCOMPARE(whole.worstRow, qint64(2100));
        QCOMPARE(whole.deviatingCells, qint64(1));
        // Cancelled, it stops and says so.
        auto stopped = TableCheck::verifyAsync(rows, match, {}, std::make_shared<std::atomic<bool>>(true));
        stopped.waitForFinished();
        QVERIFY(stopped.result().cancelled);
    }

    // The match's parameters reproduce the reference: the same table from the engine's kernel.
    void paramsReproduceTheReference()
    {
        const std::int64_t d = 64;
        const Checked c
            = check(table(1000, d, [&](std::int64_t p, std::int64_t j) { return paper(p, j, d, 2500.0, true); }));
        QVERIFY(c.match.params.has_value());
        QCOMPARE(c.match.params->sinusoidal.base, 2500.0);
        QCOMPARE(c.match.params->sinusoidal.layout, Layout::Split);
        QCOMPARE(c.match.params->dModel, d);
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableCheckLearned)
} // namespace tst_tablechecklearned
#include "tst_tablechecklearned.moc"
