// `posenc check --expect FAMILY` on a table that is the declared family's at other parameters: the
// mistake names the one or two parameters that, set in the declaration, give every row
// (TableCheck::streamDeclared), by their flags and with both values; a table no parameter
// explains names none. The tables are float64 formulas written here.
#include "CliRun.h"
#include "support/T5Reference.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <functional>

namespace tst_cliexpectparams {
using namespace Qt::StringLiterals;

namespace {

// RoPE's cos table in HF's layout (rotate_half: column j holds pair j mod d/2), theta 10000,
// head_dim 64, position p read as p * stretch: modeling_rope_utils.py,
// _compute_default_rope_parameters, and _compute_linear_scaling_rope_parameters (inv_freq / factor,
// the same as positions divided by the factor).
double ropeCos(qint64 p, qint64 j, double stretch)
{
    constexpr qint64 d = 64;
    return std::cos(double(p) * stretch * std::pow(10000.0, -2.0 * double(j % (d / 2)) / double(d)));
}

QStringList named(const CliRun::Run &run)
{
    QStringList list;
    for (const QJsonValue value : QJsonDocument::fromJson(run.out.toUtf8()).object()[u"mistakes"_s].toArray())
        list.append(value.toString());
    return list;
}

} // namespace

class TestCliExpectParams : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString written(const QString &name, qint64 rows, qint64 cols, const std::function<double(qint64, qint64)> &cell)
    {
        const QString file = m_dir.filePath(name);
        return CliRun::writeNpy(file, rows, cols, CliRun::cells(rows, cols, cell)) ? file : QString();
    }

    static CliRun::Run check(const QString &file, const QStringList &flags)
    {
        return CliRun::posenc(QStringList {u"check"_s, file} + flags);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // x-transformers' T5 bias with the causal test inverted (lucidrains/x-transformers#10): a causal
    // table where bidirectional buckets were meant; the parameter named with both values (the
    // bidirectional false the default's: no --t5-causal was given).
    void aCausalT5TableDeclaredBidirectional()
    {
        constexpr qint64 length = 96;
        const QString causal = written(u"t5-causal.npy"_s, length, length, [](qint64 i, qint64 j) {
            return double(t5ref::t5(j - i, 32, 128, false).value);
        });
        QVERIFY(!causal.isEmpty());
        const QStringList bidirectional {u"--expect"_s,          u"t5"_s, u"--t5-buckets"_s, u"32"_s,
                                         u"--t5-max-distance"_s, u"128"_s};
        const CliRun::Run run = check(causal, bidirectional + QStringList {u"--json"_s});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(named(run), QStringList {u"t5-causal"_s});
        const CliRun::Run text = check(causal, bidirectional);
        QVERIFY2(text.out.contains(u"t5-causal true where the default, not declared, is false"_s),
                 qPrintable(text.out));
        // Declared as it is, the same table is correct.
        QCOMPARE(check(causal, bidirectional + QStringList {u"--t5-causal"_s}).exitCode, 0);
    }

    // Positions stretched by 1.25 (a linear scaling of factor 0.8): two parameters together make the
    // declared default RoPE's table this one, and are named together.
    void stretchedPositionsNameTheScaling()
    {
        const QString stretched
            = written(u"rope-stretched.npy"_s, 300, 64, [](qint64 p, qint64 j) { return ropeCos(p, j, 1.25); });
        QVERIFY(!stretched.isEmpty());
        const QStringList declared {u"--expect"_s, u"rope"_s, u"--head-dim"_s, u"64"_s, u"--rope-theta"_s, u"10000"_s};
        const CliRun::Run run = check(stretched, declared + QStringList {u"--json"_s});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(named(run), (QStringList {u"rope-type"_s, u"rope-factor"_s}));
        const CliRun::Run text = check(stretched, declared);
        QVERIFY2(text.out.contains(u"rope-type linear where the default, not declared, is default"_s),
                 qPrintable(text.out));
        QVERIFY2(text.out.contains(u"rope-factor 0.8 where"_s), qPrintable(text.out));
    }

    // One cell changed: no parameter gives the table, and none is named.
    void aChangedCellNamesNoParameter()
    {
        const QString changed = written(u"rope-one-cell.npy"_s, 300, 64, [](qint64 p, qint64 j) {
            return ropeCos(p, j, 1.0) + (p == 150 && j == 7 ? 1e-3 : 0.0);
        });
        QVERIFY(!changed.isEmpty());
        const CliRun::Run run = check(changed, {u"--expect"_s, u"rope"_s, u"--head-dim"_s, u"64"_s, u"--json"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(named(run).isEmpty(), qPrintable(run.out));
    }

    // A table at another theta whose rows 290-299 are also zeroed: the sampled rows read as RoPE at
    // theta 500000; the theta is named (issue 56, item 4: damage drops no name the clean table
    // gets), never alone: the report says the table deviates from that reading too, in those rows.
    void aParameterAndDamagedRowsNameNoParameterAlone()
    {
        const QString damaged = written(u"rope-theta-zeroed.npy"_s, 300, 64, [](qint64 p, qint64 j) {
            return p >= 290 ? 0.0 : std::cos(double(p) * std::pow(500000.0, -2.0 * double(j % 32) / 64.0));
        });
        QVERIFY(!damaged.isEmpty());
        const QStringList declared {u"--expect"_s, u"rope"_s, u"--head-dim"_s, u"64"_s, u"--rope-theta"_s, u"10000"_s};
        const CliRun::Run run = check(damaged, declared + QStringList {u"--json"_s});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(named(run), QStringList {u"rope-theta"_s});
        const CliRun::Run text = check(damaged, declared);
        QVERIFY2(text.out.contains(u"read without the declaration, the table is mistake"_s), qPrintable(text.out));
        QVERIFY2(text.out.contains(u"diagnosis: the table's frequencies: rope_theta 500000"_s), qPrintable(text.out));
        QVERIFY2(text.out.contains(u"which no parameter explains: they lie in rows 290..299"_s), qPrintable(text.out));
        // The same table but for the zeroed rows names the theta, with both values.
        const QString atTheta = written(u"rope-theta.npy"_s, 300, 64, [](qint64 p, qint64 j) {
            return std::cos(double(p) * std::pow(500000.0, -2.0 * double(j % 32) / 64.0));
        });
        QVERIFY(!atTheta.isEmpty());
        QCOMPARE(named(check(atTheta, declared + QStringList {u"--json"_s})), QStringList {u"rope-theta"_s});
    }

    // A 16-bucket T5 table with one changed cell, declared with 32 buckets: its sampled rows read
    // as T5 at 16 buckets, and the report does not say the table is that (the cell deviates from it).
    void aReadingThatFailsOneCellIsNotCalledCorrect()
    {
        constexpr qint64 length = 96;
        const QString changed = written(u"t5-16-one-cell.npy"_s, length, length, [](qint64 i, qint64 j) {
            return double(t5ref::t5(j - i, 16, 128, true).value) + (i == 61 && j == 5 ? 3.0 : 0.0);
        });
        QVERIFY(!changed.isEmpty());
        const QStringList declared {u"--expect"_s,          u"t5"_s, u"--t5-buckets"_s, u"32"_s,
                                    u"--t5-max-distance"_s, u"128"_s};
        const CliRun::Run text = check(changed, declared);
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(!text.out.contains(u"the table is correct"_s), qPrintable(text.out));
        QVERIFY2(text.out.contains(u"row 61, column 5"_s), qPrintable(text.out));
        QVERIFY2(named(check(changed, declared + QStringList {u"--json"_s})).isEmpty(), qPrintable(text.out));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliExpectParams)
} // namespace tst_cliexpectparams
#include "tst_cliexpectparams.moc"
