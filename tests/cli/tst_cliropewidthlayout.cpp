// posenc check of RoPE cos tables against a declared reference whose rotary width AND pair layout
// both differ from the table's (issue 56, item 2): both named, rotary-dim and rope-layout, never
// `correct` and never one cause alone (it was refused, exit 2, "rotary_dim 64 gives a table of 64
// columns"). The declared forms are the published ones of partial rotary:
// - GPT-J (huggingface/transformers, models/gptj/modeling_gptj.py: create_sinusoidal_positions(max,
//   rotary_dim) and apply_rotary_pos_emb's repeat_interleave(2) with rotate_every_two: interleaved
//   pairs on the first rotary_dim 64 of a 256-wide head; tests/data/configs/gpt-j-6b.json);
// - GPT-NeoX / Pythia (models/gpt_neox/modeling_gpt_neox.py: rotary_pct 0.25 of the head,
//   GPTNeoXRotaryEmbedding's cat((freqs, freqs)) and rotate_half; pythia-160m.json, gpt-neox-20b.json);
// - Phi (models/phi/modeling_phi.py, PhiAttention.forward: query_states[..., :rotary_ndims],
//   rotary_ndims = head_dim x partial_rotary_factor 0.4 of Phi-2's 80, rotate_half).
// The tables are what a port mixing them makes: the whole head turned in the other layout. Each is
// written here from float64 formulas (inv_freq_i = 10000^(-2i / rotary_dim), cos(p inv_freq_i)
// repeated as cat(freqs, freqs) for half or repeat_interleave(2) for interleaved), rounded to float32.
#include "CliCheckRun.h"
#include "ConfigCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <vector>

namespace tst_cliropewidthlayout {
using namespace Qt::StringLiterals;

namespace {

// HF's cos table of `rotary` columns at theta 10000: column c holds pair c mod rotary / 2 (half,
// cat(freqs, freqs)) or c / 2 (interleaved, repeat_interleave(2)).
std::vector<double> cosTable(std::int64_t rows, std::int64_t rotary, bool interleaved)
{
    std::vector<double> v;
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t c = 0; c < rotary; ++c) {
            const std::int64_t i = interleaved ? c / 2 : c % (rotary / 2);
            v.push_back(std::cos(double(p) * std::pow(10000.0, -2.0 * double(i) / double(rotary))));
        }
    return v;
}

using CliCheck::Checked;

QStringList ids(const Checked &c)
{
    QStringList out;
    for (const QJsonValue &v : c.mistakes())
        out.append(v.toString());
    return out;
}

} // namespace

class TestCliRopeWidthLayout : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_files = 0;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Each declared reference against tables of its own and other widths and layouts: the mistakes
    // named are exactly the parameters that differ, each with both values.
    void eachDifferenceNamed_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<std::int64_t>("cols");
        QTest::addColumn<bool>("interleaved");
        QTest::addColumn<QStringList>("mistakes");
        QTest::addColumn<QStringList>("words");
        const QStringList gptj {u"--expect-config"_s, ConfigCheckRun::fixture(u"gpt-j-6b"_s)};
        const QStringList pythia {u"--expect-config"_s, ConfigCheckRun::fixture(u"pythia-160m"_s)};
        const QStringList neox20b {u"--expect-config"_s, ConfigCheckRun::fixture(u"gpt-neox-20b"_s)};
        const QStringList phi2 {
            u"--expect"_s, u"rope"_s,          u"--head-dim"_s, u"80"_s, u"--partial-rotary-factor"_s,
            u"0.4"_s,      u"--rope-layout"_s, u"half"_s};
        const QStringList both {u"rotary-dim"_s, u"rope-layout"_s};
        // Both differ: the whole head turned in the other layout.
        QTest::newRow("GPT-J declared, rotate_half over 256")
            << gptj << std::int64_t(256) << false << both << QStringList {u"rotary_dim 256"_s, u"rotary_dim 64"_s};
        QTest::newRow("Pythia declared, interleaved over 64")
            << pythia << std::int64_t(64) << true << both << QStringList {u"rotary_dim 64"_s, u"rotary_dim 16"_s};
        QTest::newRow("GPT-NeoX-20B declared, interleaved over 96")
            << neox20b << std::int64_t(96) << true << both << QStringList {u"rotary_dim 96"_s, u"rotary_dim 24"_s};
        QTest::newRow("Phi-2 declared, interleaved over 80")
            << phi2 << std::int64_t(80) << true << both
            << QStringList {u"rotary_dim 80"_s, u"rotary_dim 32"_s, u"the declared reference's are half"_s};
        // The layout not declared: the default's pairs said as the default's, not the declaration's.
        const QStringList width {u"--expect"_s, u"rope"_s, u"--head-dim"_s, u"128"_s, u"--rope-theta"_s, u"10000"_s};
        QTest::newRow("head_dim 128 declared, no layout, interleaved over 64")
            << width << std::int64_t(64) << true << both
            << QStringList {u"rotary_dim 64"_s, u"rotary_dim 128"_s, u"where the default, not declared, is half"_s};
        QTest::newRow("GPT-J declared, GPT-NeoX's 64 half")
            << gptj << std::int64_t(64) << false << QStringList {u"rope-layout"_s} << QStringList {};
        QTest::newRow("Pythia declared, GPT-J's interleaved 16")
            << pythia << std::int64_t(16) << true << QStringList {u"rope-layout"_s} << QStringList {};
        // One differs: that one alone.
        QTest::newRow("GPT-J declared, interleaved over 256")
            << gptj << std::int64_t(256) << true << QStringList {u"rotary-dim"_s}
            << QStringList {u"rotary_dim 256"_s, u"rotary_dim 64"_s};
        QTest::newRow("Phi-2 declared, rotate_half over 80")
            << phi2 << std::int64_t(80) << false << QStringList {u"rotary-dim"_s}
            << QStringList {u"rotary_dim 80"_s, u"rotary_dim 32"_s};
        // Neither: correct.
        QTest::newRow("GPT-J's own") << gptj << std::int64_t(64) << true << QStringList {} << QStringList {};
        QTest::newRow("Pythia's own") << pythia << std::int64_t(16) << false << QStringList {} << QStringList {};
        QTest::newRow("Phi-2's own") << phi2 << std::int64_t(32) << false << QStringList {} << QStringList {};
    }

    void eachDifferenceNamed()
    {
        QFETCH(QStringList, flags);
        QFETCH(std::int64_t, cols);
        QFETCH(bool, interleaved);
        QFETCH(QStringList, mistakes);
        QFETCH(QStringList, words);
        const std::int64_t rows = 256;
        const QString file
            = CliCheck::write(m_dir, u"t%1.npy"_s.arg(m_files++), npy({rows, cols}, cosTable(rows, cols, interleaved)));
        const Checked c = CliCheck::checkFile(file, flags);
        if (mistakes.isEmpty()) {
            QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
            return;
        }
        QVERIFY2(c.exit == 1 && c.verdict() == u"mistake"_s, qPrintable(c.shown));
        QStringList named = ids(c), expected = mistakes;
        named.sort();
        expected.sort();
        QVERIFY2(named == expected, qPrintable(c.shown));
        for (const QString &w : words)
            QVERIFY2(c.diagnosis().contains(w), qPrintable(w + u" in "_s + c.shown));
        if (flags == QStringList {u"--expect"_s, u"rope"_s, u"--head-dim"_s, u"128"_s, u"--rope-theta"_s, u"10000"_s})
            QVERIFY2(!c.diagnosis().contains(u"the declared reference's are"_s), qPrintable(c.shown));
        if (mistakes.contains(u"rope-layout"_s))
            QVERIFY2(c.diagnosis().contains(interleaved ? u"interleaved"_s : u"half"_s), qPrintable(c.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliRopeWidthLayout)
} // namespace tst_cliropewidthlayout
#include "tst_cliropewidthlayout.moc"
