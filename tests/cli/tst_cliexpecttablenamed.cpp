// `posenc check TABLE --expect-table REFERENCE` where the table deviates: the reference read
// without a declaration is a published form, and the mistake is named against it as a declared
// family's would be (TableCheck::nameByReferenceReading). The README's own example, a port whose
// angle is p / w_i against a dump of the paper's table, said "no mistake the check knows explains
// it" though `posenc check port.npy` names position-divided. Tables are float64 formulas here.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <limits>

namespace tst_cliexpecttablenamed {
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kRows = 256;
constexpr qint64 kCols = 64;

// The paper's interleaved sinusoid at position p (sin, cos of p 10000^(-2i/d)); `divided` turns
// the angle into p / w_i, the port mistake of docs/examples/port.npy.
double sinusoid(double p, qint64 j, bool divided = false)
{
    const double w = std::pow(10000.0, -2.0 * double(j / 2) / double(kCols));
    const double angle = divided ? p / w : p * w;
    return j % 2 == 1 ? std::cos(angle) : std::sin(angle);
}

// HF's RoPE cos table, half layout: cos(p theta^(-2i/d)) in columns i and i + d/2.
double ropeCos(qint64 p, qint64 j, double theta)
{
    const qint64 pair = j % (kCols / 2);
    return std::cos(double(p) * std::pow(theta, -2.0 * double(pair) / double(kCols)));
}

// A LongRoPE cos table (transformers' modeling_rope_utils.py, _compute_longrope_parameters:
// inv_i = 1 / (ext_i theta^(2i/d)), attention factor sqrt(1 + ln(factor) / ln(original)); rotate_half's
// cat(freqs, freqs)) of head 64 at theta 10000, original 256 and max_position_embeddings 4096, its
// short_factor 1 + 0.05 i and long_factor 1 + 1.5 i; `longFrom` the first position turned with
// long_factor (transformers: every row of a sequence longer than 256 positions), `amplitude` its
// attention factor where not the config's.
double longRopeCos(qint64 p, qint64 j, qint64 longFrom, double amplitude = 0.0)
{
    constexpr double original = 256.0, factor = 16.0;
    const qint64 pair = j % (kCols / 2);
    const double ext = 1.0 + (p >= longFrom ? 1.5 : 0.05) * double(pair);
    const double a = amplitude > 0.0 ? amplitude : std::sqrt(1.0 + std::log(factor) / std::log(original));
    return a * std::cos(double(p) / (ext * std::pow(10000.0, 2.0 * double(pair) / double(kCols))));
}

QStringList mistakesOf(const QJsonObject &o)
{
    QStringList names;
    for (const QJsonValue &v : o[u"mistakes"_s].toArray())
        names.append(v.toString());
    return names;
}

} // namespace

class TestCliExpectTableNamed : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    CliRun::TableFiles m_tables {m_dir.path()};

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void aSinusoidPortIsNamedAgainstTheDump_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("mistake");
        QTest::newRow("positions from 1") << 0 << u"position-offset"_s;
        QTest::newRow("p / w_i") << 1 << u"position-divided"_s;
    }

    void aSinusoidPortIsNamedAgainstTheDump()
    {
        QFETCH(int, kind);
        QFETCH(QString, mistake);
        const QString reference = m_tables.written(kRows, kCols, [](qint64 p, qint64 j) { return sinusoid(p, j); });
        const QString port = m_tables.written(kRows, kCols, [kind](qint64 p, qint64 j) {
            return kind == 0 ? sinusoid(double(p + 1), j) : sinusoid(double(p), j, true);
        });
        const QJsonObject o = CliRun::checked(port, {u"--expect-table"_s, reference});
        QCOMPARE(o[u"exit"_s].toInt(), 1);
        QCOMPARE(o[u"verdict"_s].toString(), u"mistake"_s);
        QVERIFY2(mistakesOf(o).contains(mistake), QJsonDocument(o).toJson().constData());
        // The comparison is still the one with the file, and the reference's own reading is said (in
        // the diagnosis, or beside the file's rows moved by one, in a note).
        const CliRun::Run run = CliRun::posenc({u"check"_s, port, u"--expect-table"_s, reference});
        QVERIFY2(run.out.contains(u"reference: the table "_s + reference), qPrintable(run.out));
        QVERIFY2(run.out.contains(u"the reference table reads, without a declaration, as"_s), qPrintable(run.out));
    }

    // A RoPE cos table at theta 10000 against a dump at 500000 (a variant: no published model has
    // head 64 at that theta): the parameter and both values.
    void aRopeThetaIsNamedAgainstTheDump()
    {
        const QString reference
            = m_tables.written(kRows, kCols, [](qint64 p, qint64 j) { return ropeCos(p, j, 500000.0); });
        const QString port = m_tables.written(kRows, kCols, [](qint64 p, qint64 j) { return ropeCos(p, j, 10000.0); });
        const CliRun::Run run = CliRun::posenc({u"check"_s, port, u"--expect-table"_s, reference});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains(u"verdict: mistake (rope-theta)"_s), qPrintable(run.out));
        QVERIFY2(run.out.contains(u"rope_theta 10000 where the reference table's reading gives 500000"_s),
                 qPrintable(run.out));
        // Nothing was declared: the sentence does not say so.
        QVERIFY2(!run.out.contains(u"declaration gives"_s), qPrintable(run.out));
        // The table against itself stays correct, and against the dump it equals, unchanged.
        const CliRun::Run same = CliRun::posenc({u"check"_s, reference, u"--expect-table"_s, reference});
        QVERIFY2(same.exitCode == 0, qPrintable(same.out + same.err));
    }

    // vllm#27431: LongRoPE's list chosen per position (positions > original_max_position_embeddings
    // long_factor, the others short_factor) where transformers takes one list for the sequence
    // (longrope_frequency_update: long_factor where max(position_ids) + 1 > original). Against a
    // dump of the reference's table, which shows long_factor alone, the switch is named as
    // --expect-config names it: the rows before it read as LongRoPE's other list.
    void aLongRopeListSwitchedAtARowIsNamedAgainstTheDump()
    {
        constexpr qint64 rows = 1024;
        const QString reference = m_tables.written(rows, kCols, [](qint64 p, qint64 j) { return longRopeCos(p, j, 0); });
        const QString port = m_tables.written(rows, kCols, [](qint64 p, qint64 j) { return longRopeCos(p, j, 257); });
        const CliRun::Run run = CliRun::posenc({u"check"_s, port, u"--expect-table"_s, reference});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains(u"verdict: mistake (longrope-factors-switched)"_s), qPrintable(run.out));
        QVERIFY2(run.out.contains(u"longrope-factors-switched-at-row 257: rows 0..256 turn with short_factor"_s),
                 qPrintable(run.out));
        const CliRun::Run same = CliRun::posenc({u"check"_s, reference, u"--expect-table"_s, reference});
        QVERIFY2(same.exitCode == 0, qPrintable(same.out + same.err));
        // Leading rows of another amplitude are no list of this reference's LongRoPE: no switch named.
        const QString other
            = m_tables.written(rows, kCols, [](qint64 p, qint64 j) { return longRopeCos(p, j, 257, p < 257 ? 1.0 : 0.0); });
        const CliRun::Run unnamed = CliRun::posenc({u"check"_s, other, u"--expect-table"_s, reference});
        QCOMPARE(unnamed.exitCode, 1);
        QVERIFY2(!unnamed.out.contains(u"longrope-factors-switched"_s), qPrintable(unnamed.out));
    }

    // A port computing its angles in float32 (PyTorch's tutorial: position * div_term in float32)
    // against a dump of exact angles: cell by cell beyond the two formats' rounding, but the same
    // formula at the port's precision, which no faithful computation makes a mistake.
    void float32AnglesAgainstExactOnesAreCorrect()
    {
        const QString reference = m_tables.written(kRows, kCols, [](qint64 p, qint64 j) { return sinusoid(p, j); });
        const QString port = m_tables.written(kRows, kCols, [](qint64 p, qint64 j) {
            const float w = float(std::pow(10000.0, -2.0 * double(j / 2) / double(kCols)));
            const float angle = float(p) * w;
            return j % 2 == 1 ? std::cos(double(angle)) : std::sin(double(angle));
        });
        const CliRun::Run run = CliRun::posenc({u"check"_s, port, u"--expect-table"_s, reference});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains(u"which the table %1 is too"_s.arg(reference)), qPrintable(run.out));
        QVERIFY2(run.out.contains(u"cell by cell it differs from the table %1 by up to"_s.arg(reference)),
                 qPrintable(run.out));
        // The other way round, the exact table against the float32 port: the max |error| line gives
        // the difference from the file, as the note does. Before: "max |error|: 0", the error
        // against the reading, beside the note's 1.9e-6.
        const CliRun::Run back = CliRun::posenc({u"check"_s, reference, u"--expect-table"_s, port});
        QVERIFY2(back.exitCode == 0, qPrintable(back.out + back.err));
        const auto line = [](const QString &out, const QString &start) {
            for (const QString &l : out.split(u'\n'))
                if (l.startsWith(start))
                    return l;
            return QString();
        };
        const QString note = line(back.out, u"note: cell by cell it differs from the table %1 by up to "_s.arg(port));
        QVERIFY2(!note.isEmpty(), qPrintable(back.out));
        const QString byFile = note.section(u"by up to "_s, 1).section(u' ', 0, 0);
        QVERIFY2(line(back.out, u"max |error|: "_s).startsWith(u"max |error|: %1 at row "_s.arg(byFile)),
                 qPrintable(back.out));
    }

    // A reference that is no published form (a random walk) names nothing: the deviation is
    // said as before, with no reading of the reference claimed.
    void aReferenceOfNoPublishedFormNamesNothing()
    {
        std::uint32_t state = 12345u;
        std::vector<float> walk(std::size_t(kRows * kCols));
        for (std::size_t i = 0; i < walk.size(); ++i) {
            state = state * 1664525u + 1013904223u;
            walk[i] = (i >= std::size_t(kCols) ? walk[i - kCols] : 0.0f)
                + float(double(state >> 8) / double(1u << 24) - 0.5) * 0.1f;
        }
        const QString reference = m_dir.filePath(u"walk.npy"_s);
        QVERIFY(CliRun::writeNpy(reference, kRows, kCols, walk));
        for (std::size_t i = 0; i < walk.size(); i += 7)
            walk[i] = -walk[i];
        const QString port = m_dir.filePath(u"walk-port.npy"_s);
        QVERIFY(CliRun::writeNpy(port, kRows, kCols, walk));
        const QJsonObject o = CliRun::checked(port, {u"--expect-table"_s, reference});
        QCOMPARE(o[u"exit"_s].toInt(), 1);
        QVERIFY(!o[u"diagnosis"_s].toString().contains(u"the reference table reads"_s));
    }

    // A stack of per-head biases [H, L, L] against the reference's stack of the same shape, head by
    // head (meta-pytorch/attention-gym#86: flex attention's ALiBi score_mod took
    // m (q - k) for m (k - q), the causal mask kept). It was refused ("compare one of them").
    void aStackIsComparedHeadByHead()
    {
        constexpr qint64 heads = 4, length = 32;
        const auto stack = [&](bool reversed) {
            std::vector<float> v(std::size_t(heads * length * length));
            for (qint64 h = 0; h < heads; ++h) {
                const double m = std::pow(2.0, -2.0 * double(h + 1)); // get_slopes(4)
                for (qint64 i = 0; i < length; ++i)
                    for (qint64 j = 0; j < length; ++j)
                        v[std::size_t((h * length + i) * length + j)] = j > i
                            ? -std::numeric_limits<float>::infinity()
                            : float(m * double(reversed ? i - j : j - i));
            }
            return v;
        };
        const QString reference = m_dir.filePath(u"alibi-stack.npy"_s);
        const QString reversed = m_dir.filePath(u"alibi-stack-reversed.npy"_s);
        QVERIFY(CliRun::writeNpyShaped(reference, {heads, length, length}, stack(false)));
        QVERIFY(CliRun::writeNpyShaped(reversed, {heads, length, length}, stack(true)));
        const QJsonObject o = CliRun::checked(reversed, {u"--expect-table"_s, reference});
        QCOMPARE(o[u"exit"_s].toInt(), 1);
        QCOMPARE(o[u"verdict"_s].toString(), u"mistake"_s);
        QVERIFY2(mistakesOf(o).contains(u"relative-position-reversed"_s), QJsonDocument(o).toJson().constData());
        const CliRun::Run same = CliRun::posenc({u"check"_s, reference, u"--expect-table"_s, reference});
        QVERIFY2(same.exitCode == 0, qPrintable(same.out + same.err));
        // The reference with a leading dimension of 1 ([1, H, L, L], as a model's attention bias
        // comes) is the same stack.
        const QString batched = m_dir.filePath(u"alibi-stack-batched.npy"_s);
        QVERIFY(CliRun::writeNpyShaped(batched, {1, heads, length, length}, stack(false)));
        const QJsonObject fromBatched = CliRun::checked(reversed, {u"--expect-table"_s, batched});
        QCOMPARE(fromBatched[u"exit"_s].toInt(), 1);
        QVERIFY(mistakesOf(fromBatched).contains(u"relative-position-reversed"_s));
        // A stack of the same table for each batch element [B, L, d] against that one table: each
        // slice compared with it; one slice off names itself.
        constexpr qint64 batch = 3;
        std::vector<float> caches;
        for (qint64 b = 0; b < batch; ++b)
            for (const float v : CliRun::cells(
                     kRows, kCols, [b](qint64 p, qint64 j) { return sinusoid(double(b == 2 ? p + 1 : p), j); }))
                caches.push_back(v);
        const QString cache = m_dir.filePath(u"caches.npy"_s);
        QVERIFY(CliRun::writeNpyShaped(cache, {batch, kRows, kCols}, caches));
        const QString one = m_tables.written(kRows, kCols, [](qint64 p, qint64 j) { return sinusoid(p, j); });
        const CliRun::Run each = CliRun::posenc({u"check"_s, cache, u"--expect-table"_s, one});
        QCOMPARE(each.exitCode, 1);
        QVERIFY2(each.out.contains(u"slice [2]"_s), qPrintable(each.out));
        // A reference of another shape is refused in one line naming both shapes.
        const QString other = m_dir.filePath(u"alibi-stack-short.npy"_s);
        QVERIFY(CliRun::writeNpyShaped(other, {heads, length / 2, length / 2},
                                       std::vector<float>(std::size_t(heads * length * length / 4), 0.0f)));
        const CliRun::Run refused = CliRun::posenc({u"check"_s, reversed, u"--expect-table"_s, other});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(u"(4, 32, 32)"_s) && refused.err.contains(u"(4, 16, 16)"_s),
                 qPrintable(refused.err));
    }
};

POSENC_TEST_MAIN(TestCliExpectTableNamed)
} // namespace tst_cliexpecttablenamed
#include "tst_cliexpecttablenamed.moc"
