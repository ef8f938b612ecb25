// The check of ALiBi, T5 and DeBERTa tables, as `posenc table alibi-bias|t5-bucket|deberta-bucket`
// writes them: each identified with its parameters, both masks and both directions, from tables
// written here (get_slopes in float64, tests/support/AlibiReference.h; torch's own buckets,
// tests/data/buckets/torch_buckets.csv, and float64's where no boundary is near); one changed cell
// named by row and column; an infinity where no table holds one refused.
#include "CheckTables.h"
#include "TorchBucketTables.h"
#include "support/AlibiReference.h"
#include "support/DebertaReference.h"
#include "support/Sanitizer.h"
#include "support/T5Reference.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"

#include <QFile>
#include <QtTest>

#include <cfloat>
#include <cmath>
#include <map>
#include <tuple>

namespace tst_tablecheckrelative {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;
using torchbuckets::bucketTable;

namespace {

constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// Head K of H's bias, m (j - i) for keys at or before the query, `fill` (causal) or -m (j - i)
// (symmetric) after it.
RowMatrixXf alibiTable(std::int64_t heads, std::int64_t head, AlibiMask mask, std::int64_t rows, float fill = kMinusInf)
{
    const double m = alibiref::slopes(heads)[std::size_t(head - 1)];
    RowMatrixXf t(rows, rows);
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < rows; ++j)
            t(i, j) = j > i && mask == AlibiMask::Causal ? fill : float(m * double(j <= i ? j - i : i - j));
    return t;
}

// The fewest heads (a power of two) whose get_slopes gives a head the slope of head K of H, and
// that head: what the check names.
std::pair<std::int64_t, std::int64_t> fewestHeads(std::int64_t heads, std::int64_t head)
{
    const double m = alibiref::slopes(heads)[std::size_t(head - 1)];
    for (std::int64_t n = 1;; n *= 2) {
        const std::vector<double> s = alibiref::slopesPowerOfTwo(n);
        for (std::size_t k = 0; k < s.size(); ++k)
            if (std::fabs(s[k] / m - 1.0) < 1e-12)
                return {n, std::int64_t(k) + 1};
    }
}

std::int64_t integer(const TableMatch &m, const QString &key)
{
    const MatchValue v = m.finding(key);
    return std::holds_alternative<std::int64_t>(v) ? std::get<std::int64_t>(v) : -1;
}

bool flag(const TableMatch &m, const QString &key)
{
    const MatchValue v = m.finding(key);
    return std::holds_alternative<bool>(v) && std::get<bool>(v);
}

} // namespace

class TestTableCheckRelative : public QObject
{
    Q_OBJECT

private slots:
    void alibiIsIdentified_data()
    {
        QTest::addColumn<qint64>("heads");
        QTest::addColumn<qint64>("head");
        QTest::addColumn<AlibiMask>("mask");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<float>("fill");
        QTest::newRow("BLOOM-560m, head 1, causal")
            << qint64(16) << qint64(1) << AlibiMask::Causal << qint64(300) << kMinusInf;
        QTest::newRow("MPT-7B, head 32, causal, sampled")
            << qint64(32) << qint64(32) << AlibiMask::Causal << qint64(2048) << kMinusInf;
        QTest::newRow("12 heads, head 10 (interleaved), symmetric")
            << qint64(12) << qint64(10) << AlibiMask::Symmetric << qint64(300) << kMinusInf;
        QTest::newRow("8 heads, head 8, symmetric, sampled")
            << qint64(8) << qint64(8) << AlibiMask::Symmetric << qint64(1000) << kMinusInf;
        QTest::newRow("causal, filled with float32's lowest as HF's masks")
            << qint64(8) << qint64(3) << AlibiMask::Causal << qint64(300) << -FLT_MAX;
        QTest::newRow("two rows") << qint64(8) << qint64(1) << AlibiMask::Causal << qint64(2) << kMinusInf;
    }
    void alibiIsIdentified()
    {
        QFETCH(qint64, heads);
        QFETCH(qint64, head);
        QFETCH(AlibiMask, mask);
        QFETCH(qint64, rows);
        QFETCH(float, fill);
        const Checked c = check(alibiTable(heads, head, mask, rows, fill));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        QVERIFY2(m.verdict == CheckVerdict::Correct, qPrintable(m.diagnosis + u" | "_s + m.deviations));
        QCOMPARE(*m.family, Encoding::Alibi);
        QCOMPARE(m.table, u"alibi-bias"_s);
        const auto [fewest, itsHead] = fewestHeads(heads, head);
        QCOMPARE(integer(m, u"heads"_s), fewest);
        QCOMPARE(integer(m, u"head"_s), itsHead);
        const double slope = alibiref::slopes(heads)[std::size_t(head - 1)];
        QVERIFY(std::fabs(number(m, u"slope"_s) / slope - 1.0) < 1e-12);
        QCOMPARE(word(m, u"mask"_s), mask == AlibiMask::Causal ? u"causal"_s : u"symmetric"_s);
        QVERIFY(m.mistakes.isEmpty());
        QCOMPARE(*m.maxAbsError, 0.0);
        QVERIFY(m.params);
        QCOMPARE(m.params->alibi.heads, fewest);
        QCOMPARE(m.params->alibi.head, itsHead);
        QCOMPARE(m.params->alibi.mask, mask);
        if (fewest < heads || fewest > heads)
            QVERIFY(m.notes.join(u'\n').contains(u"does not tell the heads"_s));
    }

    // A linear bias whose slope get_slopes gives no head: the mistake named, the slope as found.
    void alibiSlopeOffTheSchedule()
    {
        RowMatrixXf t(400, 400);
        for (std::int64_t i = 0; i < 400; ++i)
            for (std::int64_t j = 0; j < 400; ++j)
                t(i, j) = j > i ? kMinusInf : float(0.3 * double(j - i));
        const Checked c = check(t);
        QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
        QCOMPARE(c.match.mistakes, QStringList {u"slope-not-get-slopes"_s});
        QCOMPARE(number(c.match, u"slope"_s), 0.3);
        QVERIFY(c.match.diagnosis.contains(u"get_slopes gives no head"_s));
    }

    void t5IsIdentified_data()
    {
        QTest::addColumn<qint64>("buckets");
        QTest::addColumn<qint64>("maxDistance");
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<bool>("torch");
        QTest::addColumn<bool>("pinned"); // the table's distances pin max_distance's roundest value
        QTest::newRow("torch, T5's encoder 32/128") << qint64(32) << qint64(128) << true << qint64(300) << true << true;
        QTest::newRow("torch, T5's decoder 32/128")
            << qint64(32) << qint64(128) << false << qint64(300) << true << true;
        QTest::newRow("torch, 16/64 bidirectional") << qint64(16) << qint64(64) << true << qint64(300) << true << true;
        QTest::newRow("torch, 64/1000 causal") << qint64(64) << qint64(1000) << false << qint64(300) << true << false;
        QTest::newRow("float64, 32/128 bidirectional, sampled")
            << qint64(32) << qint64(128) << true << qint64(4096) << false << true;
        QTest::newRow("float64, 32/128 causal, sampled")
            << qint64(32) << qint64(128) << false << qint64(4096) << false << true;
    }
    void t5IsIdentified()
    {
        QFETCH(qint64, buckets);
        QFETCH(qint64, maxDistance);
        QFETCH(bool, bidirectional);
        QFETCH(qint64, rows);
        QFETCH(bool, torch);
        QFETCH(bool, pinned);
        const auto table = bucketTable("t5", buckets, maxDistance, bidirectional, rows, torch);
        QVERIFY2(table, "no such table (fixture or boundary)");
        const Checked c = check(*table);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        QVERIFY2(m.verdict == CheckVerdict::Correct, qPrintable(m.diagnosis + u" | "_s + m.deviations));
        QCOMPARE(*m.family, Encoding::T5);
        QCOMPARE(m.table, u"t5-bucket"_s);
        QCOMPARE(integer(m, u"buckets"_s), buckets);
        QCOMPARE(flag(m, u"bidirectional"_s), bidirectional);
        QCOMPARE(*m.maxAbsError, 0.0);
        QVERIFY(m.params);
        QCOMPARE(m.params->t5.causal, !bidirectional);
        if (pinned) {
            QCOMPARE(integer(m, u"max_distance"_s), maxDistance);
        } else {
            // The range the table allows holds the true max_distance: the reference at the value
            // named gives the same table (max |error| 0 above), and the note says the range.
            QVERIFY(m.notes.join(u'\n').contains(u"any max_distance from"_s));
        }
    }

    void debertaIsIdentified_data()
    {
        QTest::addColumn<qint64>("buckets");
        QTest::addColumn<qint64>("maxPosition");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<bool>("torch");
        QTest::newRow("torch, DeBERTa-v3 256/512") << qint64(256) << qint64(512) << qint64(300) << true;
        QTest::newRow("torch, 128/256") << qint64(128) << qint64(256) << qint64(300) << true;
        QTest::newRow("float64, 256/512, sampled") << qint64(256) << qint64(512) << qint64(4096) << false;
    }
    void debertaIsIdentified()
    {
        QFETCH(qint64, buckets);
        QFETCH(qint64, maxPosition);
        QFETCH(qint64, rows);
        QFETCH(bool, torch);
        const auto table = bucketTable("deberta", buckets, maxPosition, true, rows, torch);
        QVERIFY2(table, "no such table (fixture or boundary)");
        const Checked c = check(*table);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        // DeBERTa-v3's 256/512 is a published form; the formula at other parameters a variant.
        const CheckVerdict want = buckets == 256 && maxPosition == 512 ? CheckVerdict::Correct : CheckVerdict::Variant;
        QVERIFY2(m.verdict == want, qPrintable(m.diagnosis + u" | "_s + m.deviations));
        QCOMPARE(*m.family, Encoding::Deberta);
        QCOMPARE(m.table, u"deberta-bucket"_s);
        QCOMPARE(integer(m, u"buckets"_s), buckets);
        QCOMPARE(integer(m, u"max_position"_s), maxPosition);
        QCOMPARE(*m.maxAbsError, 0.0);
        QCOMPARE(m.params->deberta.buckets, buckets);
    }

    // The difference taken the other way round (T5's buckets of i - j, DeBERTa's of j - i: the
    // table transposed): the mistake named, against the model's own buckets, every cell off the
    // diagonal deviating (a bucket of d and of -d differ for d != 0 in both families).
    void aDifferenceTakenTheOtherWayRoundIsNamed_data()
    {
        QTest::addColumn<QByteArray>("family");
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<bool>("torch");
        QTest::newRow("t5 bidirectional, torch") << QByteArray("t5") << true << qint64(300) << true;
        QTest::newRow("t5 causal, torch") << QByteArray("t5") << false << qint64(300) << true;
        QTest::newRow("t5 bidirectional, sampled") << QByteArray("t5") << true << qint64(4096) << false;
        QTest::newRow("t5 causal, sampled") << QByteArray("t5") << false << qint64(4096) << false;
        QTest::newRow("deberta, torch") << QByteArray("deberta") << true << qint64(300) << true;
        QTest::newRow("deberta, sampled") << QByteArray("deberta") << true << qint64(4096) << false;
    }
    void aDifferenceTakenTheOtherWayRoundIsNamed()
    {
        QFETCH(QByteArray, family);
        QFETCH(bool, bidirectional);
        QFETCH(qint64, rows);
        QFETCH(bool, torch);
        POSENC_SAMPLE_LARGE_UNDER_SANITIZER(rows > 300);
        const bool t5 = family == "t5";
        const auto table = bucketTable(family, t5 ? 32 : 256, t5 ? 128 : 512, bidirectional, rows, torch);
        QVERIFY2(table, "no such table (fixture or boundary)");
        const RowMatrixXf reversed = table->transpose();
        const Checked c = check(reversed);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        QVERIFY2(m.verdict == CheckVerdict::Mistake, qPrintable(m.diagnosis + u" | "_s + m.deviations));
        QCOMPARE(m.mistakes, QStringList {CheckMistakes::kRelativeReversed});
        QCOMPARE(*m.family, t5 ? Encoding::T5 : Encoding::Deberta);
        QCOMPARE(integer(m, u"buckets"_s), t5 ? qint64(32) : qint64(256));
        if (t5) {
            QCOMPARE(flag(m, u"bidirectional"_s), bidirectional);
            QCOMPARE(integer(m, u"max_distance"_s), qint64(128));
        } else {
            QCOMPARE(integer(m, u"max_position"_s), qint64(512));
        }
        QVERIFY(m.correctAgainst.isEmpty());
        QVERIFY2(m.diagnosis.startsWith(t5 ? u"the buckets of i − j"_s : u"the buckets of j − i"_s),
                 qPrintable(m.diagnosis));
        QCOMPARE(c.verification.deviatingCells, rows * (rows - 1));
        // Not transposed back into a correct reading by anything else: the table as the model
        // makes it stays correct.
        QCOMPARE(check(*table).match.verdict, CheckVerdict::Correct);
    }

    // One changed cell: the family and its parameters still named, the cell by row and column,
    // in a table sampled whole and in one sampled; in the middle, at a corner whose offset no
    // other cell holds, and in a causal mask.
    void oneChangedCellIsNamed_data()
    {
        QTest::addColumn<QString>("family");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("row");
        QTest::addColumn<qint64>("column");
        QTest::addColumn<float>("value"); // NaN: the cell plus one
        const float plusOne = std::numeric_limits<float>::quiet_NaN();
        for (const char *family : {"alibi causal", "alibi symmetric", "t5 bidirectional", "t5 causal", "deberta"}) {
            for (const qint64 rows : {qint64(300), qint64(3000)}) {
                const QString f = QString::fromLatin1(family);
                QTest::addRow("%s, %lld rows, below the diagonal", family, rows)
                    << f << rows << qint64(200) << qint64(17) << plusOne;
                QTest::addRow("%s, %lld rows, the bottom-left corner", family, rows)
                    << f << rows << rows - 1 << qint64(0) << plusOne;
                QTest::addRow("%s, %lld rows, above the diagonal", family, rows)
                    << f << rows << qint64(17) << qint64(200) << (f == u"alibi causal"_s ? 0.0f : plusOne);
            }
        }
    }
    void oneChangedCellIsNamed()
    {
        QFETCH(QString, family);
        QFETCH(qint64, rows);
        QFETCH(qint64, row);
        QFETCH(qint64, column);
        QFETCH(float, value);
        std::optional<RowMatrixXf> t;
        if (family.startsWith(u"alibi"_s))
            t = alibiTable(16, 3, family.endsWith(u"causal"_s) ? AlibiMask::Causal : AlibiMask::Symmetric, rows);
        else if (family.startsWith(u"t5"_s))
            t = bucketTable("t5", 32, 128, family.endsWith(u"bidirectional"_s), rows, false);
        else
            t = bucketTable("deberta", 256, 512, true, rows, false);
        QVERIFY(t);
        const float before = (*t)(row, column);
        (*t)(row, column) = std::isnan(value) ? before + 1.0f : value;
        const Checked c = check(*t);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY2(c.match.verdict == CheckVerdict::Mistake, qPrintable(c.match.diagnosis));
        QCOMPARE(c.match.table,
                 family.startsWith(u"alibi"_s)    ? u"alibi-bias"_s
                     : family.startsWith(u"t5"_s) ? u"t5-bucket"_s
                                                  : u"deberta-bucket"_s);
        QVERIFY(c.match.mistakes.isEmpty());
        QCOMPARE(*c.match.worstRow, row);
        QCOMPARE(*c.match.worstColumn, column);
        QCOMPARE(c.verification.deviatingCells, qint64(1));
        QVERIFY(c.match.diagnosis.contains(u"row %1, column %2"_s.arg(row).arg(column)));
        if (family.startsWith(u"t5"_s))
            QCOMPARE(integer(c.match, u"max_distance"_s), qint64(128));
        if (family.startsWith(u"deberta"_s))
            QCOMPARE(integer(c.match, u"max_position"_s), qint64(512));
    }

    // An infinity that no table of the check holds there, and no mask's region: a mistake, its cell
    // named (a readable file is no read error: exit 3 is for NaN and what cannot be read).
    void infinityWhereNoTableHoldsOne()
    {
        RowMatrixXf t = table(512, 32, [](std::int64_t p, std::int64_t j) { return paper(p, j, 32, 10000.0, false); });
        t(3, 5) = kMinusInf;
        const Checked c = check(t);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QVERIFY(c.match.verdict == CheckVerdict::Mistake);
        QVERIFY2(c.match.diagnosis.contains(u"row 3, column 5 holds an infinity"_s), qPrintable(c.match.diagnosis));
    }
};

POSENC_TEST_APPLESS_MAIN(TestTableCheckRelative)
} // namespace tst_tablecheckrelative
#include "tst_tablecheckrelative.moc"
