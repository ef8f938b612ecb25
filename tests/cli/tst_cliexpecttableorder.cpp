// `posenc check TABLE --expect-table REFERENCE` names a deviation as a declaration of the family the
// reference is names it (TableCheck::nameByReferenceReading, CheckTensor's nameByReferenceStack):
// - a RoPE table in the other layout than its dump (NeuraLegion/shainet#111: Meta's interleaved
//   pairs where HF's Llama takes rotate_half's halves) is `rope-layout`, not only its columns moved;
// - diffusers' timestep embedding [sin | cos] against a dump of [cos | sin] (diffusers#1369:
//   FlaxTimesteps dropped flip_sin_to_cos) is `flip-sin-to-cos`;
// - a bidirectional ALiBi stack [1, H, L, L] of another slope formula and sign (candle#1189's
//   jina-bert) is `alibi-slopes`, with the heads and both slope sets;
// each as --expect of that family names it. Columns moved in an order no family names stay
// `columns-swapped`. Every tensor is a float64 formula here, stored as float32.
#include "CliRun.h"
#include "support/AlibiReference.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <vector>

namespace tst_cliexpecttableorder {
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kRows = 256;
constexpr qint64 kHead = 64;
constexpr double kTheta = 100000.0; // SmolLM2-135M's rope_theta

// A RoPE table at position p, column j: cos (or sin) of p theta^(-2i/d) for the pair i that column j
// belongs to, in HF's half layout (rotate_half: columns i and i + d/2) or Meta's interleaved one
// (columns 2i and 2i + 1). transformers' LlamaRotaryEmbedding; llama's reference model.py.
double rope(qint64 p, qint64 j, bool interleaved, bool sine)
{
    const qint64 pair = interleaved ? j / 2 : j % (kHead / 2);
    const double angle = double(p) * std::pow(kTheta, -2.0 * double(pair) / double(kHead));
    return sine ? std::sin(angle) : std::cos(angle);
}

// diffusers' get_timestep_embedding(timesteps, dim, flip_sin_to_cos, downscale_freq_shift=0,
// max_period=10000) (src/diffusers/models/embeddings.py): exponent -ln(max_period) i / half,
// cat(sin, cos), flipped to cat(cos, sin).
double timestep(qint64 t, qint64 j, qint64 dim, bool flip)
{
    const qint64 half = dim / 2;
    const double angle = double(t) * std::exp(-std::log(10000.0) * double(j % half) / double(half));
    const bool first = j < half;
    return first != flip ? std::sin(angle) : std::cos(angle);
}

// candle-transformers' jina_bert.rs build_alibi_bias: n2 the power of two at or above H, slopes for
// v = 1..n2 by `slope(v, n2)`, [1::2] before [0::2] where n2 > H, the first H; the bias
// slope · |i - j|, [1, H, L, L].
std::vector<float> jinaBias(qint64 heads, qint64 length, double (*slope)(qint64, qint64))
{
    qint64 n2 = 1;
    while (n2 < heads)
        n2 *= 2;
    std::vector<double> all, slopes;
    for (qint64 v = 1; v <= n2; ++v)
        all.push_back(slope(v, n2));
    for (const qint64 start : {qint64(1), qint64(0)})
        for (qint64 k = start; k < n2; k += 2)
            slopes.push_back(all[std::size_t(k)]);
    if (n2 == heads)
        slopes = all;
    std::vector<float> v;
    for (qint64 h = 0; h < heads; ++h)
        for (qint64 i = 0; i < length; ++i)
            for (qint64 j = 0; j < length; ++j)
                v.push_back(float(slopes[std::size_t(h)] * double(std::abs(i - j))));
    return v;
}

// The fix (c8e197f68): -1 / 2^(8 v / n2). The bug: 1 / 2^(8 / v).
double fixedSlope(qint64 v, qint64 n2)
{
    return -1.0 / std::pow(2.0, 8.0 * double(v) / double(n2));
}
double buggySlope(qint64 v, qint64)
{
    return 1.0 / std::pow(2.0, 8.0 / double(v));
}

QStringList mistakesOf(const QJsonObject &o)
{
    QStringList names;
    for (const QJsonValue &v : o[u"mistakes"_s].toArray())
        names.append(v.toString());
    return names;
}

QByteArray shown(const QJsonObject &o)
{
    return QJsonDocument(o).toJson();
}

} // namespace

class TestCliExpectTableOrder : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    CliRun::TableFiles m_tables {m_dir.path()};

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void ropeLayoutAgainstTheDump_data()
    {
        QTest::addColumn<bool>("referenceInterleaved");
        QTest::addColumn<bool>("sine");
        QTest::newRow("interleaved port, half dump, cos") << false << false;
        QTest::newRow("half port, interleaved dump, cos") << true << false;
        QTest::newRow("interleaved port, half dump, sin") << false << true;
    }
    void ropeLayoutAgainstTheDump()
    {
        QFETCH(bool, referenceInterleaved);
        QFETCH(bool, sine);
        const QString reference = m_tables.written(
            kRows, kHead, [=](qint64 p, qint64 j) { return rope(p, j, referenceInterleaved, sine); });
        const QString port = m_tables.written(
            kRows, kHead, [=](qint64 p, qint64 j) { return rope(p, j, !referenceInterleaved, sine); });
        const QJsonObject o = CliRun::checked(port, {u"--expect-table"_s, reference});
        QVERIFY2(o[u"exit"_s].toInt() == 1 && mistakesOf(o) == QStringList {u"rope-layout"_s}, shown(o));
        QVERIFY2(o[u"diagnosis"_s].toString().startsWith(u"the reference table reads, without a declaration, as"_s),
                 shown(o));
        // The columns' order found cell by cell is still said, in a note.
        const CliRun::Run text = CliRun::posenc({u"check"_s, port, u"--expect-table"_s, reference});
        QVERIFY2(text.out.contains(u"verdict: mistake (rope-layout)"_s)
                     && text.out.contains(u"note: every cell is one of the table %1's, in another column"_s.arg(reference)),
                 qPrintable(text.out));
        // The name a declaration of the reference's layout gives.
        const QString layout = referenceInterleaved ? u"interleaved"_s : u"half"_s;
        const QJsonObject declared = CliRun::checked(
            port, {u"--expect"_s, sine ? u"rope-sin"_s : u"rope-cos"_s, u"--rope-theta"_s, u"100000"_s,
                   u"--head-dim"_s, u"64"_s, u"--rope-layout"_s, layout});
        QVERIFY2(mistakesOf(declared) == mistakesOf(o), shown(declared));
        // The dump against itself, and a port of the same layout, correct.
        const QString same = m_tables.written(
            kRows, kHead, [=](qint64 p, qint64 j) { return rope(p, j, referenceInterleaved, sine); });
        const QJsonObject right = CliRun::checked(same, {u"--expect-table"_s, reference});
        QVERIFY2(right[u"exit"_s].toInt() == 0 && right[u"verdict"_s].toString() == u"correct"_s, shown(right));
    }

    void timestepFlipAgainstTheDump_data()
    {
        QTest::addColumn<bool>("referenceFlipped");
        QTest::newRow("[sin | cos] port, [cos | sin] dump") << true;
        QTest::newRow("[cos | sin] port, [sin | cos] dump") << false;
    }
    void timestepFlipAgainstTheDump()
    {
        QFETCH(bool, referenceFlipped);
        constexpr qint64 steps = 128, dim = 320; // SD 1.5's UNet: block_out_channels[0] 320
        const QString reference = m_tables.written(
            steps, dim, [=](qint64 t, qint64 j) { return timestep(t, j, dim, referenceFlipped); });
        const QString port = m_tables.written(
            steps, dim, [=](qint64 t, qint64 j) { return timestep(t, j, dim, !referenceFlipped); });
        const QJsonObject o = CliRun::checked(port, {u"--expect-table"_s, reference});
        QStringList flags {u"--expect"_s, u"sinusoidal"_s, u"--layout"_s, u"split"_s};
        if (referenceFlipped)
            flags.append(u"--flip-sin-to-cos"_s);
        const QJsonObject declared = CliRun::checked(port, flags);
        QVERIFY2(o[u"exit"_s].toInt() == 1 && mistakesOf(o) == QStringList {u"flip-sin-to-cos"_s}, shown(o));
        QVERIFY2(mistakesOf(declared) == mistakesOf(o), shown(declared));
        QVERIFY2(o[u"diagnosis"_s].toString().contains(u"flip_sin_to_cos"_s), shown(o));
        const QString same = m_tables.written(
            steps, dim, [=](qint64 t, qint64 j) { return timestep(t, j, dim, referenceFlipped); });
        const QJsonObject right = CliRun::checked(same, {u"--expect-table"_s, reference});
        QVERIFY2(right[u"exit"_s].toInt() == 0, shown(right));
    }

    // Two pairs of a RoPE table exchanged (columns 3 and 5, 35 and 37): an order no parameter of the
    // family gives, so the columns moved are named as they are.
    void columnsOfNoFamilysOrderStand()
    {
        const auto column = [](qint64 j) {
            const qint64 pair = j % (kHead / 2), half = j / (kHead / 2);
            return half * (kHead / 2) + (pair == 3 ? 5 : pair == 5 ? 3 : pair);
        };
        const QString reference
            = m_tables.written(kRows, kHead, [](qint64 p, qint64 j) { return rope(p, j, false, false); });
        const QString port = m_tables.written(
            kRows, kHead, [&](qint64 p, qint64 j) { return rope(p, column(j), false, false); });
        const QJsonObject o = CliRun::checked(port, {u"--expect-table"_s, reference});
        QVERIFY2(o[u"exit"_s].toInt() == 1 && mistakesOf(o) == QStringList {u"columns-swapped"_s}, shown(o));
        QVERIFY2(o[u"diagnosis"_s].toString().contains(u"3 and 5"_s), shown(o));
    }

    // candle#1189: jina-bert's bidirectional ALiBi built with 1 / 2^(8 / v) (and no minus) against the
    // fixed -1 / 2^(8 v / n2), which is get_slopes(12)'s -m |i - j|: alibi-slopes, the heads and both
    // slope sets said, as --expect alibi --heads 12 --alibi symmetric names it; the fixed stack correct.
    void alibiStackSlopesAgainstTheDump()
    {
        constexpr qint64 heads = 12, length = 64;
        const std::vector<qint64> shape {1, heads, length, length};
        const QString reference = m_dir.filePath(u"jina-fixed.npy"_s);
        const QString port = m_dir.filePath(u"jina-buggy.npy"_s);
        const std::vector<float> fixed = jinaBias(heads, length, fixedSlope);
        QVERIFY(CliRun::writeNpyShaped(reference, shape, fixed));
        QVERIFY(CliRun::writeNpyShaped(port, shape, jinaBias(heads, length, buggySlope)));
        // The fix is get_slopes(12)'s bias, written here independently of candle's reordering.
        const std::vector<double> m = alibiref::slopes(heads);
        for (qint64 h = 0; h < heads; ++h)
            QCOMPARE(fixed[std::size_t(h * length * length + 1)], float(-m[std::size_t(h)]));
        const QJsonObject o = CliRun::checked(port, {u"--expect-table"_s, reference});
        const QJsonObject declared = CliRun::checked(
            port, {u"--expect"_s, u"alibi"_s, u"--heads"_s, u"12"_s, u"--alibi"_s, u"symmetric"_s});
        QVERIFY2(o[u"exit"_s].toInt() == 1 && mistakesOf(o) == QStringList {u"alibi-slopes"_s}, shown(o));
        QVERIFY2(mistakesOf(declared) == mistakesOf(o), shown(declared));
        const QString diagnosis = o[u"diagnosis"_s].toString();
        QVERIFY2(diagnosis.contains(u"heads 1..12"_s) && diagnosis.contains(u"get_slopes(12) gives 0.5, 0.25"_s)
                     && diagnosis.contains(u"-0.0625"_s),
                 shown(o));
        const QJsonObject right = CliRun::checked(reference, {u"--expect-table"_s, reference});
        QVERIFY2(right[u"exit"_s].toInt() == 0, shown(right));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliExpectTableOrder)
} // namespace tst_cliexpecttableorder
#include "tst_cliexpecttableorder.moc"
