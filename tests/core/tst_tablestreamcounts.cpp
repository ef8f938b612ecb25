// The stream's counts of what deviates: each deviating row once, however many column tiles and
// threads it spans (a split table's halves are two tiles), never more rows than were compared.
// Tables are the paper's sinusoid (CheckTables.h, float64) with every cell of some rows moved by
// 0.5, compared with exactly the paper's sinusoid (TableCheck::expect): the counts are known here.
#include "CheckTables.h"
#include "support/TestMain.h"

#include "check/TableCheck.h"
#include "check/TableMatch.h"

#include <QtTest>

namespace tst_tablestreamcounts {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

class TestTableStreamCounts : public QObject
{
    Q_OBJECT

private slots:
    void eachRowOnce_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("cols");
        QTest::addColumn<qint64>("every"); // rows r with r % every == 0 are moved
        QTest::addColumn<int>("threads");
        QTest::addColumn<bool>("split");
        for (const bool split : {false, true}) {
            const char *layout = split ? "split" : "interleaved";
            QTest::addRow("%s 1024 x 128, every row, 2 threads", layout)
                << qint64(1024) << qint64(128) << qint64(1) << 2 << split;
            QTest::addRow("%s 1024 x 128, every row, 1 thread", layout)
                << qint64(1024) << qint64(128) << qint64(1) << 1 << split;
            QTest::addRow("%s 300 x 2048, every row, 2 threads", layout)
                << qint64(300) << qint64(2048) << qint64(1) << 2 << split;
            QTest::addRow("%s 300 x 2048, every third row, 1 thread", layout)
                << qint64(300) << qint64(2048) << qint64(3) << 1 << split;
            QTest::addRow("%s 64 x 8192, every row, 4 threads", layout)
                << qint64(64) << qint64(8192) << qint64(1) << 4 << split;
            QTest::addRow("%s 2000 x 512, every seventh row, 3 threads", layout)
                << qint64(2000) << qint64(512) << qint64(7) << 3 << split;
        }
    }
    void eachRowOnce()
    {
        QFETCH(qint64, rows);
        QFETCH(qint64, cols);
        QFETCH(qint64, every);
        QFETCH(int, threads);
        QFETCH(bool, split);
        const MatrixRows table(std::make_shared<const RowMatrixXf>(checktables::table(
                                   rows, cols,
                                   [&](std::int64_t p, std::int64_t j) {
                                       return paper(p, j, cols, 10000.0, split) + (p % every == 0 ? 0.5 : 0.0);
                                   })),
                               StoredType::Float32, u"test"_s, 0.0);
        Params params;
        params.encoding = Encoding::Sinusoidal;
        params.dModel = cols;
        params.maxLen = rows;
        params.sinusoidal.layout = split ? Layout::Split : Layout::Interleaved;
        TableCheck::StreamOptions options;
        options.threads = threads;
        options.chunkBytes = std::uint64_t(64) << 10; // the least: many chunks and tiles
        const Checked c
            = concluded(table, TableCheck::expect(table, Encoding::Sinusoidal, params, u"sinusoidal"_s), options);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableCheck::Verification &v = c.verification;
        const qint64 moved = (rows + every - 1) / every;
        QCOMPARE(v.comparedRows, rows);
        QCOMPARE(v.deviatingRows, moved);
        QCOMPARE(v.deviatingCells, moved * cols);
        QVERIFY2(c.match.deviations.contains(u"(%1 of %2)"_s.arg(moved).arg(rows)) || moved <= 8,
                 qPrintable(c.match.deviations));
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableStreamCounts)
} // namespace tst_tablestreamcounts
#include "tst_tablestreamcounts.moc"
