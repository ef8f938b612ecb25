// posenc check of DeBERTa's log buckets at a max_position no published model has (issue 56, session 29;
// heldout8 F7, NVIDIA/TensorRT#3370: the disentangled-attention plugin scaled the log buckets by the
// sequence length where max_position belongs). The buckets are written here from a float64 port of
// transformers' models/deberta_v2/modeling_deberta_v2.py make_log_bucket_position (relative_pos =
// query − key, build_relative_position):
//   mid = buckets // 2; abs_pos = mid − 1 inside (−mid, mid), else |rel|;
//   log_pos = ceil(log(abs_pos / mid) / log((max_position − 1) / mid) · (mid − 1)) + mid;
//   bucket = rel where abs_pos <= mid, else sign(rel) · log_pos.
// DeBERTa-v3-base (microsoft/deberta-v3-base config.json: position_buckets 256, max_relative_positions
// −1, max_position_embeddings 512) is correct undeclared; the formula at max_position 384 is a variant
// saying what was compared, never correct; declared (flags or a config), the wrong max_position named.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <vector>

namespace tst_clideberta29 {
using namespace Qt::StringLiterals;

namespace {

double bucketOf(std::int64_t rel, std::int64_t buckets, std::int64_t maxPosition)
{
    const std::int64_t mid = buckets / 2;
    const double sign = rel > 0 ? 1.0 : rel < 0 ? -1.0 : 0.0;
    const double absPos = rel < mid && rel > -mid ? double(mid - 1) : std::fabs(double(rel));
    const double logPos = std::ceil(std::log(absPos / double(mid)) / std::log(double(maxPosition - 1) / double(mid))
                                    * double(mid - 1))
        + double(mid);
    return absPos <= double(mid) ? double(rel) : logPos * sign;
}

std::vector<double> table(std::int64_t length, std::int64_t buckets, std::int64_t maxPosition)
{
    std::vector<double> v;
    for (std::int64_t i = 0; i < length; ++i)
        for (std::int64_t j = 0; j < length; ++j)
            v.push_back(bucketOf(i - j, buckets, maxPosition));
    return v;
}

using CliCheck::Checked;

} // namespace

class TestCliDeberta29 : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Checked check(const std::vector<double> &values, std::int64_t length, const QStringList &flags)
    {
        return CliCheck::checkFile(CliCheck::write(m_dir, u"t.npy"_s, npy({length, length}, values)), flags);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // DeBERTa-v3-base's buckets at 384 tokens: correct, undeclared and declared.
    void publishedIsCorrect()
    {
        const std::vector<double> v = table(384, 256, 512);
        for (const QStringList &flags :
             {QStringList {}, QStringList {u"--expect"_s, u"deberta"_s, u"--deberta-buckets"_s, u"256"_s,
                                           u"--deberta-max-position"_s, u"512"_s}}) {
            const Checked c = check(v, 384, flags);
            QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        }
    }

    // TensorRT#3370's buckets (max_position = the sequence's 384): undeclared a variant that says
    // max_position was compared as a parameter; declared, deberta-max-position with both values.
    void otherMaxPosition()
    {
        const std::vector<double> v = table(384, 256, 384);
        const Checked undeclared = check(v, 384, {});
        QVERIFY2(undeclared.verdict() == u"variant"_s, qPrintable(undeclared.shown));
        QVERIFY2(undeclared.diagnosis().contains(u"max_position 384"_s)
                     && undeclared.diagnosis().contains(u"no published form"_s),
                 qPrintable(undeclared.shown));
        const Checked declared = check(v, 384,
                                       {u"--expect"_s, u"deberta"_s, u"--deberta-buckets"_s, u"256"_s,
                                        u"--deberta-max-position"_s, u"512"_s});
        QVERIFY2(declared.verdict() == u"mistake"_s && declared.mistakes() == QJsonArray {u"deberta-max-position"_s},
                 qPrintable(declared.shown));
        QVERIFY2(declared.diagnosis().contains(u"384"_s) && declared.diagnosis().contains(u"512"_s),
                 qPrintable(declared.shown));
        // DeBERTa-v3-base's config.json (the keys the check reads of it).
        const QString config = CliCheck::write(
            m_dir, u"config.json"_s,
            R"({"model_type": "deberta-v2", "relative_attention": true, "position_buckets": 256,
                "max_relative_positions": -1, "max_position_embeddings": 512, "hidden_size": 768,
                "num_attention_heads": 12, "num_hidden_layers": 12})");
        const Checked configured
            = check(v, 384, {u"--expect-config"_s, config, u"--layer-type"_s, u"attention"_s});
        QVERIFY2(configured.verdict() == u"mistake"_s
                     && configured.mistakes() == QJsonArray {u"deberta-max-position"_s},
                 qPrintable(configured.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliDeberta29)
} // namespace tst_clideberta29
#include "tst_clideberta29.moc"
