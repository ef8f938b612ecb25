// posenc check of an M-RoPE cos or sin table computed with another mrope_section than the declared (issue 56;
// REPORT-r27a finding 5b): the table is named the other section's, mrope-other-section, the
// section said, never the misread "columns turn by the t ids" of mrope-columns-axis. The tables are
// written here from the reference code in float64 over float32 angles, as
// huggingface/transformers computes them: inv_freq = 1 / theta^(2j / d) in float32, freqs =
// inv_freq @ position_ids in float32, emb = cat(freqs, freqs), cos; the pairs given to t, h, w by
// models/qwen2_vl/modeling_qwen2_vl.py, apply_multimodal_rotary_pos_emb (chunked: mrope_section's
// runs of pairs, t first) or models/qwen3_vl/modeling_qwen3_vl.py,
// Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope (interleaved: h at pairs 1 mod 3 below
// 3 s_h, w at 2 mod 3 below 3 s_w, t the rest). The prompt text:6, image 1 x 16 x 24 (8 x 12 merged
// tokens), text:10, at get_rope_index's ids: text k at (k, k, k), the image's token (y, x) at
// (6, 6 + y, 6 + x), the text after it from 18 on.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <cmath>
#include <vector>

namespace tst_climropesection {
using namespace Qt::StringLiterals;

namespace {

constexpr std::int64_t kPairs = 64;

int axisOf(std::int64_t j, const std::array<std::int64_t, 3> &section, bool interleaved)
{
    if (interleaved) {
        if (j % 3 == 1 && j < 3 * section[1])
            return 1;
        if (j % 3 == 2 && j < 3 * section[2])
            return 2;
        return 0;
    }
    return j < section[0] ? 0 : j < section[0] + section[1] ? 1 : 2;
}

// cos, or sin where `sine`: an interleaved split moves only slow pairs (3 s_h and 3 s_w reach the
// last pairs), whose cos a few ids apart differ by less than float32's rounding, their sin by more.
std::vector<double> mropeTable(const std::array<std::int64_t, 3> &section, bool interleaved, double theta, bool sine)
{
    std::vector<std::array<std::int64_t, 3>> ids;
    for (std::int64_t k = 0; k < 6; ++k)
        ids.push_back({k, k, k});
    for (std::int64_t y = 0; y < 8; ++y)
        for (std::int64_t x = 0; x < 12; ++x)
            ids.push_back({6, 6 + y, 6 + x});
    for (std::int64_t k = 0; k < 10; ++k)
        ids.push_back({18 + k, 18 + k, 18 + k});
    std::vector<double> v;
    for (const auto &id : ids)
        for (std::int64_t c = 0; c < 2 * kPairs; ++c) {
            const std::int64_t j = c % kPairs;
            const float inv = float(1.0 / std::pow(theta, double(2 * j) / double(2 * kPairs)));
            const float angle = float(id[std::size_t(axisOf(j, section, interleaved))]) * inv;
            v.push_back(sine ? std::sin(double(angle)) : std::cos(double(angle)));
        }
    return v;
}

QStringList declared(const QString &section, bool interleaved, double theta)
{
    QStringList flags {u"--expect"_s,           u"mrope"_s,
                       u"--mrope-section"_s,    section,
                       u"--rope-theta"_s,       QString::number(theta, 'f', 0),
                       u"--head-dim"_s,         u"128"_s,
                       u"--vision-positions"_s, interleaved ? u"qwen3-vl"_s : u"qwen2-vl"_s,
                       u"--prompt"_s,           u"text:6,image:1x16x24,text:10"_s};
    if (interleaved)
        flags.append(u"--mrope-interleaved"_s);
    return flags;
}

} // namespace

class TestCliMropeSection : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    using Checked = CliCheck::Checked;

    Checked check(const std::vector<double> &values, const QStringList &flags)
    {
        return CliCheck::check(m_dir, npy({112, 2 * kPairs}, values), flags);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // The table of one section against the declaration of another, chunked and interleaved.
    void otherSectionIsNamed_data()
    {
        QTest::addColumn<QString>("made");
        QTest::addColumn<QString>("declaredSection");
        QTest::addColumn<bool>("interleaved");
        QTest::addColumn<double>("theta");
        QTest::newRow("chunked 24,20,20 declared Qwen2-VL's 16,24,24")
            << u"24,20,20"_s << u"16,24,24"_s << false << 1e6;
        QTest::newRow("chunked 32,16,16 declared 16,24,24") << u"32,16,16"_s << u"16,24,24"_s << false << 1e6;
        QTest::newRow("interleaved 16,24,24 declared Qwen3-VL's 24,20,20")
            << u"16,24,24"_s << u"24,20,20"_s << true << 5e6;
        QTest::newRow("interleaved 32,16,16 declared 24,20,20") << u"32,16,16"_s << u"24,20,20"_s << true << 5e6;
    }

    void otherSectionIsNamed()
    {
        QFETCH(QString, made);
        QFETCH(QString, declaredSection);
        QFETCH(bool, interleaved);
        QFETCH(double, theta);
        const QStringList parts = made.split(u',');
        const std::array<std::int64_t, 3> section {parts[0].toLongLong(), parts[1].toLongLong(), parts[2].toLongLong()};
        const std::vector<double> table = mropeTable(section, interleaved, theta, interleaved);
        const Checked faithful = check(table, declared(made, interleaved, theta));
        QVERIFY2(faithful.exit == 0 && faithful.verdict() == u"correct"_s, qPrintable(faithful.shown));
        const Checked c = check(table, declared(declaredSection, interleaved, theta));
        QVERIFY2(c.exit == 1 && c.mistakes() == QJsonArray {u"mrope-other-section"_s}, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"mrope_section "_s + made), qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"where "_s + declaredSection), qPrintable(c.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliMropeSection)
} // namespace tst_climropesection
#include "tst_climropesection.moc"
