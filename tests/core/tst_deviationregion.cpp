// Where a deviation lies, in words (check/DeviationRegion, issue 56): the deviating rows as the
// stream meets them gathered into runs at one step, the columns and the cells among them, each
// set written here row by row and its words compared whole.
#include "check/DeviationRegion.h"
#include "support/TestMain.h"

#include <QtTest>

#include <cstdint>
#include <vector>

namespace tst_deviationregion {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

RowRuns runsOf(const std::vector<std::int64_t> &rows)
{
    RowRuns runs;
    for (const std::int64_t r : rows)
        runs.add(r);
    return runs;
}

std::vector<std::int64_t> range(std::int64_t from, std::int64_t to, std::int64_t step = 1)
{
    std::vector<std::int64_t> out;
    for (std::int64_t r = from; r <= to; r += step)
        out.push_back(r);
    return out;
}

std::vector<std::int64_t> joined(std::vector<std::int64_t> a, const std::vector<std::int64_t> &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

} // namespace

class TestDeviationRegion : public QObject
{
    Q_OBJECT

private slots:
    void rowWords_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("rows");
        QTest::addColumn<QString>("words");
        QTest::newRow("odd rows") << range(1, 255, 2) << u"every odd row (1, 3, ..., 255: 128 of 256)"_s;
        QTest::newRow("even rows") << range(0, 254, 2) << u"every even row (0, 2, ..., 254: 128 of 256)"_s;
        QTest::newRow("a block") << range(64, 127) << u"rows 64..127 (64 of 256)"_s;
        QTest::newRow("one row") << std::vector<std::int64_t> {12} << u"row 12 (1 of 256)"_s;
        QTest::newRow("two rows") << std::vector<std::int64_t> {12, 40} << u"rows 12 and 40 (2 of 256)"_s;
        // A row before a block is a run of its own, not a step to the block's first row.
        QTest::newRow("a row, then a block") << joined({5}, range(64, 127)) << u"row 5 and rows 64..127 (65 of 256)"_s;
        QTest::newRow("a block, then every third row")
            << joined(range(3, 10), range(100, 199, 3))
            << u"rows 3..10 and every third row from 100 to 199 (42 of 256)"_s;
        QTest::newRow("every second row of a stretch")
            << range(100, 200, 2) << u"every second row from 100 to 200 (51 of 256)"_s;
        QTest::newRow("every row") << range(0, 255) << u"every row (256)"_s;
        // English ordinals: "22th" was written for 22nd.
        QTest::newRow("every 22nd row") << range(0, 242, 22) << u"every 22nd row from 0 to 242 (12 of 256)"_s;
        QTest::newRow("every 11th row") << range(0, 242, 11) << u"every 11th row from 0 to 242 (23 of 256)"_s;
        // More runs than are kept: the first, then "scattered".
        QTest::newRow("scattered") << std::vector<std::int64_t> {0, 1, 3, 7, 15, 31, 63, 127, 200, 210, 255}
                                   << u"rows 0..1, row 3, row 7, row 15, row 31, row 63, row 127, row 200, ... (11 of "
                                      "256, scattered)"_s;
    }
    void rowWords()
    {
        QFETCH(std::vector<std::int64_t>, rows);
        QFETCH(QString, words);
        QCOMPARE(DeviationRegion::rowWords(runsOf(rows), std::int64_t(rows.size()), 256, 256), words);
    }

    void runsAreKeptWithinTheirBound()
    {
        // Every other row a run of one apart: far more runs than kept, the memory the same.
        RowRuns runs;
        for (std::int64_t r = 0; r < 100000; r += 1 + (r % 7))
            runs.add(r);
        QVERIFY(runs.scattered);
        QVERIFY(runs.runs.size() <= RowRuns::kMostRuns);
    }

    void columnWords_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("deviations");
        QTest::addColumn<QString>("words");
        std::vector<std::int64_t> band(64, 0);
        for (int c = 32; c < 64; ++c)
            band[std::size_t(c)] = 3;
        QTest::newRow("a band") << band << u"columns 32..63 (32 of 64)"_s;
        QTest::newRow("every column") << std::vector<std::int64_t>(8, 1) << u"every column (8)"_s;
        std::vector<std::int64_t> one(64, 0);
        one[7] = 1;
        QTest::newRow("one column") << one << u"column 7 (1 of 64)"_s;
        std::vector<std::int64_t> two(64, 0);
        for (int c : {8, 9, 10, 40, 41, 42})
            two[std::size_t(c)] = 2;
        QTest::newRow("a pair's two copies") << two << u"columns 8..10, 40..42 (6 of 64)"_s;
    }
    void columnWords()
    {
        QFETCH(std::vector<std::int64_t>, deviations);
        QFETCH(QString, words);
        QCOMPARE(DeviationRegion::columnWords(deviations), words);
    }

    void where()
    {
        // Rows 64..127 in columns 32..63, every cell: 64 x 32 of them.
        std::vector<std::int64_t> band(64, 0);
        for (int c = 32; c < 64; ++c)
            band[std::size_t(c)] = 64;
        const RowRuns block = runsOf(range(64, 127));
        QCOMPARE(DeviationRegion::where({block, 64, 256, band, 64 * 32, 256}),
                 u"in rows 64..127 (64 of 256) and columns 32..63 (32 of 64), every cell of them"_s);
        // The same rows and columns, fewer cells: not all of them.
        QCOMPARE(DeviationRegion::where({block, 64, 256, band, 100, 256}),
                 u"in rows 64..127 (64 of 256) and columns 32..63 (32 of 64), 100 of their 2048 cells"_s);
        std::vector<std::int64_t> one(64, 0);
        one[5] = 1;
        QCOMPARE(DeviationRegion::where({runsOf({100}), 1, 256, one, 1, 256}), u"one cell, row 100, column 5"_s);
    }

    void unexplainedSaysSo()
    {
        std::vector<std::int64_t> all(4, 128);
        const RowRuns odd = runsOf(range(1, 255, 2));
        TableMatch m;
        m.diagnosis = u"512 cells deviate"_s;
        DeviationRegion::sayUnexplained(m, u"RoPE"_s, {odd, 128, 256, all, 512, 256});
        QCOMPARE(m.diagnosis,
                 u"no parameter of RoPE explains it: 512 cells deviate; they lie in every odd row (1, 3, "
                 "..., 255: 128 of 256) and every column (4), every cell of them"_s);
        TableMatch t;
        t.diagnosis = u"512 cells deviate"_s;
        DeviationRegion::sayUnexplained(t, QString(), {odd, 128, 256, all, 512, 256});
        QVERIFY(t.diagnosis.startsWith(u"no mistake the check knows explains it: 512 cells deviate; they lie in"_s));
    }
};

POSENC_TEST_APPLESS_MAIN(TestDeviationRegion)
} // namespace tst_deviationregion
#include "tst_deviationregion.moc"
