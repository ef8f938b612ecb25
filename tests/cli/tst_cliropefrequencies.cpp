// posenc check against a declared RoPE reference (issue 56): mistakes of the whole frequency vector
// that no parameter of the declared rope_type gives are named, and the correct line stays correct.
// - RoPE applied twice (NVIDIA/TensorRT-LLM#16378, bug 1: yarn missing from
//   PositionEmbeddingType.is_rope(), the unfused path rotated k and the QKV preprocess kernel rotated
//   it again, "mscale^2-scaled and rotated by twice the angle"): rope-applied-twice, as a cos or sin
//   table and under --apply;
// - YaRN's frequencies computed from pos_freqs = theta^(2i/d) where transformers scales
//   inv_freq = 1 / pos_freqs (microsoft/onnxruntime-genai#2076, bug 4:
//   `interpolation = 1.0 / (factor * inv_freq); extrapolation = 1.0 / inv_freq`):
//   rope-frequencies-inverted, as a cos table (float64 angles, and float32 angles as torch forms
//   them) and as the inv_freq vector.
// - A RoPE cos or sin table is no learned table (held-out set 6, B7 and B10): a sin table of a bf16
//   inv_freq (okoge-kaz/llm-recipes#6: model.to(bfloat16) rounded the buffer, angles then float32)
//   and Wan's 3-D RoPE sin table (diffusers transformer_wan.py, WanRotaryPosEmbed: t, h and w
//   tables of get_1d_rotary_pos_embed(..., repeat_interleave_real=True) at sizes 24, 20, 20), whose
//   zero row 0 was taken for padding, are not read as `learned`.
// The tensors are written here from float64 formulas: transformers' modeling_rope_utils.py,
// _compute_yarn_parameters (pos_freqs, find_correction_range without truncation, linear_ramp_factor,
// attention_factor = 0.1 ln(factor) + 1) and modeling_llama.py, apply_rotary_pos_emb and
// rotate_half.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/HalfFloats.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace tst_cliropefrequencies {
using namespace Qt::StringLiterals;

namespace {

struct Yarn
{
    double theta;
    qint64 dim;
    double factor;
    double original;
    double betaFast = 32.0, betaSlow = 1.0;

    double attention() const { return 0.1 * std::log(factor) + 1.0; }
    // The ramp's extrapolation share of pair i (1 - linear_ramp_factor), untruncated.
    double mask(qint64 i) const
    {
        const auto correction = [&](double rotations) {
            return double(dim) * std::log(original / (rotations * 2.0 * M_PI)) / (2.0 * std::log(theta));
        };
        const double low = std::max(correction(betaFast), 0.0);
        double high = std::min(correction(betaSlow), double(dim - 1));
        if (low == high)
            high += 0.001;
        return 1.0 - std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
    }
    // inv_freq as transformers computes it; `fromPos`: the frequencies scaled from pos_freqs.
    std::vector<double> inv(bool fromPos = false) const
    {
        std::vector<double> out;
        for (qint64 i = 0; i < dim / 2; ++i) {
            const double pos = std::pow(theta, double(2 * i) / double(dim));
            const double base = fromPos ? pos : 1.0 / pos;
            out.push_back(base / factor * (1.0 - mask(i)) + base * mask(i));
        }
        return out;
    }
    QStringList flags() const
    {
        return {u"--expect"_s,           u"rope"_s,
                u"--rope-type"_s,        u"yarn"_s,
                u"--rope-factor"_s,      QString::number(factor),
                u"--original-max-len"_s, QString::number(qint64(original)),
                u"--rope-theta"_s,       QString::number(theta, 'g', 17),
                u"--head-dim"_s,         QString::number(dim),
                u"--beta-fast"_s,        QString::number(betaFast),
                u"--beta-slow"_s,        QString::number(betaSlow),
                u"--yarn-truncate"_s,    u"false"_s};
    }
};

// GPT-OSS's yarn (config.json: rope_theta 150000, factor 32, original 4096, beta 32 / 1,
// truncate false, head_dim 64), and the PR's YARN_NO_MSCALE_CONFIG (onnxruntime-genai#2076).
const Yarn kGptOss {150000.0, 64, 32.0, 4096.0};
const Yarn kOrtGenai {10000.0, 128, 40.0, 4096.0};

// The cos (or sin) table of HF's half layout, cat(freqs, freqs), at `amplitude`; `twice`: the
// angles doubled; `float32Angles`: the angle float(p) * float(w) as torch's float32 outer forms it.
double ropeCell(const std::vector<double> &inv, qint64 p, qint64 j, double amplitude, bool sine, bool float32Angles)
{
    const double w = inv[std::size_t(j % qint64(inv.size()))];
    const double angle = float32Angles ? double(float(p) * float(w)) : double(p) * w;
    return amplitude * (sine ? std::sin(angle) : std::cos(angle));
}

using CliCheck::shown;

} // namespace

class TestCliRopeFrequencies : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    CliRun::TableFiles m_files {m_dir.path()};

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void twiceTableNamed_data()
    {
        QTest::addColumn<bool>("sine");
        QTest::addColumn<bool>("twice");
        QTest::newRow("cos, applied twice") << false << true;
        QTest::newRow("sin, applied twice") << true << true;
        QTest::newRow("cos, once: correct") << false << false;
    }
    // af^2 cos(2 p w): named rope-applied-twice with both amplitudes; af cos(p w) correct.
    void twiceTableNamed()
    {
        QFETCH(bool, sine);
        QFETCH(bool, twice);
        std::vector<double> inv = kGptOss.inv();
        const double af = kGptOss.attention();
        if (twice)
            for (double &w : inv)
                w *= 2.0;
        const QString file = m_files.written(
            512, 64, [&](qint64 p, qint64 j) { return ropeCell(inv, p, j, twice ? af * af : af, sine, false); });
        QVERIFY(!file.isEmpty());
        const QJsonObject o = CliRun::checked(file, kGptOss.flags());
        if (!twice) {
            QVERIFY2(o[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(o)));
            return;
        }
        QVERIFY2(o[u"exit"_s].toInt() == 1, qPrintable(shown(o)));
        QVERIFY2(o[u"mistakes"_s].toArray() == QJsonArray {u"rope-applied-twice"_s}, qPrintable(shown(o)));
        const QString diagnosis = o[u"diagnosis"_s].toString();
        QVERIFY2(diagnosis.contains(u"twice"_s) && diagnosis.contains(QString::number(af * af, 'g', 6)),
                 qPrintable(shown(o)));
    }

    // Y = R(p w) R(p w) X, amplitude af^2 (HF's apply_rotary_pos_emb applied to its own output):
    // named under --apply against the declared reference; Y = R(p w) X correct.
    void twiceApplyNamed_data()
    {
        QTest::addColumn<bool>("twice");
        QTest::newRow("applied twice") << true;
        QTest::newRow("once: correct") << false;
    }
    void twiceApplyNamed()
    {
        QFETCH(bool, twice);
        const qint64 rows = 512, d = 64, h = d / 2;
        const std::vector<double> inv = kGptOss.inv();
        const double af = kGptOss.attention();
        std::mt19937 engine(31);
        std::normal_distribution<double> normal(0.0, 1.0);
        std::vector<double> x(std::size_t(rows * d));
        for (double &v : x)
            v = double(float(normal(engine)));
        std::vector<float> xs(x.size()), ys(x.size());
        const auto turn = [&](const std::vector<double> &in, qint64 r) {
            std::vector<double> out(static_cast<std::size_t>(d), 0.0);
            for (qint64 j = 0; j < d; ++j) {
                const double angle = double(r) * inv[std::size_t(j % h)];
                const double a = in[std::size_t(j)], other = j < h ? -in[std::size_t(j + h)] : in[std::size_t(j - h)];
                out[std::size_t(j)] = (a * std::cos(angle) + other * std::sin(angle)) * af;
            }
            return out;
        };
        for (qint64 r = 0; r < rows; ++r) {
            const std::vector<double> row(x.begin() + r * d, x.begin() + (r + 1) * d);
            std::vector<double> y = turn(row, r);
            if (twice)
                y = turn(y, r);
            for (qint64 j = 0; j < d; ++j) {
                xs[std::size_t(r * d + j)] = float(row[std::size_t(j)]);
                ys[std::size_t(r * d + j)] = float(y[std::size_t(j)]);
            }
        }
        const QString xf = m_dir.filePath(u"apply-x.npy"_s), yf = m_dir.filePath(u"apply-y.npy"_s);
        QVERIFY(CliRun::writeNpy(xf, rows, d, xs) && CliRun::writeNpy(yf, rows, d, ys));
        const CliRun::Run run
            = CliRun::posenc(QStringList {u"check"_s, u"--apply"_s, xf, yf, u"--json"_s} + kGptOss.flags());
        QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
        o[u"exit"_s] = run.exitCode;
        if (!twice) {
            QVERIFY2(o[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(o) + run.err));
            return;
        }
        QVERIFY2(o[u"verdict"_s].toString() == u"mistake"_s, qPrintable(shown(o) + run.err));
        QVERIFY2(o[u"mistakes"_s].toArray().contains(u"rope-applied-twice"_s), qPrintable(shown(o)));
    }

    void invertedTableNamed_data()
    {
        QTest::addColumn<bool>("float32Angles");
        QTest::addColumn<bool>("inverted");
        QTest::newRow("from pos_freqs, float64 angles") << false << true;
        QTest::newRow("from pos_freqs, float32 angles") << true << true;
        QTest::newRow("inv_freq, float32 angles: correct") << true << false;
    }
    // onnxruntime-genai's YaRN cache (2048 x 128, cos * mscale) from pos_freqs: named
    // rope-frequencies-inverted; from inv_freq: correct.
    void invertedTableNamed()
    {
        QFETCH(bool, float32Angles);
        QFETCH(bool, inverted);
        const std::vector<double> inv = kOrtGenai.inv(inverted);
        const QString file = m_files.written(2048, 128, [&](qint64 p, qint64 j) {
            return ropeCell(inv, p, j, kOrtGenai.attention(), false, float32Angles);
        });
        QVERIFY(!file.isEmpty());
        const QJsonObject o = CliRun::checked(file, kOrtGenai.flags());
        if (!inverted) {
            QVERIFY2(o[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(o)));
            return;
        }
        QVERIFY2(o[u"exit"_s].toInt() == 1, qPrintable(shown(o)));
        QVERIFY2(o[u"mistakes"_s].toArray() == QJsonArray {u"rope-frequencies-inverted"_s}, qPrintable(shown(o)));
        QVERIFY2(o[u"diagnosis"_s].toString().contains(u"pos_freqs"_s), qPrintable(shown(o)));
    }

    // The same frequencies as the inv_freq vector a model holds: named; transformers' correct.
    void invertedVectorNamed()
    {
        for (const bool inverted : {true, false}) {
            const std::vector<double> inv = kOrtGenai.inv(inverted);
            const QString file = CliCheck::write(m_dir, inverted ? u"inv-bad.npy"_s : u"inv-good.npy"_s,
                                                 npy({qint64(inv.size())}, inv));
            QVERIFY(!file.isEmpty());
            const QJsonObject o = CliRun::checked(file, kOrtGenai.flags());
            if (!inverted) {
                QVERIFY2(o[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(o)));
                continue;
            }
            QVERIFY2(o[u"exit"_s].toInt() == 1, qPrintable(shown(o)));
            QVERIFY2(o[u"mistakes"_s].toArray() == QJsonArray {u"rope-frequencies-inverted"_s}, qPrintable(shown(o)));
        }
    }

    void ropeTablesAreNotLearned_data()
    {
        QTest::addColumn<QString>("which");
        QTest::newRow("sin of a bf16 inv_freq, 4096 x 128") << u"bf16"_s;
        QTest::newRow("Wan's 3-D RoPE sin, 3072 x 64") << u"wan"_s;
    }
    // Undeclared, neither is `learned` (nor `correct`: neither is a published 1-D RoPE table).
    void ropeTablesAreNotLearned()
    {
        QFETCH(QString, which);
        QString file;
        if (which == u"bf16"_s) {
            std::vector<double> inv;
            for (qint64 i = 0; i < 64; ++i)
                inv.push_back(double(halffloats::toBFloat16(1.0f / std::pow(10000.0f, float(2 * i) / 128.0f))));
            file = m_files.written(4096, 128, [&](qint64 p, qint64 j) { return ropeCell(inv, p, j, 1.0, true, true); });
        } else {
            const auto axis = [](qint64 position, qint64 column, qint64 dim) {
                const double w = std::pow(10000.0, -double(column / 2 * 2) / double(dim));
                return std::sin(double(position) * w);
            };
            file = m_files.written(8 * 16 * 24, 64, [&](qint64 n, qint64 c) {
                const qint64 f = n / (16 * 24), h = n / 24 % 16, w = n % 24;
                return c < 24 ? axis(f, c, 24) : c < 44 ? axis(h, c - 24, 20) : axis(w, c - 44, 20);
            });
        }
        QVERIFY(!file.isEmpty());
        const QJsonObject o = CliRun::checked(file, {});
        QVERIFY2(o[u"verdict"_s].toString() != u"learned"_s && o[u"verdict"_s].toString() != u"correct"_s,
                 qPrintable(shown(o)));
        // Wan's table is correct (diffusers' own): never a mistake.
        if (which == u"wan"_s)
            QVERIFY2(o[u"verdict"_s].toString() != u"mistake"_s, qPrintable(shown(o)));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliRopeFrequencies)
} // namespace tst_cliropefrequencies
#include "tst_cliropefrequencies.moc"
