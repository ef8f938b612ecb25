// A mistake posenc check names on a clean RoPE table stays named when a few of its rows are damaged
// (issue 56, item 4: the mistake named against a declared reference), and the damaged rows are
// said as a region: a table of rope_theta 500000 declared 10000 is rope-theta with both values, a
// table from position 3 position-offset (not positions-out-of-order), with rows zeroed or set to 1.
// Each was `mistake` with no name, or positions-out-of-order, with 10 of 300 or 4096 rows damaged. The tables are
// written here: HF's float32 inv_freq (1 / theta ** (arange(0, d, 2) / d), the power in float32), the float32 angle p *
// inv_freq, its cos in float64 rounded to float32 (and to bfloat16 where said), HF's half layout (column j pair j mod
// d/2) or Meta's interleaved pairs (column j pair j / 2).
// And vLLM's LongRoPE buffer with a damaged cell or row, undeclared, is read as that buffer (its
// damaged row a mistake the stream shows), as the buffer's cos alone is: it was `learned`.
#include "CliRun.h"
#include "support/HalfFloats.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <cstdint>
#include <vector>

namespace tst_clicheckdamage {
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

// A comma-separated list of a preset's "params" as numbers.
std::vector<double> numbers(const QString &list)
{
    std::vector<double> out;
    for (const QString &x : list.split(u','))
        out.push_back(x.toDouble());
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
            << false << 500000.0f << 0.0 << qint64(100) << u"rope-theta"_s << u"rope_theta 500000"_s;
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

    // vLLM's long_short_cos_sin_cache of Phi-3 mini 128k (vllm/model_executor/layers/rotary_embedding/
    // phi3_long_rope_scaled_rope.py, Phi3LongRoPEScaledRotaryEmbedding: _compute_cos_sin_cache
    // cat((cos, sin), dim=-1) of freqs = t * inv_freq, inv_freq = 1 / (factors * base ** (arange(0,
    // rotary_dim, 2) / rotary_dim)), both times mscale sqrt(1 + ln(max_position_embeddings /
    // original) / ln(original)); __init__ registers torch.cat([short_cache, long_cache], dim=0)):
    // 4096 rows of short_factor at positions 0..4095, then 300 of long_factor from position 0, the
    // preset's factors (the config's). Undeclared with one damaged cell or row (at most one row in
    // 64, as the cos alone bears), the pair's reading wins over `learned`: a mistake, the cache named
    // in the diagnosis, the damaged row the one that deviates. Clean, it is correct; with a 64th of
    // its rows and more zeroed, no pair reading bears them.
    void damagedVllmCosSinBufferIsReadAsTheBuffer_data()
    {
        QTest::addColumn<qint64>("row");
        QTest::addColumn<qint64>("column");
        QTest::addColumn<int>("damage"); // 0 none, 1 one cell + 0.3, 2 the row halved, 3 rows zeroed
        QTest::addColumn<qint64>("count"); // rows damaged from `row` on
        QTest::newRow("clean") << qint64(0) << qint64(0) << 0 << qint64(0);
        QTest::newRow("long row 4196, a cos cell") << qint64(4196) << qint64(5) << 1 << qint64(1);
        QTest::newRow("long row 4196, a sin cell") << qint64(4196) << qint64(50) << 1 << qint64(1);
        QTest::newRow("long row 4196 halved") << qint64(4196) << qint64(0) << 2 << qint64(1);
        QTest::newRow("short row 1000 zeroed") << qint64(1000) << qint64(0) << 3 << qint64(1);
        QTest::newRow("short rows 1000..1199 zeroed") << qint64(1000) << qint64(0) << 3 << qint64(200);
    }
    void damagedVllmCosSinBufferIsReadAsTheBuffer()
    {
        QFETCH(qint64, row);
        QFETCH(qint64, column);
        QFETCH(int, damage);
        QFETCH(qint64, count);
        QFile presetFile(QStringLiteral(POSENC_PRESETS) + u"/16-phi-3-mini-128k.json"_s);
        QVERIFY(presetFile.open(QIODevice::ReadOnly));
        const QJsonObject params = QJsonDocument::fromJson(presetFile.readAll()).object()[u"params"_s].toObject();
        const std::vector<double> shortFactor = numbers(params[u"short-factor"_s].toString());
        const std::vector<double> longFactor = numbers(params[u"long-factor"_s].toString());
        constexpr qint64 rotary = 96, pairs = rotary / 2, original = 4096, longRows = 300;
        QCOMPARE(qint64(shortFactor.size()), pairs);
        QCOMPARE(qint64(longFactor.size()), pairs);
        const double mscale = std::sqrt(1.0 + std::log(131072.0 / double(original)) / std::log(double(original)));
        const QString file = m_files.written(original + longRows, rotary, [&](qint64 r, qint64 j) {
            const bool longRow = r >= original;
            const qint64 i = j % pairs;
            const double ext = (longRow ? longFactor : shortFactor)[std::size_t(i)];
            const double angle = double(longRow ? r - original : r) / (ext * std::pow(10000.0, 2.0 * double(i) / 96.0));
            const double v = mscale * (j < pairs ? std::cos(angle) : std::sin(angle));
            if (r < row || r >= row + count)
                return v;
            return damage == 1 ? (j == column ? v + 0.3 : v) : damage == 2 ? 0.5 * v : damage == 3 ? 0.0 : v;
        });
        QVERIFY(!file.isEmpty());
        const QJsonObject o = CliRun::checked(file, {});
        const QString said = o[u"verdict"_s].toString() + u" | "_s + o[u"diagnosis"_s].toString();
        if (count > (original + longRows) / 64) {
            // More damaged rows than the share a form bears: not read as the buffer (`learned`).
            QVERIFY2(!o[u"diagnosis"_s].toString().contains(u"long_short_cos_sin_cache"_s), qPrintable(said));
            QVERIFY2(o[u"verdict"_s].toString() != u"correct"_s, qPrintable(said));
            return;
        }
        QVERIFY2(o[u"diagnosis"_s].toString().contains(u"long_short_cos_sin_cache"_s), qPrintable(said));
        QVERIFY2(strings(o[u"mistakes"_s]).isEmpty(), qPrintable(said));
        if (damage == 0) {
            QVERIFY2(o[u"verdict"_s].toString() == u"correct"_s, qPrintable(said));
            return;
        }
        QVERIFY2(o[u"verdict"_s].toString() == u"mistake"_s, qPrintable(said));
        QCOMPARE(o[u"exit"_s].toInt(), 1);
        QCOMPARE(o[u"worst_position"_s].toInteger(), row);
        QVERIFY2(o[u"diagnosis"_s].toString().contains(u"row %1"_s.arg(row)), qPrintable(said));
    }

    // Positions from 3, stored as bfloat16, rows 4000..4009 overwritten with 1: against positions
    // declared from 0 (--positions 0:4096), the offset is named (it was positions-out-of-order, "row
    // 4000 holds position 0, ...") and the rows said, the family declared or not. Without --positions
    // the rows are a window at positions 3..4098, said; the overwritten rows are cells-overwritten there.
    void offsetNamedDespiteOverwrittenRows()
    {
        constexpr qint64 d = 128, rows = 4096;
        const QString file = m_files.written(rows, d, [&](qint64 p, qint64 j) {
            return p >= 4000 && p < 4010 ? 1.0
                                         : double(halffloats::toBFloat16(float(ropeCos(p + 3, j, d, 10000.0f, false))));
        });
        const QStringList fromZero {u"--positions"_s, u"0:4096"_s};
        for (const bool declared : {true, false}) {
            const QStringList family = declared ? declaredTheta10000(d) : QStringList();
            const QJsonObject o = CliRun::checked(file, family + fromZero);
            const QString said = o[u"diagnosis"_s].toString();
            QCOMPARE(o[u"verdict"_s].toString(), u"mistake"_s);
            QVERIFY2(strings(o[u"mistakes"_s]) == QStringList {u"position-offset"_s},
                     qPrintable(strings(o[u"mistakes"_s]).join(u","_s) + u" | "_s + said));
            QVERIFY2(said.contains(u"rows 4000..4009"_s), qPrintable(said));
            const QJsonObject window = CliRun::checked(file, family);
            const QString windowSaid = window[u"diagnosis"_s].toString();
            QCOMPARE(window[u"verdict"_s].toString(), u"mistake"_s);
            // Read as a window from position 3, no row of which holds ones throughout: rows filled with
            // one value, cells-overwritten.
            QVERIFY2(strings(window[u"mistakes"_s]) == QStringList {u"cells-overwritten"_s}
                         && windowSaid.contains(u"rows 4000..4009"_s),
                     qPrintable(windowSaid));
            QCOMPARE(window[u"positions"_s].toObject()[u"first"_s].toInt(), 3);
        }
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliCheckDamage)
} // namespace tst_clicheckdamage
#include "tst_clicheckdamage.moc"
