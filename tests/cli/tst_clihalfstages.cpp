// posenc check with a declared reference (issue 56, set 8's F1 and F2): a RoPE table or a sinusoid
// computed in half precision at a stage before the cache is the mistake half-precision-angles with
// the stage and the dtype named, while a faithful computation whose cache alone is held in half
// precision stays correct. Every table is written here, each operation of the cited code done in
// float32 and its result rounded to bfloat16 or float16 as torch rounds it (to nearest, ties to even:
// tests/support/HalfFloats.h), never with posenc's own code:
// - tinygrad's extra/models/llama.py precompute_freqs_cis under DEFAULT_FLOAT=bf16 before
//   tinygrad/tinygrad#17132: freqs = 1.0 / (theta ** (arange(0, dim, 2)[:dim // 2] / dim)),
//   arange(end) * freqs, cos, every result in bf16 (theta a constant of the tensor's dtype);
// - keras-hub's keras_nlp/models/gemma/gemma_attention.py CachedGemmaAttention._apply_rope under
//   mixed_bfloat16 before keras-team/keras-hub#1497: freq_exponents = (2.0 / d) * arange(d // 2),
//   timescale = max_wavelength ** freq_exponents, radians = positions / timescale, all in bf16;
// - the exponents arange(0, d, 2) / d alone in the half format (a head_dim of 96, where 2i/d is no
//   multiple of a power of two);
// - musubi-tuner's Qwen-Image generate before kohya-ss/musubi-tuner#729: timestep =
//   t.expand(B).to(bf16), timestep / 1000 in bf16, then diffusers' get_timestep_embedding
//   (src/diffusers/models/embeddings.py: exponent = -ln(max_period) * arange(half) / half,
//   emb = timesteps.float()[:, None] * exp(exponent), scale 1000, flip_sin_to_cos) in float32.
#include "CliRun.h"
#include "support/HalfFloats.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <cstdint>

namespace tst_clihalfstages {
using namespace Qt::StringLiterals;

namespace {

using halffloats::toBFloat16;
using halffloats::toFloat16;
using Half = float (*)(float);

float keep(float x)
{
    return x;
}

// tinygrad's precompute_freqs_cis with every float in `half` (HF's half layout, cos): `halfCache`
// rounds only the cos (the fix: float32 arange and freqs, the result cast to the default float).
double tinygradCos(qint64 p, qint64 j, qint64 d, float theta, Half half, bool halfCache)
{
    const Half h = halfCache ? keep : half;
    const qint64 i = j % (d / 2);
    const float exponent = h(h(float(2 * i)) / float(d));
    const float inv = h(1.0f / h(std::pow(h(theta), exponent)));
    const float angle = h(h(float(p)) * inv);
    return double(half(float(std::cos(double(angle)))));
}

// keras-hub's Gemma _apply_rope before #1497: radians = positions / timescale, all in bf16.
double kerasCos(qint64 p, qint64 j, qint64 d)
{
    const qint64 i = j % (d / 2);
    const float exponent = toBFloat16((2.0f / float(d)) * toBFloat16(float(i)));
    const float timescale = toBFloat16(std::pow(toBFloat16(10000.0f), exponent));
    const float radians = toBFloat16(toBFloat16(float(p)) / timescale);
    return double(toBFloat16(float(std::cos(double(radians)))));
}

// HF's float32 inv_freq with only the exponent 2i/d rounded by `half`; float32 angle and cos.
double exponentCos(qint64 p, qint64 j, qint64 d, Half half)
{
    const qint64 i = j % (d / 2);
    const float exponent = half(float(2 * i) / float(d));
    const float inv = 1.0f / std::pow(10000.0f, exponent);
    return double(std::cos(float(p) * inv));
}

// diffusers' get_timestep_embedding (flip_sin_to_cos, downscale_freq_shift 0, scale 1000) of the
// timestep t / 1000 as `stage` holds it: [cos | sin] over half = d / 2 frequencies.
double timestepCell(qint64 t, qint64 j, qint64 d, const std::function<float(qint64)> &stage)
{
    const qint64 half = d / 2;
    const float w = std::exp(-std::log(10000.0f) * float(j % half) / float(half));
    const float angle = 1000.0f * (stage(t) * w);
    return j < half ? double(std::cos(angle)) : double(std::sin(angle));
}

// A 1-D float32 .npy of `values` (an inv_freq vector as a model's buffer is dumped).
bool writeVector(const QString &path, const std::vector<float> &values)
{
    QByteArray dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + QByteArray::number(qsizetype(values.size()))
        + ",), }";
    const qsizetype total = 10 + dict.size() + 1;
    dict.append(QByteArray((64 - total % 64) % 64, ' ')).append('\n');
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict);
    bytes.append(reinterpret_cast<const char *>(values.data()), qsizetype(values.size() * sizeof(float)));
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QString shown(const QJsonObject &o)
{
    return u"exit %1, %2, %3: %4"_s.arg(o[u"exit"_s].toInt())
        .arg(o[u"verdict"_s].toString(),
             QString::fromUtf8(QJsonDocument(o[u"mistakes"_s].toArray()).toJson(QJsonDocument::Compact)),
             o[u"diagnosis"_s].toString());
}

const QStringList kTimestepFlags {u"--expect"_s,         u"sinusoidal"_s,  u"--layout"_s, u"split"_s,
                                  u"--flip-sin-to-cos"_s, u"--freq-shift"_s, u"0"_s,       u"--d-model"_s,
                                  u"256"_s};

} // namespace

class TestCliHalfStages : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    CliRun::TableFiles m_files {m_dir.path()};

    void named(const QString &file, const QStringList &flags, const QStringList &words)
    {
        const QJsonObject o = CliRun::checked(file, flags);
        QVERIFY2(o[u"exit"_s].toInt() == 1, qPrintable(shown(o)));
        QCOMPARE(o[u"mistakes"_s].toArray(), QJsonArray {u"half-precision-angles"_s});
        for (const QString &w : words)
            QVERIFY2(o[u"diagnosis"_s].toString().contains(w), qPrintable(w + u" not in "_s + shown(o)));
    }
    void correct(const QString &file, const QStringList &flags)
    {
        const QJsonObject o = CliRun::checked(file, flags);
        QVERIFY2(o[u"exit"_s].toInt() == 0 && o[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(o)));
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // tinygrad#17132: theta (150000 held as 149504 in bf16), the power, inv_freq, positions and the
    // product in bf16; its fix (float32 throughout, the cache cast to bf16) is correct.
    void tinygradStagesNamed()
    {
        const QStringList flags {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"150000"_s, u"--head-dim"_s, u"64"_s};
        const QString buggy = m_files.written(
            2048, 64, [](qint64 p, qint64 j) { return tinygradCos(p, j, 64, 150000.0f, toBFloat16, false); });
        QVERIFY(!buggy.isEmpty());
        named(buggy, flags,
              {u"rope_theta (150000 held as 149504)"_s, u"the power rope_theta^(2i/d)"_s, u"rounded to bfloat16"_s,
               u"tinygrad"_s});
        const QString fixed = m_files.written(
            2048, 64, [](qint64 p, qint64 j) { return tinygradCos(p, j, 64, 150000.0f, toBFloat16, true); });
        QVERIFY(!fixed.isEmpty());
        correct(fixed, flags);
    }

    // The model's inv_freq buffer of that code ([32], bf16 values): the same stages named; HF's float32
    // inv_freq merely cast to bf16 stays the rounding posenc already names (inv_freq alone).
    void tinygradVectorNamed()
    {
        std::vector<float> buggy;
        std::vector<float> cast;
        for (int i = 0; i < 32; ++i) {
            const float exponent = toBFloat16(toBFloat16(float(2 * i)) / 64.0f);
            buggy.push_back(toBFloat16(1.0f / toBFloat16(std::pow(toBFloat16(150000.0f), exponent))));
            cast.push_back(toBFloat16(1.0f / std::pow(150000.0f, float(2 * i) / 64.0f)));
        }
        const QStringList flags {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"150000"_s, u"--head-dim"_s, u"64"_s};
        const QString file = m_dir.filePath(u"inv_freq.npy"_s);
        QVERIFY(writeVector(file, buggy));
        named(file, flags, {u"rope_theta (150000 held as 149504), the power rope_theta^(2i/d) and inv_freq rounded "
                            "to bfloat16"_s});
        const QString castFile = m_dir.filePath(u"inv_freq_cast.npy"_s);
        QVERIFY(writeVector(castFile, cast));
        named(castFile, flags, {u"the inverse frequencies are rounded to bfloat16"_s});
    }

    // The same code in float16 (theta 10000, which float16 holds): the power and inv_freq named.
    void tinygradFloat16Named()
    {
        const QString buggy = m_files.written(
            1024, 128, [](qint64 p, qint64 j) { return tinygradCos(p, j, 128, 10000.0f, toFloat16, false); });
        QVERIFY(!buggy.isEmpty());
        named(buggy, {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s, u"--head-dim"_s, u"128"_s},
              {u"the power rope_theta^(2i/d)"_s, u"rounded to float16"_s});
    }

    // keras-hub#1497: the timescale rope_theta^(2i/d) and the division p / timescale in bf16.
    void kerasDivisionNamed()
    {
        const QString buggy = m_files.written(2048, 256, [](qint64 p, qint64 j) { return kerasCos(p, j, 256); });
        QVERIFY(!buggy.isEmpty());
        named(buggy, {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s, u"--head-dim"_s, u"256"_s},
              {u"rope_theta (10000 held as 9984)"_s, u"p / rope_theta^(2i/d)"_s, u"keras-hub"_s,
               u"rounded to bfloat16"_s});
    }

    // Only the exponents 2i/d rounded (head_dim 96: 2i/96 is not held exactly), bf16 and fp16.
    void exponentNamed_data()
    {
        QTest::addColumn<bool>("bfloat16");
        QTest::newRow("bfloat16") << true;
        QTest::newRow("float16") << false;
    }
    void exponentNamed()
    {
        QFETCH(bool, bfloat16);
        const QString buggy = m_files.written(512, 96, [&](qint64 p, qint64 j) {
            return exponentCos(p, j, 96, bfloat16 ? toBFloat16 : toFloat16);
        });
        QVERIFY(!buggy.isEmpty());
        named(buggy, {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s, u"--head-dim"_s, u"96"_s},
              {u"the exponents 2i/d rounded to %1"_s.arg(bfloat16 ? u"bfloat16"_s : u"float16"_s)});
    }

    // musubi-tuner#729: the timesteps cast to bf16 and divided by 1000 in bf16 are named, with a
    // timestep read back; fp16's t / 1000 alone likewise; the float32 timesteps are correct.
    void timestepsNamed_data()
    {
        QTest::addColumn<bool>("bfloat16");
        QTest::addColumn<QString>("words");
        QTest::newRow("bf16 t, t / 1000") << true << u"the timesteps t and then t / 1000 rounded to bfloat16"_s;
        QTest::newRow("fp16 t / 1000") << false << u"the timesteps divided by 1000 (t / 1000) rounded to float16"_s;
    }
    void timestepsNamed()
    {
        QFETCH(bool, bfloat16);
        QFETCH(QString, words);
        const auto stage = [&](qint64 t) {
            return bfloat16 ? toBFloat16(toBFloat16(float(t)) / 1000.0f) : toFloat16(float(t) / 1000.0f);
        };
        const QString buggy
            = m_files.written(1000, 256, [&](qint64 t, qint64 j) { return timestepCell(t, j, 256, stage); });
        QVERIFY(!buggy.isEmpty());
        named(buggy, kTimestepFlags, {words, u" read as "_s, u"musubi-tuner#729"_s});
        const QString fixed = m_files.written(1000, 256, [](qint64 t, qint64 j) {
            return timestepCell(t, j, 256, [](qint64 s) { return float(s) / 1000.0f; });
        });
        QVERIFY(!fixed.isEmpty());
        correct(fixed, kTimestepFlags);
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliHalfStages)
} // namespace tst_clihalfstages
#include "tst_clihalfstages.moc"
