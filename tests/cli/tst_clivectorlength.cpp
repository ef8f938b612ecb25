// posenc check on a RoPE inv_freq vector whose declared rope_type depends on the sequence's length
// (r35's item 8). A vector states no length: where the declaration states none either (no
// --max-len, no --prompt; a preset's or config's max_position_embeddings is the model's longest),
// every length's vector is what the declared model computes: the check names the one the vector is,
// and leaves the verdict to a declared length, which picks one (issue 56). The vectors are written
// here in float64 from transformers' modeling_rope_utils.py: _compute_longrope_parameters (inv_freq
// = 1 / (ext_factors * base^(arange(0, dim, 2) / dim)), ext the short_factor list while the
// sequence is at most original_max_position_embeddings, longrope_frequency_update) and
// _compute_dynamic_ntk_parameters (base * ((factor * seq_len / original) - (factor - 1))^(dim /
// (dim - 2)), dynamic_rope_update). Phi-3 mini 128k's and Phi-4 mini's factor lists are read from
// their configs (tests/data/configs; both turn 96 columns at rope_theta 10000, Phi-4 mini 96 of its
// 128 by partial_rotary_factor 0.75).
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <utility>
#include <vector>

namespace tst_clivectorlength {
using namespace Qt::StringLiterals;

namespace {

QString configPath(const QString &name)
{
    return QStringLiteral(POSENC_CONFIGS) + u"/"_s + name;
}

std::vector<double> factorList(const QString &config, const QString &key)
{
    QFile file(configPath(config));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    std::vector<double> out;
    for (const QJsonValue &v : QJsonDocument::fromJson(file.readAll())[u"rope_scaling"_s][key].toArray())
        out.push_back(v.toDouble());
    return out;
}

// Phi-3 mini's and Phi-4 mini's inv_freq with `factors` (rope_theta 10000, rotary_dim 96), each pair
// times `damage`.
QByteArray longRope(const std::vector<double> &factors, double damage = 1.0)
{
    std::vector<double> v;
    for (std::size_t i = 0; i < factors.size(); ++i)
        v.push_back(damage / (factors[i] * std::pow(1e4, double(2 * i) / 96.0)));
    return npy({std::int64_t(v.size())}, v);
}

// Dynamic NTK's inv_freq at rope_theta 10000, head_dim 128, factor 2 over 4096, for a sequence of `seq`.
QByteArray dynamic(double seq)
{
    const double d = 128.0, original = 4096.0, factor = 2.0;
    const double base = seq <= original ? 1e4 : 1e4 * std::pow(factor * seq / original - (factor - 1.0), d / (d - 2.0));
    std::vector<double> v;
    for (int i = 0; i < 64; ++i)
        v.push_back(1.0 / std::pow(base, double(2 * i) / d));
    return npy({64}, v);
}

using CliCheck::Checked;

const QStringList kDynamic {u"--expect"_s,      u"rope"_s,  u"--rope-type"_s,        u"dynamic"_s,
                            u"--rope-factor"_s, u"2"_s,     u"--original-max-len"_s, u"4096"_s,
                            u"--rope-theta"_s,  u"10000"_s, u"--head-dim"_s,         u"128"_s};

} // namespace

class TestCliVectorLength : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Checked check(const QByteArray &bytes, const QStringList &flags) { return CliCheck::check(m_dir, bytes, flags); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        for (const QString &config : {u"Phi-3-mini-128k-instruct.json"_s, u"Phi-4-mini-instruct.json"_s}) {
            QCOMPARE(factorList(config, u"short_factor"_s).size(), std::size_t(48));
            QCOMPARE(factorList(config, u"long_factor"_s).size(), std::size_t(48));
        }
    }

    // A vector states no length: each of a model's lists under its preset or its config with no length
    // declared is read as that list, named with the lengths it serves, and is not `correct` (nor a
    // mistake): which list was right depends on the sequence (llama.cpp#24823 took the long factors for
    // prompts of any length). A length declared (--max-len, also under --expect-config) keeps one list,
    // `correct`, the other longrope-factor-set; a list that is neither is never correct.
    void longRopeListsAtAnUnstatedLength_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QStringList>("declared");
        const QString phi3 = u"Phi-3-mini-128k-instruct.json"_s, phi4 = u"Phi-4-mini-instruct.json"_s;
        QTest::newRow("Phi-3 mini preset")
            << phi3 << QStringList {u"--expect"_s, u"rope"_s, u"--preset"_s, u"phi-3-mini-128k"_s};
        QTest::newRow("Phi-3 mini config") << phi3 << QStringList {u"--expect-config"_s, configPath(phi3)};
        QTest::newRow("Phi-4 mini preset (r35's P1)")
            << phi4 << QStringList {u"--expect"_s, u"rope"_s, u"--preset"_s, u"phi-4-mini"_s};
        QTest::newRow("Phi-4 mini config") << phi4 << QStringList {u"--expect-config"_s, configPath(phi4)};
    }
    void longRopeListsAtAnUnstatedLength()
    {
        QFETCH(QString, config);
        QFETCH(QStringList, declared);
        const QByteArray shortList = longRope(factorList(config, u"short_factor"_s));
        const QByteArray longList = longRope(factorList(config, u"long_factor"_s));
        const Checked s = check(shortList, declared);
        QVERIFY2(s.exit == 7 && s.verdict() == u"unknown"_s, qPrintable(s.shown));
        QVERIFY2(s.diagnosis().contains(u"short_factor"_s) && s.diagnosis().contains(u"at most"_s)
                     && s.diagnosis().contains(u"4096"_s) && s.diagnosis().contains(u"--max-len"_s),
                 qPrintable(s.shown));
        const Checked l = check(longList, declared);
        QVERIFY2(l.exit == 7 && l.verdict() == u"unknown"_s, qPrintable(l.shown));
        QVERIFY2(l.diagnosis().contains(u"long_factor"_s) && l.diagnosis().contains(u"longer than"_s)
                     && l.diagnosis().contains(u"4096"_s),
                 qPrintable(l.shown));
        const Checked damaged = check(longRope(factorList(config, u"short_factor"_s), 1.001), declared);
        QVERIFY2(damaged.exit == 1 && damaged.verdict() == u"mistake"_s, qPrintable(damaged.shown));

        for (const QString &length : {u"4096"_s, u"1000"_s}) {
            const Checked shortShort = check(shortList, declared + QStringList {u"--max-len"_s, length});
            QVERIFY2(shortShort.exit == 0 && shortShort.verdict() == u"correct"_s, qPrintable(shortShort.shown));
            const Checked longShort = check(longList, declared + QStringList {u"--max-len"_s, length});
            QVERIFY2(longShort.exit == 1 && longShort.mistakes() == QJsonArray {u"longrope-factor-set"_s},
                     qPrintable(longShort.shown));
        }
        const Checked shortAtLong = check(shortList, declared + QStringList {u"--max-len"_s, u"131072"_s});
        QVERIFY2(shortAtLong.exit == 1 && shortAtLong.mistakes() == QJsonArray {u"longrope-factor-set"_s},
                 qPrintable(shortAtLong.shown));
        const Checked longAt4097 = check(longList, declared + QStringList {u"--max-len"_s, u"4097"_s});
        QVERIFY2(longAt4097.exit == 0 && longAt4097.verdict() == u"correct"_s, qPrintable(longAt4097.shown));
    }

    // --expect-table of the other list: the reference vector reads as that list of the model, at the
    // lengths it serves, and the vector is its other list, longrope-factor-set.
    void longRopeAgainstTheOtherList()
    {
        const QString config = u"Phi-3-mini-128k-instruct.json"_s;
        const QString shortFile
            = CliCheck::write(m_dir, u"short.npy"_s, longRope(factorList(config, u"short_factor"_s)));
        const QString longFile = CliCheck::write(m_dir, u"long.npy"_s, longRope(factorList(config, u"long_factor"_s)));
        for (const auto &[file, reference] : {std::pair {longFile, shortFile}, std::pair {shortFile, longFile}}) {
            const Checked c = CliCheck::checkFile(file, {u"--expect-table"_s, reference});
            QVERIFY2(c.exit == 1 && c.mistakes() == QJsonArray {u"longrope-factor-set"_s}, qPrintable(c.shown));
        }
        const Checked same = CliCheck::checkFile(longFile, {u"--expect-table"_s, longFile});
        QVERIFY2(same.exit == 0 && same.verdict() == u"correct"_s, qPrintable(same.shown));
    }

    // Dynamic NTK, the same class: the plain base (a sequence of at most 4096) and the base grown for a
    // whole length are read as that length's with no length declared, the length named, not `correct`;
    // a base no whole length gives is a mistake; a declared length keeps its own verdict.
    void dynamicBaseAtAnUnstatedLength()
    {
        const Checked plain = check(dynamic(4096.0), kDynamic);
        QVERIFY2(plain.exit == 7 && plain.diagnosis().contains(u"at most"_s), qPrintable(plain.shown));
        const Checked grown = check(dynamic(8192.0), kDynamic);
        QVERIFY2(grown.exit == 7 && grown.verdict() == u"unknown"_s, qPrintable(grown.shown));
        QVERIFY2(grown.diagnosis().contains(u"a sequence of 8192 positions"_s), qPrintable(grown.shown));
        const Checked between = check(dynamic(5000.4), kDynamic);
        QVERIFY2(between.exit == 1, qPrintable(between.shown));

        const Checked declaredRight = check(dynamic(8192.0), kDynamic + QStringList {u"--max-len"_s, u"8192"_s});
        QVERIFY2(declaredRight.exit == 0, qPrintable(declaredRight.shown));
        const Checked declaredWrong = check(dynamic(8192.0), kDynamic + QStringList {u"--max-len"_s, u"2048"_s});
        QVERIFY2(declaredWrong.exit == 1 && declaredWrong.verdict() == u"mistake"_s, qPrintable(declaredWrong.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliVectorLength)
} // namespace tst_clivectorlength
#include "tst_clivectorlength.moc"
