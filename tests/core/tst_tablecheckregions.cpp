// A table equal to a family's reference but for a region (docs/ARCHITECTURE.md, Checking a table:
// a region changed): a block of columns off by a constant, overwritten by one value, moved or
// rolled by rows, a causal ALiBi bias with 0 where its mask holds -inf, a rope-cos table whose
// second half is a row late. Each was called learned; each is a mistake named by what the region holds, its columns
// named. Cells changed otherwise (a block of columns at other frequencies, as a scaling the check
// may not know) are unknown, never a mistake; a learned table stays learned. The tables are
// written here from float64 formulas (CheckTables.h; get_slopes, tests/support/AlibiReference.h).
#include "CheckTables.h"
#include "support/AlibiReference.h"
#include "support/TestMain.h"

#include "check/DeclaredReading.h"
#include "check/TableMatch.h"

#include <QtTest>

#include <cmath>

namespace tst_tablecheckregions {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

constexpr std::int64_t kRows = 256, kCols = 64;

// The paper's interleaved sinusoid, cells (p, j) of columns from `from` on changed by `change`.
RowMatrixXf sinusoid(std::int64_t from, const std::function<double(std::int64_t, std::int64_t, double)> &change)
{
    return table(kRows, kCols, [&](std::int64_t p, std::int64_t j) {
        const double cell = paper(p, j, kCols, 10000.0, false);
        return j >= from ? change(p, j, cell) : cell;
    });
}

} // namespace

class TestTableCheckRegions : public QObject
{
    Q_OBJECT

private slots:
    void regionNamed_data();
    void regionNamed();
    void causalAlibiWithoutItsMask_data();
    void causalAlibiWithoutItsMask();
    void ropeHalfARowLate();
    void otherFrequenciesAreUnknown();
    void learnedStaysLearned();
    void oneCellStillOneCell();
    void zeroRowsNamed_data();
    void zeroRowsNamed();
    void zerosAtPositionZeroAreNoOverwrite();
    void constantRowsNamed_data();
    void constantRowsNamed();
    void learnedWithZeroRowsStaysLearned();
    void aRelativeMapIsNotLearned();
};

void TestTableCheckRegions::regionNamed_data()
{
    QTest::addColumn<std::int64_t>("from");
    QTest::addColumn<std::function<double(std::int64_t, std::int64_t, double)>>("change");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("words");
    using Change = std::function<double(std::int64_t, std::int64_t, double)>;
    QTest::newRow("half the columns + 1e-4")
        << std::int64_t(32) << Change([](auto, auto, double c) { return c + 1e-4; }) << u"cells-offset"_s
        << u"plus 0.0001"_s;
    QTest::newRow("12 columns + 1e-3") << std::int64_t(52) << Change([](auto, auto, double c) { return c + 1e-3; })
                                       << u"cells-offset"_s << u"plus 0.001"_s;
    QTest::newRow("24 columns zeroed") << std::int64_t(40) << Change([](auto, auto, double) { return 0.0; })
                                       << u"cells-overwritten"_s << u"all hold 0"_s;
    QTest::newRow("half the columns a row late")
        << std::int64_t(32) << Change([](std::int64_t p, std::int64_t j, double c) {
               return p == 0 ? c : paper(p - 1, j, kCols, 10000.0, false);
           })
        << u"cells-shifted"_s << u"from 1 row above"_s;
    // numpy.roll's: the last row comes round to the first.
    QTest::newRow("20 columns rolled 2 rows up")
        << std::int64_t(44) << Change([](std::int64_t p, std::int64_t j, double) {
               return paper((p + 2) % kRows, j, kCols, 10000.0, false);
           })
        << u"cells-shifted"_s << u"from 2 rows below"_s;
}

void TestTableCheckRegions::regionNamed()
{
    QFETCH(std::int64_t, from);
    QFETCH(std::function<double(std::int64_t, std::int64_t, double)>, change);
    QFETCH(QString, id);
    QFETCH(QString, words);
    const Checked c = check(sinusoid(from, change));
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
    QCOMPARE(c.match.mistakes, QStringList {id});
    QVERIFY2(c.match.diagnosis.contains(words), qPrintable(c.match.diagnosis));
    QVERIFY2(c.match.diagnosis.contains(u"sinusoidal, interleaved"_s), qPrintable(c.match.diagnosis));
    std::vector<std::int64_t> changed;
    for (std::int64_t j = from; j < kCols; ++j)
        changed.push_back(j);
    // A zero where the sinusoid holds 0 already (sin 0 in row 0) is no change: the columns are the
    // block's all the same.
    QVERIFY2(c.match.deviations.startsWith(columnWords(changed, kCols)), qPrintable(c.match.deviations));
}

void TestTableCheckRegions::causalAlibiWithoutItsMask_data()
{
    QTest::addColumn<qint64>("length");
    QTest::addColumn<qint64>("heads");
    QTest::addColumn<qint64>("head");
    QTest::newRow("L 96, head 3 of 8") << qint64(96) << qint64(8) << qint64(3);
    // A square table's first rows, which the sample reads most of, are mostly after the query: the
    // mask's region is more than half of the sampled cells (issue 62: called unknown).
    QTest::newRow("L 200, head 17 of 32") << qint64(200) << qint64(32) << qint64(17);
    QTest::newRow("L 1024, head 1 of 8") << qint64(1024) << qint64(8) << qint64(1);
}

void TestTableCheckRegions::causalAlibiWithoutItsMask()
{
    // get_slopes(H)'s head K, m (j - i) at and before the query; after it 0 where the causal
    // table holds -inf.
    QFETCH(qint64, length);
    QFETCH(qint64, heads);
    QFETCH(qint64, head);
    const double m = alibiref::slopes(heads)[std::size_t(head - 1)];
    const RowMatrixXf t
        = table(length, length, [&](std::int64_t i, std::int64_t j) { return j > i ? 0.0 : m * double(j - i); });
    const Checked c = check(t);
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
    QCOMPARE(c.match.mistakes, QStringList {u"cells-overwritten"_s});
    QVERIFY2(c.match.diagnosis.contains(u"hold 0 where it holds −inf"_s), qPrintable(c.match.diagnosis));
    QCOMPARE(c.match.table, u"alibi-bias"_s);
}

void TestTableCheckRegions::ropeHalfARowLate()
{
    // HF's cos cache, split layout: column j < 32 is cos(p w_j), column j >= 32 repeats it; the
    // repeated half a row late.
    const RowMatrixXf t = table(kRows, kCols, [](std::int64_t p, std::int64_t j) {
        const std::int64_t pair = j % 32;
        const std::int64_t at = j >= 32 && p > 0 ? p - 1 : p;
        return std::cos(double(at) * std::pow(10000.0, -2.0 * double(pair) / double(kCols)));
    });
    const Checked c = check(t);
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QVERIFY2(c.match.verdict != CheckVerdict::Learned && c.match.verdict != CheckVerdict::Correct,
             qPrintable(c.match.diagnosis));
}

void TestTableCheckRegions::otherFrequenciesAreUnknown()
{
    // The slowest 16 pairs at half their frequency: what a scaling does to the slow pairs alone
    // (Llama 3's). Not a change no computation makes: never a mistake, never learned.
    const Checked c = check(sinusoid(32, [](std::int64_t p, std::int64_t j, double) {
        const double angle = double(p) * 0.5 * std::pow(10000.0, -2.0 * double(j / 2) / double(kCols));
        return j % 2 == 1 ? std::cos(angle) : std::sin(angle);
    }));
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.match.verdict, CheckVerdict::Unknown);
    QVERIFY2(c.match.mistakes.isEmpty(), qPrintable(c.match.mistakes.join(u", "_s)));
    QVERIFY2(c.match.diagnosis.contains(u"most of the table equals sinusoidal"_s), qPrintable(c.match.diagnosis));
    QVERIFY2(c.match.deviations.startsWith(u"columns"_s), qPrintable(c.match.deviations));
}

void TestTableCheckRegions::learnedStaysLearned()
{
    const Checked c = check(roberta(512, kCols, 7));
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.match.verdict, CheckVerdict::Learned);
}

void TestTableCheckRegions::oneCellStillOneCell()
{
    RowMatrixXf t = sinusoid(kCols, {});
    t(5, 7) += 1e-3f;
    const Checked c = check(t);
    QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
    QVERIFY2(c.match.mistakes.isEmpty(), qPrintable(c.match.mistakes.join(u", "_s)));
    QVERIFY2(c.match.diagnosis.startsWith(u"one cell deviates: row 5, column 7"_s), qPrintable(c.match.diagnosis));
}

namespace {

// As posenc check and the window check a table: identified, then streamed (streamDeclared); `given`
// as if the user had declared the reference the table was identified as.
TableMatch streamed(const RowMatrixXf &t, bool given)
{
    const MatrixRows file(std::make_shared<const RowMatrixXf>(t), StoredType::Float32, u"test"_s);
    auto identified = TableCheck::identify(file, {});
    if (!std::holds_alternative<TableMatch>(identified))
        return {};
    TableCheck::DeclaredRows declared {
        {std::get<TableMatch>(std::move(identified))}, std::nullopt, std::nullopt, {}, {}};
    declared.referenceGiven = given;
    auto done = TableCheck::streamDeclared(std::move(declared), file, {});
    return std::holds_alternative<TableCheck::Streamed>(done) ? std::get<TableCheck::Streamed>(std::move(done)).match
                                                              : TableMatch();
}

} // namespace

// Rows of zeros in a sinusoid (a buffer filled in part, a padding mask multiplied in): no
// sinusoid's row is all zeros, yet 8 such rows of 128 pulled the fit off every frequency and the
// table read as learned. Read around them, the rows are said, whichever layout and wherever they
// lie: undeclared unknown (a masked position term holds them faithfully), against a reference the
// user gave the mistake cells-overwritten.
void TestTableCheckRegions::zeroRowsNamed_data()
{
    QTest::addColumn<std::int64_t>("first");
    QTest::addColumn<std::int64_t>("count");
    QTest::addColumn<bool>("split");
    QTest::newRow("the last 8 of 128 rows") << std::int64_t(120) << std::int64_t(8) << false;
    QTest::newRow("the last 28 of 128 rows") << std::int64_t(100) << std::int64_t(28) << false;
    QTest::newRow("4 rows in the middle") << std::int64_t(60) << std::int64_t(4) << false;
    QTest::newRow("the last 40 rows, split layout") << std::int64_t(88) << std::int64_t(40) << true;
}

void TestTableCheckRegions::zeroRowsNamed()
{
    QFETCH(std::int64_t, first);
    QFETCH(std::int64_t, count);
    QFETCH(bool, split);
    constexpr std::int64_t rows = 128;
    const RowMatrixXf t = table(rows, kCols, [&](std::int64_t p, std::int64_t j) {
        return p >= first && p < first + count ? 0.0 : paper(p, j, kCols, 10000.0, split);
    });
    const QString reference = split ? u"sinusoidal, split"_s : u"sinusoidal, interleaved"_s;
    const QString where = u"rows %1..%2 (%3 of %4)"_s.arg(first).arg(first + count - 1).arg(count).arg(rows);
    const TableMatch undeclared = streamed(t, false);
    QCOMPARE(undeclared.verdict, CheckVerdict::Unknown);
    QVERIFY2(undeclared.mistakes.isEmpty(), qPrintable(undeclared.mistakes.join(u", "_s)));
    QVERIFY2(undeclared.diagnosis.contains(where + u", which hold 0 in every cell"_s),
             qPrintable(undeclared.diagnosis));
    QVERIFY2(undeclared.diagnosis.contains(reference), qPrintable(undeclared.diagnosis));
    const TableMatch given = streamed(t, true);
    QCOMPARE(given.verdict, CheckVerdict::Mistake);
    QCOMPARE(given.mistakes, QStringList {u"cells-overwritten"_s});
    QVERIFY2(given.diagnosis.contains(where + u", which hold 0 in every cell"_s), qPrintable(given.diagnosis));
}

// Rows of zeros a reference holds itself are no overwritten cells: HF's RoPE sin table, whose row
// at position 0 is sin 0 = 0, with its last rows gathered at position 0 (a padded batch's ids
// clamped to 0). Not cells-overwritten, and nothing says no computation gives them.
void TestTableCheckRegions::zerosAtPositionZeroAreNoOverwrite()
{
    const RowMatrixXf t = table(256, kCols, [](std::int64_t p, std::int64_t j) {
        const std::int64_t at = p >= 200 ? 0 : p;
        return std::sin(double(at) * std::pow(10000.0, -2.0 * double(j % (kCols / 2)) / double(kCols)));
    });
    for (const bool given : {false, true}) {
        const TableMatch m = streamed(t, given);
        QVERIFY2(!m.mistakes.contains(u"cells-overwritten"_s), qPrintable(m.diagnosis));
        QVERIFY2(!m.diagnosis.contains(u"no computation of it gives"_s), qPrintable(m.diagnosis));
        QVERIFY2(!m.diagnosis.contains(u"which hold 0 in every cell"_s), qPrintable(m.diagnosis));
    }
}

// Rows in the middle overwritten by one value throughout (a cache filled with a constant, or with
// torch.ones, and never written there): cells-overwritten, the rows named, not positions read.
// A value no reference row holds (0.5) is named undeclared too; the value of the reference's row at
// position 0 (a cos cache's ones, a sin cache's zeros) only against a reference given, since an id
// clamped to 0 gives that row as well (the rows around it at their own positions said).
void TestTableCheckRegions::constantRowsNamed_data()
{
    QTest::addColumn<bool>("cosine");
    QTest::addColumn<double>("value");
    QTest::addColumn<std::int64_t>("first");
    QTest::addColumn<std::int64_t>("count");
    QTest::addColumn<bool>("undeclaredNamed");
    QTest::newRow("cos, 3 rows of 0.5") << true << 0.5 << std::int64_t(100) << std::int64_t(3) << true;
    QTest::newRow("cos, 4 rows of ones") << true << 1.0 << std::int64_t(120) << std::int64_t(4) << false;
    QTest::newRow("sin, one row of zeros") << false << 0.0 << std::int64_t(150) << std::int64_t(1) << false;
}

void TestTableCheckRegions::constantRowsNamed()
{
    QFETCH(bool, cosine);
    QFETCH(double, value);
    QFETCH(std::int64_t, first);
    QFETCH(std::int64_t, count);
    QFETCH(bool, undeclaredNamed);
    const RowMatrixXf t = table(256, kCols, [&](std::int64_t p, std::int64_t j) {
        if (p >= first && p < first + count)
            return value;
        const double angle = double(p) * std::pow(10000.0, -2.0 * double(j % (kCols / 2)) / double(kCols));
        return cosine ? std::cos(angle) : std::sin(angle);
    });
    const QString where = count == 1 ? u"row %1 (1 of 256)"_s.arg(first)
                                     : u"rows %1..%2 (%3 of 256)"_s.arg(first).arg(first + count - 1).arg(count);
    const TableMatch given = streamed(t, true);
    QCOMPARE(given.verdict, CheckVerdict::Mistake);
    QCOMPARE(given.mistakes, QStringList {u"cells-overwritten"_s});
    QVERIFY2(given.diagnosis.contains(where + u", which hold %1 in every cell"_s.arg(value)),
             qPrintable(given.diagnosis));
    const TableMatch undeclared = streamed(t, false);
    QCOMPARE(undeclared.verdict, CheckVerdict::Mistake);
    QCOMPARE(undeclared.mistakes.contains(u"cells-overwritten"_s), undeclaredNamed);
    QVERIFY2(!undeclared.mistakes.contains(u"positions-out-of-order"_s), qPrintable(undeclared.diagnosis));
}

void TestTableCheckRegions::learnedWithZeroRowsStaysLearned()
{
    RowMatrixXf t = roberta(512, kCols, 7);
    t.bottomRows(40).setZero();
    const Checked c = check(t);
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.match.verdict, CheckVerdict::Learned);
}

// An L x L map of buckets that is a function of j − i alone but no T5 map (candle#727: the
// buckets linear and unbounded, i − j before the query and 16 + j − i after it, no log branch):
// its neighbouring rows point the same way, yet it is no table of trained position vectors. It read
// as learned; now unknown, said as a relative map.
void TestTableCheckRegions::aRelativeMapIsNotLearned()
{
    const RowMatrixXf t
        = table(256, 256, [](std::int64_t i, std::int64_t j) { return j >= i ? 16.0 + double(j - i) : double(i - j); });
    const Checked c = check(t);
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    QCOMPARE(c.match.verdict, CheckVerdict::Unknown);
    QVERIFY2(c.match.diagnosis.contains(u"a function of the distance j − i alone"_s), qPrintable(c.match.diagnosis));
}

POSENC_TEST_GUILESS_MAIN(TestTableCheckRegions)
} // namespace tst_tablecheckregions
#include "tst_tablecheckregions.moc"
