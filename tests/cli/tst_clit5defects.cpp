// `posenc check` of T5 bucket maps computed without a part of HF's
// T5Attention._relative_position_bucket (huggingface/transformers src/transformers/models/t5/
// modeling_t5.py): without the log branch (candle#727: `j - i + num_buckets` after the query,
// `i - j` before, every distance its own bucket) and without the clamp torch.min(..., num_buckets - 1)
// on the keys before the query (candle#1312). Once "learned" undeclared and a mistake with no name
// declared. Declared, the defect is named with the cells; undeclared, only where the map holds a
// bucket no settings give (a key before the query in its half's n or past). Tables are float64
// formulas here (support/T5Reference.h for the reference's own buckets).
#include "CheckReportText.h"
#include "CliRun.h"
#include "support/T5Reference.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <cstdlib>

namespace tst_clit5defects {
using namespace Qt::StringLiterals;

namespace {

// What a port's map lacks.
enum class Map { Correct, NoLogBranch, NoClampBefore };

// The bucket of j - i at 32 buckets (a half n = 16, max_exact 8) and max_distance `reach`.
double bucketOf(Map map, qint64 i, qint64 j, bool bidirectional, qint64 reach, qint64 buckets = 32)
{
    const qint64 relative = j - i;
    if (map == Map::Correct)
        return double(t5ref::t5(relative, buckets, reach, bidirectional).value);
    const qint64 n = bidirectional ? buckets / 2 : buckets, exact = n / 2;
    if (!bidirectional && relative > 0)
        return 0.0;
    const qint64 offset = bidirectional && relative > 0 ? n : 0;
    const qint64 d = std::abs(relative);
    if (map == Map::NoLogBranch || d < exact)
        return double(offset + d);
    const double scaled
        = std::log(double(d) / double(exact)) / std::log(double(reach) / double(exact)) * double(n - exact);
    const qint64 large = exact + qint64(std::floor(scaled));
    // The keys after the query keep the clamp; those before have none.
    return double(offset + (relative > 0 ? std::min(large, n - 1) : large));
}

using CheckReportText::mistakesOf;
using CheckReportText::shown;

const QStringList kDeclared {u"--expect"_s, u"t5"_s, u"--t5-buckets"_s, u"32"_s, u"--t5-max-distance"_s, u"128"_s};

} // namespace

class TestCliT5Defects : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    CliRun::TableFiles m_tables {m_dir.path()};

    QString table(Map map, qint64 rows, bool bidirectional, qint64 reach = 128)
    {
        return m_tables.written(rows, rows,
                                [&](qint64 i, qint64 j) { return bucketOf(map, i, j, bidirectional, reach); });
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Each row: the port's map, its rows, the mistake declared, whether undeclared names it too (a
    // bucket no settings give), and words the declared diagnosis says.
    void defectNamed_data()
    {
        QTest::addColumn<int>("map");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<bool>("undeclaredNames");
        QTest::addColumn<QStringList>("words");
        // Buckets 9..127 before the query, 25..143 after: past 15 and 31, an index past the 32 rows.
        QTest::newRow("no log branch, 128 rows")
            << int(Map::NoLogBranch) << qint64(128) << true << u"t5-log-buckets"_s << true
            << QStringList {u"the keys before the query at distances 9..127"_s, u"buckets 9..127"_s,
                            u"without its log branch"_s, u"buckets up to 143, past the 32 rows"_s};
        // 16 rows: the exact map is T5's own at max_distance 16, a faithful map undeclared; declared
        // 128, its distances 9..15 hold their own bucket where max_distance 128 shares them.
        QTest::newRow("no log branch, 16 rows")
            << int(Map::NoLogBranch) << qint64(16) << true << u"t5-log-buckets"_s << false
            << QStringList {u"at distances 9..15"_s, u"buckets 9..15 where the declared T5 map"_s};
        // The keys before the query at distances 128.. in 16 and 17, the keys after the query's.
        QTest::newRow("no clamp before, 256 rows")
            << int(Map::NoClampBefore) << qint64(256) << true << u"t5-bucket-clamp"_s << true
            << QStringList {u"the keys before the query at distances 128..255"_s, u"hold buckets 16..17"_s,
                            u"gives 15"_s, u"torch.min(relative_position_if_large"_s};
        // The decoder's map: keys before the query up to bucket 199 of 32.
        QTest::newRow("causal, no log branch, 200 rows")
            << int(Map::NoLogBranch) << qint64(200) << false << u"t5-log-buckets"_s << false
            << QStringList {u"buckets up to 199, past the 32 rows"_s};
    }
    void defectNamed()
    {
        QFETCH(int, map);
        QFETCH(qint64, rows);
        QFETCH(bool, bidirectional);
        QFETCH(QString, mistake);
        QFETCH(bool, undeclaredNames);
        QFETCH(QStringList, words);
        const QString buggy = table(Map(map), rows, bidirectional);
        const QString fixed = table(Map::Correct, rows, bidirectional);
        QVERIFY(!buggy.isEmpty() && !fixed.isEmpty());
        QStringList declared = kDeclared;
        if (!bidirectional)
            declared.append(u"--t5-causal"_s);
        // The reference's own map: correct, declared and not.
        const QJsonObject fixedDeclared = CliRun::checked(fixed, declared);
        QCOMPARE(fixedDeclared[u"verdict"_s].toString(), u"correct"_s);
        QVERIFY2(CliRun::checked(fixed, {})[u"verdict"_s].toString() == u"correct"_s, "the fixed map undeclared");
        // Declared: the defect named, with where it lies.
        const QJsonObject d = CliRun::checked(buggy, declared);
        QVERIFY2(d[u"verdict"_s].toString() == u"mistake"_s && mistakesOf(d) == QStringList {mistake},
                 qPrintable(shown(d)));
        for (const QString &w : words)
            QVERIFY2(d[u"diagnosis"_s].toString().contains(w), qPrintable(w + u" in "_s + shown(d)));
        // Undeclared: never learned; the mistake only where no settings give the buckets (where some do,
        // the map is theirs: the decoder's exact map of 200 rows is 400 buckets' own).
        const QJsonObject u = CliRun::checked(buggy, {});
        QVERIFY2(u[u"verdict"_s].toString() != u"learned"_s, qPrintable(shown(u)));
        if (undeclaredNames)
            QVERIFY2(u[u"verdict"_s].toString() == u"mistake"_s && mistakesOf(u) == QStringList {mistake},
                     qPrintable(shown(u)));
        else
            QVERIFY2(u[u"verdict"_s].toString() != u"mistake"_s, qPrintable(shown(u)));
        // Against a dump of the fixed map, named as its reading's declaration would be.
        const QJsonObject t = CliRun::checked(buggy, {u"--expect-table"_s, fixed});
        QVERIFY2(t[u"verdict"_s].toString() == u"mistake"_s && mistakesOf(t).contains(mistake), qPrintable(shown(t)));
        QVERIFY2(t[u"diagnosis"_s].toString().contains(u"the reference table's T5 map"_s), qPrintable(shown(t)));
    }

    // A map of T5's at another max_distance is a parameter named, no defect: the exact buckets and
    // the log ones of max_distance 64, declared 128.
    void otherMaxDistanceIsAParameter()
    {
        const QString other = table(Map::Correct, 200, true, 64);
        const QJsonObject d = CliRun::checked(other, kDeclared);
        QVERIFY2(d[u"verdict"_s].toString() == u"mistake"_s && mistakesOf(d) == QStringList {u"t5-max-distance"_s},
                 qPrintable(shown(d)));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliT5Defects)
} // namespace tst_clit5defects
#include "tst_clit5defects.moc"
