// `posenc check --expect rope` and `--expect-config` (issue 56: no fixed output a mistake, no buggy
// one correct) on RoPE tables as transformers computes them, written here in float64 from its
// code (huggingface/transformers, src/transformers/modeling_rope_utils.py):
// - _compute_dynamic_ntk_parameters: base * ((factor * seq_len / original) - (factor - 1)) ^
//   (d / (d - 2)), seq_len = max(seq_len, original); dynamic_rope_update passes seq_len =
//   max(position_ids) + 1, so a table of rows 0..L-1 is the sequence of L positions;
// - _compute_longrope_parameters: ext_factors = torch.tensor(long_factor or short_factor,
//   dtype=torch.float32), inv_freq = 1 / (ext_factors * base ** (arange(0, d, 2).float() / d)),
//   cos and sin times attention_factor sqrt(1 + ln(factor) / ln(original));
// - modeling_llama.py, LlamaRotaryEmbedding.forward: emb = cat(freqs, freqs), cos and sin, the
//   two caches side by side as vLLM's cos_sin_cache and a [cos | sin] dump hold them.
#include "CliRun.h"
#include "NpyBytes.h"
#include "support/Sanitizer.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <vector>

namespace tst_clideclaredrope {
using namespace Qt::StringLiterals;

namespace {

// The base dynamic NTK turns at for a sequence of `seq` positions.
double dynamicBase(double theta, double factor, double original, double seq, qint64 d)
{
    const double s = std::max(seq, original);
    return theta * std::pow(factor * s / original - (factor - 1.0), double(d) / double(d - 2));
}

// HF's half layout: column j holds pair j mod d/2, cos or sin of p * inv[pair], times `scale`.
double halfCell(const std::vector<double> &inv, qint64 p, qint64 j, bool cosine, double scale = 1.0)
{
    const double angle = double(p) * inv[std::size_t(j % qint64(inv.size()))];
    return scale * (cosine ? std::cos(angle) : std::sin(angle));
}

std::vector<double> defaultInv(double base, qint64 d)
{
    std::vector<double> inv;
    for (qint64 i = 0; i < d / 2; ++i)
        inv.push_back(1.0 / std::pow(base, double(2 * i) / double(d)));
    return inv;
}

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

QString listText(const std::vector<double> &values)
{
    QStringList words;
    for (const double v : values)
        words.append(QString::number(v, 'g', 17));
    return words.join(u","_s);
}

} // namespace

class TestCliDeclaredRope : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    CliRun::TableFiles m_files {m_dir.path()};

    // A dynamic-NTK table of `rows` rows at the base of a sequence of `seq` positions.
    QString dynamicTable(qint64 rows, qint64 d, double theta, double factor, double original, double seq, bool cosine)
    {
        const std::vector<double> inv = defaultInv(dynamicBase(theta, factor, original, seq, d), d);
        return m_files.written(rows, d, [&](qint64 p, qint64 j) { return halfCell(inv, p, j, cosine); });
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Declared without --max-len, the reference is the table's own sequence: each was `mistake
    // (rope-theta)`, the reference computed at the default 1024 positions.
    void dynamicAtTheTablesRows_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("dim");
        QTest::addColumn<double>("theta");
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("original");
        QTest::addColumn<bool>("cosine");
        QTest::newRow("600 rows, original 256, factor 2, cos")
            << qint64(600) << qint64(128) << 1e4 << 2.0 << 256.0 << true;
        QTest::newRow("3000 rows, original 2048, factor 4, theta 5e5, sin")
            << qint64(3000) << qint64(64) << 5e5 << 4.0 << 2048.0 << false;
        QTest::newRow("200 rows within original 256 (unscaled)")
            << qint64(200) << qint64(128) << 1e4 << 2.0 << 256.0 << true;
    }
    void dynamicAtTheTablesRows()
    {
        QFETCH(qint64, rows);
        QFETCH(qint64, dim);
        QFETCH(double, theta);
        QFETCH(double, factor);
        QFETCH(double, original);
        QFETCH(bool, cosine);
        const QString table = dynamicTable(rows, dim, theta, factor, original, double(rows), cosine);
        QVERIFY(!table.isEmpty());
        const QStringList flags {u"--expect"_s,           u"rope"_s,
                                 u"--rope-type"_s,        u"dynamic"_s,
                                 u"--rope-factor"_s,      QString::number(factor),
                                 u"--original-max-len"_s, QString::number(qint64(original)),
                                 u"--rope-theta"_s,       QString::number(theta, 'g', 17)};
        const QJsonObject o = CliRun::checked(table, flags);
        QVERIFY2(o[u"exit"_s].toInt() == 0, qPrintable(shown(o)));
        // The inverse: a wrong theta is still rope-theta.
        QStringList wrong = flags;
        wrong.last() = QString::number(theta * 2.0, 'g', 17);
        const QJsonObject w = CliRun::checked(table, wrong);
        QVERIFY2(w[u"exit"_s].toInt() == 1 && mistakesOf(w).contains(u"rope-theta"_s), qPrintable(shown(w)));
    }

    // --max-len still says the sequence the table was cut from: a cache built for 2048 positions
    // and sliced to its first 600 rows is correct at --max-len 2048; the 600-row sequence's is not.
    void dynamicMaxLenGivenIsTheSequence()
    {
        const QStringList flags {u"--expect"_s,      u"rope"_s, u"--rope-type"_s,        u"dynamic"_s,
                                 u"--rope-factor"_s, u"2"_s,    u"--original-max-len"_s, u"256"_s,
                                 u"--max-len"_s,     u"2048"_s};
        const QString sliced = dynamicTable(600, 128, 1e4, 2.0, 256.0, 2048.0, true);
        const QJsonObject o = CliRun::checked(sliced, flags);
        QVERIFY2(o[u"exit"_s].toInt() == 0, qPrintable(shown(o)));
        const QString own = dynamicTable(600, 128, 1e4, 2.0, 256.0, 600.0, true);
        const QJsonObject w = CliRun::checked(own, flags);
        QVERIFY2(w[u"exit"_s].toInt() == 1, qPrintable(shown(w)));
    }

    // --expect-config of a dynamic-NTK Llama config (rope_scaling {"type": "dynamic", "factor": 2},
    // max_position_embeddings 256): the table's rows are the sequence there too.
    void dynamicFromAConfig()
    {
        const QString config = m_dir.filePath(u"dynamic.json"_s);
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"model_type": "llama", "hidden_size": 1024, "num_attention_heads": 8,
                       "num_key_value_heads": 8, "num_hidden_layers": 2, "max_position_embeddings": 256,
                       "rope_theta": 10000.0, "rope_scaling": {"type": "dynamic", "factor": 2.0}})");
        file.close();
        const QString table = dynamicTable(600, 128, 1e4, 2.0, 256.0, 600.0, true);
        const QJsonObject o = CliRun::checked(table, {u"--expect-config"_s, config});
        QVERIFY2(o[u"exit"_s].toInt() == 0, qPrintable(shown(o)));
        // The inverse (transformers#46624's kind): the base not grown past the original length is
        // named (rope_theta 10000 where the grown base is declared, or no scaling: rope-type).
        const QString unscaled = dynamicTable(600, 128, 1e4, 2.0, 256.0, 256.0, true);
        const QJsonObject w = CliRun::checked(unscaled, {u"--expect-config"_s, config});
        const QStringList named = mistakesOf(w);
        QVERIFY2(w[u"exit"_s].toInt() == 1 && (named.contains(u"rope-theta"_s) || named.contains(u"rope-type"_s)),
                 qPrintable(shown(w)));
    }

    // HF's cos and sin caches side by side ([cos | sin], 2 x rotary_dim columns) at a declared
    // theta: compared half by half, correct; each was refused (exit 2) at a theta other than 10000.
    void cosSinPairAtTheDeclaredTheta_data()
    {
        QTest::addColumn<double>("theta");
        QTest::addColumn<qint64>("dim");
        QTest::addColumn<qint64>("rows");
        QTest::newRow("theta 5e5, rotary 128") << 5e5 << qint64(128) << qint64(512);
        QTest::newRow("theta 1e6, rotary 64") << 1e6 << qint64(64) << qint64(300);
        QTest::newRow("theta 1e4, rotary 64") << 1e4 << qint64(64) << qint64(300);
    }
    void cosSinPairAtTheDeclaredTheta()
    {
        QFETCH(double, theta);
        QFETCH(qint64, dim);
        QFETCH(qint64, rows);
        const std::vector<double> inv = defaultInv(theta, dim);
        const QString pair
            = m_files.written(rows, 2 * dim, [&](qint64 p, qint64 j) { return halfCell(inv, p, j % dim, j < dim); });
        const QStringList declared {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, QString::number(theta, 'g', 17)};
        const QJsonObject o = CliRun::checked(pair, declared);
        QVERIFY2(o[u"exit"_s].toInt() == 0, qPrintable(shown(o) + o[u"error"_s].toString()));
        QJsonObject withHead = CliRun::checked(pair, declared + QStringList {u"--head-dim"_s, QString::number(dim)});
        QVERIFY2(withHead[u"exit"_s].toInt() == 0, qPrintable(shown(withHead)));
        // The inverse: the pair at another theta than the declared one names it.
        QStringList wrong = declared;
        wrong.last() = QString::number(theta * 3.0, 'g', 17);
        const QJsonObject w = CliRun::checked(pair, wrong);
        QVERIFY2(w[u"exit"_s].toInt() == 1 && mistakesOf(w).contains(u"rope-theta"_s), qPrintable(shown(w)));
    }

    // A LongRoPE table computed as transformers computes it, its factors a float32 tensor: correct
    // against the factors declared in decimal (each was a false longrope-factor mistake). Phi-3's
    // shape (head_dim 96, original 4096, max_position_embeddings 131072), factors of three or four
    // decimals that float32 rounds. Beyond 4096 rows the long factors, within the short ones.
    void longRopeFloat32Factors_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<bool>("float32Angles");
        QTest::newRow("long, factors rounded, float64 angles") << qint64(5000) << false;
        QTest::newRow("long, float32 as torch") << qint64(5000) << true;
        QTest::newRow("short, factors rounded, float64 angles") << qint64(1000) << false;
        QTest::newRow("short, float32 as torch") << qint64(1000) << true;
    }
    void longRopeFloat32Factors()
    {
        QFETCH(qint64, rows);
        QFETCH(bool, float32Angles);
        // Under a sanitizer (some 10 s a row in release): the long factors in float32, the short in float64.
        POSENC_UNDER_SANITIZER_ONLY_ROWS_WHERE(float32Angles == (rows > 4096));
        constexpr qint64 d = 96;
        constexpr double original = 4096.0, longest = 131072.0;
        std::vector<double> shortFactor, longFactor;
        for (qint64 i = 0; i < d / 2; ++i) {
            shortFactor.push_back(std::round((1.0 + 0.0137 * double(i)) * 1e4) / 1e4);
            longFactor.push_back(std::round((1.0 + 0.913 * std::pow(double(i), 1.21)) * 1e3) / 1e3);
        }
        const std::vector<double> &factors = double(rows) > original ? longFactor : shortFactor;
        const double attention = std::sqrt(1.0 + std::log(longest / original) / std::log(original));
        std::vector<double> inv;
        std::vector<float> inv32;
        for (qint64 i = 0; i < d / 2; ++i) {
            const float ext = float(factors[std::size_t(i)]);
            inv.push_back(1.0 / (double(ext) * std::pow(1e4, double(2 * i) / double(d))));
            inv32.push_back(1.0f / (ext * std::pow(1e4f, float(2 * i) / float(d))));
        }
        const QString table = m_files.written(rows, d, [&](qint64 p, qint64 j) {
            if (!float32Angles)
                return halfCell(inv, p, j, true, attention);
            const float angle = float(p) * inv32[std::size_t(j % (d / 2))];
            return double(float(std::cos(double(angle))) * float(attention));
        });
        const QStringList flags {u"--expect"_s,           u"rope"_s,
                                 u"--rope-type"_s,        u"longrope"_s,
                                 u"--head-dim"_s,         QString::number(d),
                                 u"--original-max-len"_s, u"4096"_s,
                                 u"--rope-factor"_s,      u"32"_s,
                                 u"--short-factor"_s,     listText(shortFactor),
                                 u"--long-factor"_s,      listText(longFactor)};
        const QJsonObject o = CliRun::checked(table, flags);
        QVERIFY2(o[u"exit"_s].toInt() == 0, qPrintable(shown(o)));
        // The inverse: the other list's table is still named.
        const std::vector<double> &other = double(rows) > original ? shortFactor : longFactor;
        std::vector<double> wrongInv;
        for (qint64 i = 0; i < d / 2; ++i)
            wrongInv.push_back(1.0 / (double(float(other[std::size_t(i)])) * std::pow(1e4, double(2 * i) / double(d))));
        const QString wrong
            = m_files.written(rows, d, [&](qint64 p, qint64 j) { return halfCell(wrongInv, p, j, true, attention); });
        const QJsonObject w = CliRun::checked(wrong, flags);
        QVERIFY2(w[u"exit"_s].toInt() == 1 && mistakesOf(w).contains(u"longrope-factor-set"_s), qPrintable(shown(w)));
    }

    // An inverse-frequency vector at another theta: the max |error| line gives the largest
    // absolute error, the deviating line the pair worst against its tolerance (relative). Before,
    // "max |error|: 0.129 at row 0, column 6" beside "the worst inv_freq[30]", neither measure named.
    void aVectorsTwoWorstPairsSayTheirMeasures()
    {
        constexpr qint64 d = 128;
        const std::vector<double> found = defaultInv(5e5, d), declared = defaultInv(1e4, d);
        qint64 largest = 0;
        for (qint64 i = 1; i < d / 2; ++i) {
            if (std::fabs(double(float(found[std::size_t(i)])) - declared[std::size_t(i)])
                > std::fabs(double(float(found[std::size_t(largest)])) - declared[std::size_t(largest)]))
                largest = i;
        }
        const QString vector = m_dir.filePath(u"inv_freq.npy"_s);
        QFile file(vector);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.write(npy({d / 2}, found)) > 0);
        file.close();
        const CliRun::Run run
            = CliRun::posenc({u"check"_s, vector, u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains(u"at row 0, column %1 "_s.arg(largest)), qPrintable(run.out));
        QVERIFY2(run.out.contains(u"the worst relative to its tolerance is inv_freq["_s), qPrintable(run.out));
        QVERIFY2(run.out.contains(u"the largest absolute error (max |error|) is inv_freq[%1]'s"_s.arg(largest)),
                 qPrintable(run.out));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliDeclaredRope)
} // namespace tst_clideclaredrope
#include "tst_clideclaredrope.moc"
