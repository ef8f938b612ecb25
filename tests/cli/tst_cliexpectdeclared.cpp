// What posenc check says against a declared reference (issue 56, item 4: the mistake named in the
// declaration's terms, and only what was declared said to be declared):
// - a correct table of a form no published model uses, declared in full, is `correct` and says it
//   is the declared reference, not the undeclared "a variant ... Declare this reference";
// - a parameter the check names but the user left at its default is said to be the default's, not
//   "the declaration gives" (held-out set 4, F12);
// - a vector (inv_freq, ALiBi slopes) against --expect-table's vector is compared value by value,
//   as tables are, not refused with "compares tables of one shape" (held-out set 4, F5).
// The tables are written here in float64 from transformers' modeling_rope_utils.py
// (_compute_linear_scaling_rope_parameters, _compute_default_rope_parameters) and the ALiBi paper's
// get_slopes (ofirpress/attention_with_linear_biases, fairseq/models/transformer.py).
#include "CliRun.h"
#include "support/AlibiReference.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <vector>

namespace tst_cliexpectdeclared {
using namespace Qt::StringLiterals;

namespace {

QStringList mistakesOf(const QJsonObject &o)
{
    QStringList ids;
    for (const QJsonValue &v : o[u"mistakes"_s].toArray())
        ids.append(v.toString());
    return ids;
}

QString shown(const QJsonObject &o)
{
    return u"exit %1, %2 [%3]: %4"_s.arg(o[u"exit"_s].toInt())
        .arg(o[u"verdict"_s].toString(), mistakesOf(o).join(u", "_s), o[u"diagnosis"_s].toString());
}

bool writeVector(const QString &path, const std::vector<double> &values)
{
    QByteArray dict = "{'descr': '<f4', 'fortran_order': False, 'shape': ("
        + QByteArray::number(qsizetype(values.size())) + ",), }";
    const qsizetype total = 10 + dict.size() + 1;
    dict.append(QByteArray((64 - total % 64) % 64, ' ')).append('\n');
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict);
    for (const double v : values) {
        const auto f = float(v);
        bytes.append(reinterpret_cast<const char *>(&f), sizeof f);
    }
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// w_k = base^(-k / denominator) for k < h.
std::vector<double> geometric(qint64 h, double base, double denominator)
{
    std::vector<double> w;
    for (qint64 k = 0; k < h; ++k)
        w.push_back(std::pow(base, -double(k) / denominator));
    return w;
}

} // namespace

// A sinusoid of pair frequencies `w`: pair k in columns 2k, 2k + 1 (interleaved) or k, k + h
// (split), its first column sin(p w_k) and its second cos(p w_k), or sin again (`sines`) or both
// cos (`cosines`).
struct Sinusoid
{
    std::vector<double> w;
    bool split = false;
    bool sines = false;
    bool cosines = false;

    double operator()(qint64 p, qint64 j) const
    {
        const auto h = qint64(w.size());
        const qint64 pair = split ? j % h : j / 2;
        const bool second = split ? j >= h : j % 2 == 1;
        const double a = double(p) * w[std::size_t(pair)];
        if (cosines || (second && !sines))
            return std::cos(a);
        return std::sin(a);
    }
};

class TestCliExpectDeclared : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    CliRun::TableFiles m_files {m_dir.path()};

    // HF's half-layout cos table of `inv`, times `scale`.
    QString cosTable(qint64 rows, const std::vector<double> &inv, double scale = 1.0)
    {
        const auto h = qint64(inv.size());
        return m_files.written(
            rows, 2 * h, [&](qint64 p, qint64 j) { return scale * std::cos(double(p) * inv[std::size_t(j % h)]); });
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // It said "verdict: correct" and "a variant: ... Declare this reference to make it correct".
    void aDeclaredVariantIsTheReference()
    {
        std::vector<double> inv;
        for (int i = 0; i < 64; ++i)
            inv.push_back(std::pow(500000.0, -2.0 * i / 128.0) / 4.0);
        const QString table = cosTable(2048, inv);
        const QJsonObject o = CliRun::checked(table,
                                              {u"--expect"_s, u"rope"_s, u"--rope-type"_s, u"linear"_s,
                                               u"--rope-factor"_s, u"4"_s, u"--rope-theta"_s, u"500000"_s});
        QVERIFY2(o[u"exit"_s].toInt() == 0 && o[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(o)));
        const QString diagnosis = o[u"diagnosis"_s].toString();
        QVERIFY2(!diagnosis.contains(u"Declare this reference"_s) && !diagnosis.contains(u"a variant"_s),
                 qPrintable(diagnosis));
        QVERIFY2(diagnosis.contains(u"declared reference"_s), qPrintable(diagnosis));
    }

    // An interleaved table (GPT-J's, rotate_every_two's repeat_interleave) declared without
    // --rope-layout: the half layout compared is the default's. It said "where the declaration gives
    // half" (Fast-LLM's spatial-merge-size 2 of held-out set 4 the same).
    void aDefaultIsNotSaidDeclared()
    {
        std::vector<double> inv;
        for (int i = 0; i < 32; ++i)
            inv.push_back(std::pow(10000.0, -2.0 * i / 64.0));
        const QString table = m_files.written(
            512, 64, [&](qint64 p, qint64 j) { return std::cos(double(p) * inv[std::size_t(j / 2)]); });
        const QStringList flags {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s};
        const QJsonObject o = CliRun::checked(table, flags);
        QVERIFY2(o[u"exit"_s].toInt() == 1 && mistakesOf(o) == QStringList {u"rope-layout"_s}, qPrintable(shown(o)));
        QVERIFY2(o[u"diagnosis"_s].toString().contains(u"rope-layout interleaved where the default, not declared, is "
                                                       "half"_s),
                 qPrintable(shown(o)));
        const QJsonObject given = CliRun::checked(table, flags + QStringList {u"--rope-layout"_s, u"half"_s});
        QVERIFY2(given[u"exit"_s].toInt() == 1 && mistakesOf(given) == QStringList {u"rope-layout"_s},
                 qPrintable(shown(given)));
        QVERIFY2(
            given[u"diagnosis"_s].toString().contains(u"rope-layout interleaved where the declaration gives half"_s),
            qPrintable(shown(given)));
    }

    // flashinfer#1606: a tensor-parallel rank's slopes computed as get_slopes(16) of its 16 local
    // heads, where rank 0 of 32 heads holds get_slopes(32)[0:16]. Refused before (exit 2).
    void vectorsAgainstExpectTable()
    {
        const std::vector<double> all = alibiref::slopes(32);
        const QString fixedPath = QDir(m_dir.path()).filePath(u"slopes-fixed.npy"_s);
        const QString buggyPath = QDir(m_dir.path()).filePath(u"slopes-buggy.npy"_s);
        QVERIFY(writeVector(fixedPath, std::vector<double>(all.begin(), all.begin() + 16)));
        QVERIFY(writeVector(buggyPath, alibiref::slopes(16)));
        const QJsonObject same = CliRun::checked(fixedPath, {u"--expect-table"_s, fixedPath});
        QVERIFY2(same[u"exit"_s].toInt() == 0 && same[u"verdict"_s].toString() == u"correct"_s,
                 qPrintable(shown(same)));
        const QJsonObject wrong = CliRun::checked(buggyPath, {u"--expect-table"_s, fixedPath});
        QVERIFY2(wrong[u"exit"_s].toInt() == 1 && wrong[u"verdict"_s].toString() == u"mistake"_s,
                 qPrintable(shown(wrong)));
        // What the vector is on its own: get_slopes of 16 heads (a note of the text report).
        const CliRun::Run text = CliRun::posenc({u"check"_s, buggyPath, u"--expect-table"_s, fixedPath});
        QVERIFY2(text.out.contains(u"note: read alone, the vector is correct: ALiBi's slopes of 16 heads"_s),
                 qPrintable(text.out));
    }

    // A declared sinusoid's deviation named against the declaration in any layout and shift: the
    // cosines replaced by sines (luopeixiang/im2latex#10: interleaved, half_dim - 1 frequencies, sin
    // in both columns), the sines by cosines, and frequencies of no base (ivanvovk/WaveGrad#12,
    // model/linear_modulation.py PositionalEncoding: `exponents ** 1e-4` for `1e-4 ** exponents`,
    // split [sin | cos], every frequency (k/h)^(1e-4), pair 0's 0): each was "no parameter of
    // Sinusoidal PE explains it". A d_model the table's width is not is d-model; a table of that
    // width no sinusoid explains is refused, both widths said. The fixed WaveGrad is correct.
    void aSinusoidsDeviationIsNamed_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<QString>("words");
        const QStringList split {u"--expect"_s, u"sinusoidal"_s, u"--layout"_s, u"split"_s};
        const QStringList interleaved {u"--expect"_s, u"sinusoidal"_s, u"--layout"_s, u"interleaved"_s};
        QTest::newRow("im2latex#10") << 0 << interleaved + QStringList {u"--freq-shift"_s, u"1"_s} << 1
                                     << u"cos-replaced"_s << u"both columns of every pair hold sin(p w_i)"_s;
        QTest::newRow("sines twice, interleaved") << 1 << interleaved << 1 << u"cos-replaced"_s << u"sin(p w_i)"_s;
        QTest::newRow("cosines twice, split") << 2 << split << 1 << u"sin-replaced"_s << u"cos(p w_i)"_s;
        QTest::newRow("WaveGrad#12") << 3 << split << 1 << u"frequencies-differ"_s
                                     << u"columns 0 and 64 (pair 0) turn at w = 0 where the declared sinusoid gives "
                                        "w_0 = 1, the first of 64 of 64 pairs"_s;
        QTest::newRow("WaveGrad fixed") << 4 << split << 0 << QString() << QString();
        QTest::newRow("d_model 128 declared") << 5 << interleaved + QStringList {u"--d-model"_s, u"128"_s} << 1
                                              << u"d-model"_s
                                              << u"the sinusoid of d_model 64 (64 columns), the declared reference's "
                                                 "is d_model 128"_s;
        QTest::newRow("no sinusoid of 64") << 6 << interleaved + QStringList {u"--d-model"_s, u"128"_s} << 2
                                           << QString() << u"d_model 128 gives a table of 128 columns; this one has 64"_s;
    }
    void aSinusoidsDeviationIsNamed()
    {
        QFETCH(int, kind);
        QFETCH(QStringList, flags);
        QFETCH(int, exitCode);
        QFETCH(QString, mistake);
        QFETCH(QString, words);
        const qint64 d = kind >= 5 ? 64 : 128, h = d / 2;
        Sinusoid s;
        s.w = kind == 0 ? geometric(h, 10000.0, double(h - 1)) : geometric(h, 10000.0, double(h));
        s.split = kind == 2 || kind == 3 || kind == 4;
        s.sines = kind == 0 || kind == 1;
        s.cosines = kind == 2;
        if (kind == 3) {
            for (qint64 k = 0; k < h; ++k)
                s.w[std::size_t(k)] = std::pow(double(k) / double(h), 1e-4);
        }
        const QString table = m_files.written(256, d, [&](qint64 p, qint64 j) {
            if (kind == 6) // no pair of columns turns together
                return std::sin(double(p) * (0.05 + 0.013 * double(j * j % 29)) + 0.1 * double(j));
            return s(p, j);
        });
        if (exitCode == 2) {
            const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, table} + flags);
            QVERIFY2(run.exitCode == 2 && run.err.contains(words), qPrintable(run.out + run.err));
            return;
        }
        const QJsonObject o = CliRun::checked(table, flags);
        QVERIFY2(o[u"exit"_s].toInt() == exitCode, qPrintable(shown(o)));
        if (exitCode == 0) {
            QCOMPARE(o[u"verdict"_s].toString(), u"correct"_s);
            return;
        }
        QVERIFY2(mistakesOf(o).value(0) == mistake, qPrintable(shown(o)));
        QVERIFY2(o[u"diagnosis"_s].toString().contains(words), qPrintable(shown(o)));
    }

    // A table fresh from nn.Embedding's initialiser (normal, σ 0.02: no row related to its
    // neighbour) declared learned: nothing it deviates from, unknown (exit 7), not a mistake.
    void anUntrainedTableDeclaredLearnedIsUnknown()
    {
        std::uint64_t state = 88172645463325252ull;
        const auto normal = [&state] {
            // Box-Muller over a xorshift generator: independent of posenc's own random numbers.
            const auto uniform = [&state] {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                return (double(state >> 11) + 0.5) / double(1ull << 53);
            };
            return std::sqrt(-2.0 * std::log(uniform())) * std::cos(2.0 * M_PI * uniform());
        };
        const QString file = m_files.written(512, 256, [&](qint64, qint64) { return 0.02 * normal(); });
        const QJsonObject o = CliRun::checked(file, {u"--expect"_s, u"learned"_s});
        QVERIFY2(o[u"exit"_s].toInt() == 7 && o[u"verdict"_s].toString() == u"unknown"_s, qPrintable(shown(o)));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliExpectDeclared)
} // namespace tst_cliexpectdeclared
#include "tst_cliexpectdeclared.moc"
