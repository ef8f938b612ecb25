// `posenc check TABLE --expect-table REFERENCE` where the table is the reference with its rows moved
// by any number of rows (TableRowShift): a learned table read from position 1 where 0 is meant, a class token's
// row counted twice, a cache's offset added once too often. Named position-offset with the rows'
// move and the rows past the end said, not "no mistake the check knows explains it". The reference
// is a learned-like table (a random walk, as GPT-2's wpe rows drift) made here in float64.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>
#include <random>

namespace tst_cliexpecttableshift {
using namespace Qt::StringLiterals;

namespace {

constexpr std::int64_t kRows = 96, kCols = 24;

std::vector<double> learned()
{
    std::mt19937 engine(2029);
    std::normal_distribution<double> normal(0.0, 0.1);
    std::vector<double> t(std::size_t(kRows * kCols));
    for (std::int64_t r = 0; r < kRows; ++r)
        for (std::int64_t c = 0; c < kCols; ++c)
            t[std::size_t(r * kCols + c)] = (r > 0 ? t[std::size_t((r - 1) * kCols + c)] : 0.0) + normal(engine);
    return t;
}

enum class Past { Zeros, Kept, Rolled };

// Row r of the table: the reference's row r - by where it has one, else zeros, the reference's own
// row r, or its row r - by from the other end (np.roll).
std::vector<double> moved(const std::vector<double> &ref, std::int64_t by, Past past)
{
    const bool zeros = past == Past::Zeros;
    std::vector<double> t(ref.size());
    for (std::int64_t r = 0; r < kRows; ++r) {
        const std::int64_t from = r - by;
        for (std::int64_t c = 0; c < kCols; ++c) {
            const bool inside = from >= 0 && from < kRows;
            const std::int64_t rolled = ((from % kRows) + kRows) % kRows;
            t[std::size_t(r * kCols + c)] = inside ? ref[std::size_t(from * kCols + c)]
                : past == Past::Rolled             ? ref[std::size_t(rolled * kCols + c)]
                                                   : (zeros ? 0.0 : ref[std::size_t(r * kCols + c)]);
        }
    }
    return t;
}

} // namespace

class TestCliExpectTableShift : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_reference;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_reference = CliCheck::write(m_dir, u"reference.npy"_s, npy({kRows, kCols}, learned()));
        QVERIFY(!m_reference.isEmpty());
    }

    void movedRowsArePositionOffset_data()
    {
        QTest::addColumn<qint64>("by");
        QTest::addColumn<int>("past");
        QTest::addColumn<QString>("words");
        QTest::newRow("down 1, row 0 zeros") << qint64(1) << int(Past::Zeros) << u"row 0 holds none"_s;
        QTest::newRow("down 3, rows kept") << qint64(3) << int(Past::Kept) << u"moved down by 3 rows"_s;
        QTest::newRow("up 1, last row kept") << qint64(-1) << int(Past::Kept) << u"moved up by one row"_s;
        QTest::newRow("up 16, zeros") << qint64(-16) << int(Past::Zeros) << u"moved up by 16 rows"_s;
        QTest::newRow("down 3, rolled") << qint64(3) << int(Past::Rolled) << u"rolled: rows 0..2 hold its last 3 rows"_s;
        // Any move that leaves more than half the rows on the reference's: a cache's offset is no few rows.
        QTest::newRow("down 40, zeros") << qint64(40) << int(Past::Zeros) << u"rows 0..39 hold none"_s;
        QTest::newRow("up 47, kept") << qint64(-47) << int(Past::Kept) << u"moved up by 47 rows"_s;
    }
    void movedRowsArePositionOffset()
    {
        QFETCH(qint64, by);
        QFETCH(int, past);
        QFETCH(QString, words);
        const CliCheck::Checked c = CliCheck::check(m_dir, npy({kRows, kCols}, moved(learned(), by, Past(past))),
                                                    {u"--expect-table"_s, m_reference});
        QVERIFY2(CliCheck::named(c.json, {u"position-offset"_s}), qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(words), qPrintable(c.diagnosis()));
        QCOMPARE(c.json[u"position_offset"_s].toInteger(), -by);
        // The rows that hold no row of the reference are said; nothing else deviates.
        QVERIFY2(!c.diagnosis().contains(u"deviate"_s), qPrintable(c.diagnosis()));
        QCOMPARE(c.exit, 1);
    }

    // Two float32 sums of one formula's sixteen terms in opposite orders (a bicubic resize's, as
    // torch and a port sum them) differ by a few units of float32 at the largest value, beyond one
    // rounding: no mistake (unknown, the deviation said); a cell off by 1e-3 stays a mistake.
    void float32SumsInAnotherOrderAreNoMistake()
    {
        std::vector<double> forward(std::size_t(kRows * kCols)), backward(forward.size());
        double largest = 0.0, apart = 0.0;
        for (std::int64_t r = 0; r < kRows; ++r) {
            for (std::int64_t c = 0; c < kCols; ++c) {
                float up = 0.0f, down = 0.0f;
                float terms[16];
                // Pairs of large terms that cancel, as a cubic's weights of both signs do, each pair
                // leaving a term of order 1.
                for (int k = 0; k < 16; k += 2) {
                    const double big = 10.0 * std::sin(0.37 * double(r) + 1.3 * double(c) + double(k));
                    terms[k] = float(big);
                    terms[k + 1] = float(-big + std::sin(0.11 * double(r) - 0.7 * double(c) + double(k)));
                }
                for (int k = 0; k < 16; ++k) {
                    up += terms[k];
                    down += terms[15 - k];
                }
                forward[std::size_t(r * kCols + c)] = up;
                backward[std::size_t(r * kCols + c)] = down;
                largest = std::max(largest, std::fabs(double(up)));
                apart = std::max(apart, std::fabs(double(up) - double(down)));
            }
        }
        // The orders differ by several units of float32 at the largest value (one rounding each gives
        // two), and by far fewer than the units a sum of sixteen can reach.
        QVERIFY(apart > std::ldexp(largest, -21) && apart < std::ldexp(largest, -18));
        const QString reference = CliCheck::write(m_dir, u"sum.npy"_s, npy({kRows, kCols}, forward));
        const CliCheck::Checked other = CliCheck::check(m_dir, npy({kRows, kCols}, backward), {u"--expect-table"_s, reference});
        QCOMPARE(other.verdict(), u"unknown"_s);
        QVERIFY2(other.diagnosis().contains(u"units of float32"_s), qPrintable(other.shown));
        backward[std::size_t(5 * kCols + 3)] += 1e-3;
        const CliCheck::Checked off = CliCheck::check(m_dir, npy({kRows, kCols}, backward), {u"--expect-table"_s, reference});
        QCOMPARE(off.verdict(), u"mistake"_s);
    }

    // mlx-lm#93: GPT-2's decode read wpe's rows from 0 where the cache's offset was meant. A table
    // of positions (--position-table, a random walk of 2000 rows here) read from any other row than
    // the declared --position-offset is position-offset with both rows said, wherever it is read from.
    void positionTableReadFromAnotherRow_data()
    {
        QTest::addColumn<qint64>("declared");
        QTest::addColumn<qint64>("read");
        QTest::newRow("offset 64 read from 0") << qint64(64) << qint64(0);
        QTest::newRow("offset 0 read from 1500") << qint64(0) << qint64(1500);
        QTest::newRow("offset 900 read from 17") << qint64(900) << qint64(17);
        QTest::newRow("offset 5 read from 1904") << qint64(5) << qint64(1904);
    }
    void positionTableReadFromAnotherRow()
    {
        QFETCH(qint64, declared);
        QFETCH(qint64, read);
        constexpr std::int64_t kWpe = 2000;
        std::mt19937 engine(93);
        std::normal_distribution<double> normal(0.0, 0.1);
        std::vector<double> wpe(std::size_t(kWpe * kCols));
        for (std::int64_t r = 0; r < kWpe; ++r)
            for (std::int64_t c = 0; c < kCols; ++c)
                wpe[std::size_t(r * kCols + c)] = (r > 0 ? wpe[std::size_t((r - 1) * kCols + c)] : 0.0) + normal(engine);
        const QString table = CliCheck::write(m_dir, u"wpe.npy"_s, npy({kWpe, kCols}, wpe));
        const auto rowsFrom = [&](std::int64_t first) {
            return std::vector<double>(wpe.begin() + first * kCols, wpe.begin() + (first + kRows) * kCols);
        };
        const QStringList flags {u"--expect"_s, u"learned"_s, u"--position-table"_s, table, u"--position-offset"_s,
                                 QString::number(declared)};
        QCOMPARE(CliCheck::check(m_dir, npy({kRows, kCols}, rowsFrom(declared)), flags).verdict(), u"correct"_s);
        const CliCheck::Checked c = CliCheck::check(m_dir, npy({kRows, kCols}, rowsFrom(read)), flags);
        QVERIFY2(CliCheck::named(c.json, {u"position-offset"_s}), qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"row r holds row r + %1 of"_s.arg(read))
                     && c.diagnosis().contains(u"where row r + %1 is meant"_s.arg(declared)),
                 qPrintable(c.diagnosis()));
        QCOMPARE(c.json[u"position_offset"_s].toInteger(), read - declared);
        QCOMPARE(c.exit, 1);
    }

    // r42's b14 pair: the rows read from 0 checked against the rows from 32 (--expect-table of a
    // shorter dump): the rows that overlap are the reference's moved down by 32, the first 32 rows
    // none of its rows, said.
    void tableAgainstLaterRows()
    {
        const std::vector<double> ref = learned();
        std::vector<double> later(ref.begin() + 32 * kCols, ref.end());
        later.resize(ref.size(), 0.0);
        const QString reference = CliCheck::write(m_dir, u"later.npy"_s, npy({kRows, kCols}, later));
        const CliCheck::Checked c = CliCheck::check(m_dir, npy({kRows, kCols}, ref), {u"--expect-table"_s, reference});
        QVERIFY2(CliCheck::named(c.json, {u"position-offset"_s}), qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"moved down by 32 rows"_s) && c.diagnosis().contains(u"rows 0..31 hold none"_s),
                 qPrintable(c.diagnosis()));
    }

    // The reference itself is correct; a table with one row replaced is no move of its rows.
    void notMoved()
    {
        const std::vector<double> ref = learned();
        const CliCheck::Checked same = CliCheck::check(m_dir, npy({kRows, kCols}, ref), {u"--expect-table"_s, m_reference});
        QCOMPARE(same.verdict(), u"correct"_s);
        std::vector<double> one = ref;
        for (std::int64_t c = 0; c < kCols; ++c)
            one[std::size_t(40 * kCols + c)] = ref[std::size_t(39 * kCols + c)];
        const CliCheck::Checked replaced
            = CliCheck::check(m_dir, npy({kRows, kCols}, one), {u"--expect-table"_s, m_reference});
        QCOMPARE(replaced.verdict(), u"mistake"_s);
        QVERIFY2(!replaced.mistakes().contains(u"position-offset"_s), qPrintable(replaced.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliExpectTableShift)
} // namespace tst_cliexpecttableshift
#include "tst_cliexpecttableshift.moc"
