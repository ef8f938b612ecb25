// A mistake posenc check names on a clean RoPE table stays named when a few of its rows are damaged
// (issue 56, item 4: the mistake named against a declared reference), and the damaged rows are
// said as a region: a table of rope_theta 500000 declared 10000 is rope-theta with both values, a
// table from position 3 position-offset (not positions-out-of-order), with rows zeroed or set to 1.
// Each was `mistake` with no name, or positions-out-of-order, with 10 of 300 or 4096 rows damaged. The tables are
// written here: HF's float32 inv_freq (1 / theta ** (arange(0, d, 2) / d), the power in float32), the float32 angle p *
// inv_freq, its cos in float64 rounded to float32 (and to bfloat16 where said), HF's half layout (column j pair j mod
// d/2) or Meta's interleaved pairs (column j pair j / 2).
#include "CliRun.h"
#include "support/HalfFloats.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <cstdint>

using namespace Qt::StringLiterals;

namespace {

float invFreq(qint64 i, qint64 d, float theta)
{
    return 1.0f / std::pow(theta, float(2 * i) / float(d));
}

double ropeCos(qint64 position, qint64 j, qint64 d, float theta, bool interleaved)
{
    const qint64 pair = interleaved ? j / 2 : j % (d / 2);
    return std::cos(double(float(position) * invFreq(pair, d, theta)));
}

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &x : v.toArray())
        out.append(x.toString());
    return out;
}

QStringList declaredTheta10000(qint64 d)
{
    return {u"--expect"_s, u"rope"_s, u"--head-dim"_s, QString::number(d), u"--rope-theta"_s, u"10000"_s};
}

} // namespace

class TestCliCheckDamage : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    CliRun::TableFiles m_files {m_dir.path()};

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Declared theta 10000: the clean table and the damaged one both name the parameter.
    void parameterNamedDespiteDamagedRows_data()
    {
        QTest::addColumn<bool>("interleaved");
        QTest::addColumn<float>("theta");
        QTest::addColumn<double>("damage"); // what the damaged rows are multiplied by
        QTest::addColumn<qint64>("first");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<QString>("words");
        QTest::newRow("theta 5e5, rows 100..109 zeroed")
            << false << 500000.0f << 0.0 << qint64(100) << u"rope-theta"_s << u"rope_theta 5e+05"_s;
    }
    void parameterNamedDespiteDamagedRows()
    {
        QFETCH(bool, interleaved);
        QFETCH(float, theta);
        QFETCH(double, damage);
        QFETCH(qint64, first);
        QFETCH(QString, mistake);
        QFETCH(QString, words);
        constexpr qint64 d = 64;
        const auto cell = [&](qint64 p, qint64 j, bool damaged) {
            const double v = ropeCos(p, j, d, theta, interleaved);
            return damaged && p >= first && p < first + 10 ? damage * v : v;
        };
        for (const bool damaged : {false, true}) {
            const QString file = m_files.written(300, d, [&](qint64 p, qint64 j) { return cell(p, j, damaged); });
            const QJsonObject o = CliRun::checked(file, declaredTheta10000(d));
            const QString said = o[u"diagnosis"_s].toString();
            QCOMPARE(o[u"verdict"_s].toString(), u"mistake"_s);
            QVERIFY2(strings(o[u"mistakes"_s]) == QStringList {mistake},
                     qPrintable(strings(o[u"mistakes"_s]).join(u","_s) + u" | "_s + said));
            QVERIFY2(said.contains(words), qPrintable(said));
            // The damaged rows are said where they lie.
            const QString rows = u"rows %1..%2"_s.arg(first).arg(first + 9);
            QVERIFY2(said.contains(rows) == damaged, qPrintable(said));
        }
    }

    // Positions from 3, stored as bfloat16, rows 4000..4009 overwritten with 1: declared, the offset
    // is named (it was positions-out-of-order, "row 4000 holds position 0, ...") and the rows said.
    void offsetNamedDespiteOverwrittenRows()
    {
        constexpr qint64 d = 128, rows = 4096;
        const QString file = m_files.written(rows, d, [&](qint64 p, qint64 j) {
            return p >= 4000 && p < 4010 ? 1.0
                                         : double(halffloats::toBFloat16(float(ropeCos(p + 3, j, d, 10000.0f, false))));
        });
        for (const bool declared : {true, false}) {
            const QJsonObject o = CliRun::checked(file, declared ? declaredTheta10000(d) : QStringList());
            const QString said = o[u"diagnosis"_s].toString();
            QCOMPARE(o[u"verdict"_s].toString(), u"mistake"_s);
            QVERIFY2(strings(o[u"mistakes"_s]) == QStringList {u"position-offset"_s},
                     qPrintable(strings(o[u"mistakes"_s]).join(u","_s) + u" | "_s + said));
            QVERIFY2(said.contains(u"rows 4000..4009"_s), qPrintable(said));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliCheckDamage)
#include "tst_clicheckdamage.moc"
