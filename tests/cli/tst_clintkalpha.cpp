// Hunyuan's NTK alpha, a published form of dynamic RoPE: a config's rope_scaling {"type": "dynamic",
// "alpha": A} turns at base = rope_theta * A ** (d / (d - 2)), d the head dim, at every length
// (transformers' HunYuanDenseV1RotaryEmbedding.__init__, "DynamicNTKAlphaRotary"; vLLM's
// DynamicNTKAlphaRotaryEmbedding). The config is tencent HY-MT1.5-1.8B's rope (onnxruntime/mobius#293:
// rope_theta 10000, alpha 1000, head_dim 128). Its correct tensors (inv_freq, a cos table) are
// `correct` under --expect-config; the port that read dynamic's factor and left alpha out
// (mobius#293's buggy `factor = config.rope_scaling["factor"]`) turns at rope_theta 10000 and is
// rope-theta, both bases said. Every tensor is a float64 formula written here, never posenc's.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace tst_clintkalpha {
using namespace Qt::StringLiterals;

namespace {

constexpr std::int64_t kHeadDim = 128;
constexpr double kTheta = 10000.0, kAlpha = 1000.0;

// HunYuanDenseV1RotaryEmbedding's base: rope_theta * alpha ** (head_dim / (head_dim - 2)).
double alphaBase()
{
    return kTheta * std::pow(kAlpha, double(kHeadDim) / double(kHeadDim - 2));
}

// inv_freq = 1 / base ** (arange(0, d, 2) / d).
std::vector<double> invFreq(double base)
{
    std::vector<double> v;
    for (std::int64_t i = 0; i < kHeadDim / 2; ++i)
        v.push_back(1.0 / std::pow(base, double(2 * i) / double(kHeadDim)));
    return v;
}

// cos(cat(freqs, freqs)) at positions 0 .. rows - 1 (LlamaRotaryEmbedding.forward, attention factor 1).
std::vector<double> cosTable(double base, std::int64_t rows)
{
    const std::vector<double> inv = invFreq(base);
    std::vector<double> v;
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t c = 0; c < kHeadDim; ++c)
            v.push_back(std::cos(double(p) * inv[std::size_t(c % (kHeadDim / 2))]));
    return v;
}

QByteArray config()
{
    QJsonObject scaling {{u"alpha"_s, kAlpha},     {u"beta_fast"_s, 32},      {u"beta_slow"_s, 1},
                         {u"factor"_s, 1.0},       {u"mscale"_s, 1.0},        {u"mscale_all_dim"_s, 1.0},
                         {u"type"_s, u"dynamic"_s}};
    QJsonObject c {{u"architectures"_s, QJsonArray {u"HunYuanDenseV1ForCausalLM"_s}},
                   {u"model_type"_s, u"hunyuan_v1_dense"_s},
                   {u"hidden_size"_s, 2048},
                   {u"num_attention_heads"_s, 16},
                   {u"num_key_value_heads"_s, 4},
                   {u"head_dim"_s, qint64(kHeadDim)},
                   {u"num_hidden_layers"_s, 32},
                   {u"max_position_embeddings"_s, 32768},
                   {u"rope_theta"_s, kTheta},
                   {u"rope_scaling"_s, scaling}};
    return QJsonDocument(c).toJson();
}

} // namespace

class TestCliNtkAlpha : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_config;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_config = CliCheck::write(m_dir, u"hy-mt.json"_s, config());
        QVERIFY(!m_config.isEmpty());
    }

    // The config check reads alpha: the base is rope_theta * alpha^(128/126), said with its source.
    void configRead()
    {
        const CliRun::Run run = CliRun::posenc({u"check"_s, u"--config"_s, m_config});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(u"dynamic-ntk-alpha"_s), qPrintable(run.out));
        QVERIFY2(!run.out.contains(u"holds alpha"_s), qPrintable(run.out));
        // 11158839.9...: its whole part, as the exact digits begin.
        const QString base = QString::number(std::int64_t(alphaBase()));
        QVERIFY2(run.out.contains(u"rope_scaling.alpha"_s), qPrintable(run.out));
        QVERIFY2(run.out.contains(base), qPrintable(base + u"\n"_s + run.out));
    }

    // The correct tensors are correct; the alpha-ignored ones rope-theta, both bases said.
    void tensors_data()
    {
        QTest::addColumn<bool>("vector");
        QTest::newRow("inv_freq [64]") << true;
        QTest::newRow("cos table [256, 128]") << false;
    }
    void tensors()
    {
        QFETCH(bool, vector);
        const auto tensor = [&](double base, const QString &name) {
            return vector ? CliCheck::write(m_dir, name, npy({kHeadDim / 2}, invFreq(base)))
                          : CliCheck::write(m_dir, name, npy({256, kHeadDim}, cosTable(base, 256)));
        };
        const QString fixed = tensor(alphaBase(), u"fixed-%1.npy"_s.arg(vector));
        const QString buggy = tensor(kTheta, u"buggy-%1.npy"_s.arg(vector));
        QVERIFY(!fixed.isEmpty() && !buggy.isEmpty());
        const QStringList declared {u"--expect-config"_s, m_config};
        const CliCheck::Checked right = CliCheck::checkFile(fixed, declared);
        QVERIFY2(right.verdict() == u"correct"_s && right.exit == 0, qPrintable(right.shown));
        const CliCheck::Checked wrong = CliCheck::checkFile(buggy, declared);
        QVERIFY2(CliCheck::named(wrong.json, {u"rope-theta"_s}) && wrong.exit == 1, qPrintable(wrong.shown));
        // Both bases said: the table's rope_theta 10000 and the config's alpha base.
        QVERIFY2(wrong.diagnosis().contains(u"10000"_s), qPrintable(wrong.shown));
        QVERIFY2(wrong.diagnosis().contains(QString::number(std::int64_t(alphaBase()))), qPrintable(wrong.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliNtkAlpha)
} // namespace tst_clintkalpha
#include "tst_clintkalpha.moc"
