// RowSampling: the passes grow about 8-fold to every row; every pass spreads its runs over the
// block (at least one row per grid row, each stratum one run) at jittered offsets.
#include "render/data/RowSampling.h"
#include "support/TestMain.h"

#include <QTest>

#include <set>

namespace tst_rowsampling {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestRowSampling : public QObject
{
    Q_OBJECT

private slots:
    void passesGrowToEveryRow();
    void everyGridRowHasRowsNearIt();
    void offsetsAreJittered();
    void smallBlocksTakeOnePass();
};

void TestRowSampling::passesGrowToEveryRow()
{
    // 10^6 rows of 1000 columns on 500 grid rows, a first pass of ~10^5 cells: 100 rows, but at
    // least one per grid row (500), then 8 times more each pass.
    const RowSampling sampling(1000, 1000000, 1000, 2000.0, 100000);
    const int passes = sampling.passCount();
    QCOMPARE(passes, 5); // 1/2000, 8/2000, 64/2000, 512/2000, 1
    std::int64_t previous = 0;
    for (int pass = 0; pass < passes; ++pass) {
        std::int64_t rows = 0;
        for (const RowRun &run : sampling.runs(pass))
            rows += run.rows;
        // About 8 times more each pass, the last one whatever is left.
        QVERIFY2(rows > previous * (pass + 1 < passes ? 6 : 1), qPrintable(u"pass %1: %2 rows"_s.arg(pass).arg(rows)));
        previous = rows;
    }
    const std::vector<RowRun> last = sampling.runs(passes - 1);
    QCOMPARE(last.size(), std::size_t(1));
    QCOMPARE(last.front().row0, 1000);
    QCOMPARE(last.front().rows, 1000000);
    QCOMPARE(sampling.runs(passes + 5).front().rows, 1000000); // past the last: the last
}

void TestRowSampling::everyGridRowHasRowsNearIt()
{
    const RowSampling sampling(0, 777777, 64, 777777.0 / 333.0, 1);
    for (int pass = 0; pass + 1 < sampling.passCount(); ++pass) {
        const std::vector<RowRun> runs = sampling.runs(pass);
        std::int64_t end = 0;
        std::set<std::int64_t> gridRows;
        for (const RowRun &run : runs) {
            QVERIFY(run.rows >= 1 && run.rows <= RowSampling::kMaxRun);
            QVERIFY(run.row0 >= end); // in order, disjoint, inside the block
            end = run.row0 + run.rows;
            QVERIFY(end <= 777777);
            for (std::int64_t r = run.row0; r < end; ++r)
                gridRows.insert(r * 333 / 777777);
        }
        QCOMPARE(gridRows.size(), std::size_t(333));
    }
}

void TestRowSampling::offsetsAreJittered()
{
    // One row in each stratum of 1000: a stride would put them all at the same offset.
    const RowSampling sampling(0, 1000000, 10, 1000.0, 1);
    std::set<std::int64_t> offsets;
    for (const RowRun &run : sampling.runs(0))
        offsets.insert(run.row0 % 1000);
    QVERIFY2(offsets.size() > 500, qPrintable(QString::number(offsets.size())));
}

void TestRowSampling::smallBlocksTakeOnePass()
{
    QCOMPARE(RowSampling(0, 5000, 100, 10.0, 500000).passCount(), 1);
    QCOMPARE(RowSampling(0, 300, 100000, 1.0, 1).passCount(), 1); // a row per grid row is every row
}

POSENC_TEST_MAIN(TestRowSampling)
} // namespace tst_rowsampling
#include "tst_rowsampling.moc"
