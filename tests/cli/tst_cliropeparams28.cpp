// posenc check against a declared RoPE reference names the parameter that explains the whole tensor
// (issue 56; held-out set 7's F3, F4, F5, F7):
// - YaRN whose ramp runs past the last pair (DeepSeek-V4's sliding layers kept YaRN at rope_theta
//   10000, factor 16, original 65536, betas 32 / 1: 1CatAI/1Cat-vLLM#251; find_correction_range's
//   high end ceil(33.0) lies past pair 31, so no pair is fully divided): read undeclared as yarn,
//   named rope-type and rope-factor against the declared default, correct against its own yarn.
// - YaRN with beta_fast 1, beta_slow 128 (candle-vllm's defaults before EricLBuehler/candle-vllm#285)
//   or the betas exchanged (1, 32): named beta-fast and beta-slow with both values, as the inv_freq
//   vector and as the cos table (Qwen2.5's yarn dict, factor 4, original 32768, rope_theta 1e6).
// - A table missing its declared linear factor (lablup/mlxcel#1340: Gemma 3's global layers at
//   scale 1 where linear 8 is declared): rope-type and rope-factor, not positions-out-of-order,
//   though row r of it is row 8r of the declared table (both said).
// - An undeclared correct names the published form it equals (the verdict rule).
// - Under --apply, Qwen2.5's YaRN applied twice (R(p w) R(p w) X = R(2 p w) X, amplitude af^2:
//   NVIDIA/TensorRT-LLM#16378), whose rows read as the declared frequencies at twice their
//   positions: rope-applied-twice, not positions-out-of-order and attention-factor.
// The tensors are written here from float64 formulas: transformers' modeling_rope_utils.py,
// _compute_default_rope_parameters and _compute_yarn_parameters (find_correction_dim,
// find_correction_range with truncate, linear_ramp_factor, get_mscale 0.1 ln(factor) + 1), and
// modeling_llama.py's cos and sin of cat(freqs, freqs).
#include "CliCheckRun.h"
#include "NpyBytes.h"
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

namespace tst_cliropeparams28 {
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
    // inv_freq of _compute_yarn_parameters with truncate (floor and ceil, then clamped).
    std::vector<double> inv() const
    {
        const auto correction = [&](double rotations) {
            return double(dim) * std::log(original / (rotations * 2.0 * M_PI)) / (2.0 * std::log(theta));
        };
        const double low = std::max(std::floor(correction(betaFast)), 0.0);
        double high = std::min(std::ceil(correction(betaSlow)), double(dim - 1));
        if (low == high)
            high += 0.001;
        std::vector<double> out;
        for (qint64 i = 0; i < dim / 2; ++i) {
            const double extrapolation = std::pow(theta, -double(2 * i) / double(dim));
            const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
            out.push_back(extrapolation / factor * ramp + extrapolation * (1.0 - ramp));
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
                u"--head-dim"_s,         QString::number(dim)};
    }
};

std::vector<double> plainInv(double theta, qint64 dim)
{
    std::vector<double> out;
    for (qint64 i = 0; i < dim / 2; ++i)
        out.push_back(std::pow(theta, -double(2 * i) / double(dim)));
    return out;
}

// Llama 3.1 8B's inv_freq: _compute_llama3_parameters (rope_theta 500000, factor 8, low 1, high 4,
// original 8192): wavelengths past original / low divided, below original / high kept, blended between.
std::vector<double> llama31Inv()
{
    std::vector<double> out;
    for (const double w : plainInv(500000.0, 128)) {
        const double wavelength = 2.0 * M_PI / w, low = 8192.0, high = 8192.0 / 4.0;
        const double smooth = (8192.0 / wavelength - 1.0) / (4.0 - 1.0);
        out.push_back(wavelength < high ? w : wavelength > low ? w / 8.0 : (1.0 - smooth) * w / 8.0 + smooth * w);
    }
    return out;
}

// DeepSeek-V4's yarn (rope head 64) at its sliding layers' rope_theta 10000.
const Yarn kSlidingYarn {10000.0, 64, 16.0, 65536.0};
// Qwen2.5's documented yarn dict: factor 4, original 32768, rope_theta 1e6, head_dim 128.
const Yarn kQwenYarn {1000000.0, 128, 4.0, 32768.0};

using CliCheck::named;
using CliCheck::shown;

} // namespace

class TestCliRopeParams28 : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    CliRun::TableFiles m_files {m_dir.path()};
    int m_count = 0;

    QString vector(const std::vector<double> &v)
    {
        return CliCheck::write(m_dir, u"inv-%1.npy"_s.arg(m_count++), npy({qint64(v.size())}, v));
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // F4: the ramp past the last pair, as the inv_freq vector.
    void rampPastLastPair()
    {
        const std::vector<double> inv = kSlidingYarn.inv();
        // The formula's premise: no pair fully divided (the last at 11/13 of the ramp).
        QVERIFY(inv.back() > std::pow(10000.0, -62.0 / 64.0) / 16.0 * 1.5);
        const QString file = vector(inv);
        QVERIFY(!file.isEmpty());
        const QJsonObject plain = CliRun::checked(
            file, {u"--expect"_s, u"rope"_s, u"--rope-theta"_s, u"10000"_s, u"--head-dim"_s, u"64"_s});
        QVERIFY2(named(plain, {u"rope-type"_s, u"rope-factor"_s}), qPrintable(shown(plain)));
        QVERIFY2(plain[u"diagnosis"_s].toString().contains(u"factor 16"_s), qPrintable(shown(plain)));
        const QJsonObject declared = CliRun::checked(file, kSlidingYarn.flags());
        QVERIFY2(declared[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(declared)));
        const QJsonObject undeclared = CliRun::checked(file, {});
        QVERIFY2(undeclared[u"verdict"_s].toString() == u"variant"_s, qPrintable(shown(undeclared)));
        QVERIFY2(undeclared[u"diagnosis"_s].toString().contains(u"rope_type yarn"_s), qPrintable(shown(undeclared)));
    }

    void otherBetasVector_data()
    {
        QTest::addColumn<double>("betaFast");
        QTest::addColumn<double>("betaSlow");
        QTest::addColumn<QString>("words");
        QTest::newRow("candle-vllm's 1 / 128") << 1.0 << 128.0 << u"beta_fast below beta_slow"_s;
        QTest::newRow("exchanged 1 / 32") << 1.0 << 32.0 << u"exchanged"_s;
    }
    // F5: other betas named with both values; HF's 32 / 1 correct.
    void otherBetasVector()
    {
        QFETCH(double, betaFast);
        QFETCH(double, betaSlow);
        QFETCH(QString, words);
        Yarn yarn = kQwenYarn;
        yarn.betaFast = betaFast;
        yarn.betaSlow = betaSlow;
        const QString file = vector(yarn.inv());
        QVERIFY(!file.isEmpty());
        const QJsonObject o = CliRun::checked(file, kQwenYarn.flags());
        QVERIFY2(named(o, {u"beta-fast"_s, u"beta-slow"_s}), qPrintable(shown(o)));
        const QString diagnosis = o[u"diagnosis"_s].toString();
        QVERIFY2(diagnosis.contains(u"beta_fast %1 where 32"_s.arg(betaFast))
                     && diagnosis.contains(u"beta_slow %1 where 1"_s.arg(betaSlow)) && diagnosis.contains(words),
                 qPrintable(shown(o)));
        const QJsonObject right = CliRun::checked(vector(kQwenYarn.inv()), kQwenYarn.flags());
        QVERIFY2(right[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(right)));
    }

    void otherBetasTable_data()
    {
        QTest::addColumn<bool>("buggy");
        QTest::newRow("beta 1 / 128") << true;
        QTest::newRow("beta 32 / 1: correct") << false;
    }
    // F5 as candle-vllm's cos cache (cat(f, f) * mscale, 2048 x 128): beta-fast and beta-slow.
    void otherBetasTable()
    {
        QFETCH(bool, buggy);
        Yarn yarn = kQwenYarn;
        if (buggy) {
            yarn.betaFast = 1.0;
            yarn.betaSlow = 128.0;
        }
        const std::vector<double> inv = yarn.inv();
        const double af = yarn.attention();
        const QString file = m_files.written(
            2048, 128, [&](qint64 p, qint64 j) { return af * std::cos(double(p) * inv[std::size_t(j % 64)]); });
        QVERIFY(!file.isEmpty());
        const QJsonObject o = CliRun::checked(file, kQwenYarn.flags());
        if (!buggy) {
            QVERIFY2(o[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(o)));
            return;
        }
        QVERIFY2(named(o, {u"beta-fast"_s, u"beta-slow"_s}), qPrintable(shown(o)));
        QVERIFY2(o[u"diagnosis"_s].toString().contains(u"128"_s), qPrintable(shown(o)));
    }

    void factorLeftOut_data()
    {
        QTest::addColumn<bool>("buggy");
        QTest::newRow("unscaled where linear 8 is declared") << true;
        QTest::newRow("linear 8: correct") << false;
    }
    // F3: Gemma 3's global layer (linear 8, rope_theta 1e6, head_dim 256) computed at scale 1, a sin
    // table: rope-type and rope-factor, the positions reading said but not named.
    void factorLeftOut()
    {
        QFETCH(bool, buggy);
        const std::vector<double> inv = plainInv(1000000.0, 256);
        const double scale = buggy ? 1.0 : 1.0 / 8.0;
        const QString file = m_files.written(
            1024, 256, [&](qint64 p, qint64 j) { return std::sin(double(p) * inv[std::size_t(j % 128)] * scale); });
        QVERIFY(!file.isEmpty());
        const QJsonObject o
            = CliRun::checked(file,
                              {u"--expect"_s, u"rope"_s, u"--rope-type"_s, u"linear"_s, u"--rope-factor"_s, u"8"_s,
                               u"--rope-theta"_s, u"1000000"_s, u"--head-dim"_s, u"256"_s});
        if (!buggy) {
            QVERIFY2(o[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(o)));
            return;
        }
        QVERIFY2(named(o, {u"rope-type"_s, u"rope-factor"_s}), qPrintable(shown(o)));
        QVERIFY2(!o[u"mistakes"_s].toArray().contains(u"positions-out-of-order"_s), qPrintable(shown(o)));
        const QString diagnosis = o[u"diagnosis"_s].toString();
        QVERIFY2(diagnosis.contains(u"factor 1 where 8"_s) && diagnosis.contains(u"position 8"_s),
                 qPrintable(shown(o)));
    }

    void appliedTwiceUnderApply_data()
    {
        QTest::addColumn<bool>("llama");
        QTest::addColumn<bool>("twice");
        QTest::newRow("Qwen2.5 yarn, applied twice") << false << true;
        QTest::newRow("Qwen2.5 yarn, once: correct") << false << false;
        QTest::newRow("Llama 3.1 llama3, applied twice") << true << true;
        QTest::newRow("Llama 3.1 llama3, once: correct") << true << false;
    }
    // 512 rows: too few for the slowest pairs of rope_theta 1e6 to pin the frequencies, which then read
    // as another rope_type with the rows unread; Llama 3.1's reads as the rows at twice their positions.
    void appliedTwiceUnderApply()
    {
        QFETCH(bool, llama);
        QFETCH(bool, twice);
        const qint64 rows = 512, d = 128, h = d / 2;
        const std::vector<double> inv = llama ? llama31Inv() : kQwenYarn.inv();
        const double af = llama ? 1.0 : kQwenYarn.attention();
        const QStringList flags = llama ? QStringList {u"--preset"_s, u"llama-3-1-8b"_s} : kQwenYarn.flags();
        std::mt19937 engine(28);
        std::normal_distribution<double> normal(0.0, 1.0);
        std::vector<float> xs(std::size_t(rows * d)), ys(std::size_t(rows * d));
        const auto turn = [&](const std::vector<double> &in, qint64 r) {
            std::vector<double> out(std::size_t(d), 0.0);
            for (qint64 j = 0; j < d; ++j) {
                const double angle = double(r) * inv[std::size_t(j % h)];
                const double a = in[std::size_t(j)], other = j < h ? -in[std::size_t(j + h)] : in[std::size_t(j - h)];
                out[std::size_t(j)] = (a * std::cos(angle) + other * std::sin(angle)) * af;
            }
            return out;
        };
        for (qint64 r = 0; r < rows; ++r) {
            std::vector<double> row(static_cast<std::size_t>(d));
            for (double &v : row)
                v = double(float(normal(engine)));
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
        const CliRun::Run run = CliRun::posenc(QStringList {u"check"_s, u"--apply"_s, xf, yf, u"--json"_s} + flags);
        QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
        o[u"exit"_s] = run.exitCode;
        if (!twice) {
            QVERIFY2(o[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(o) + run.err));
            return;
        }
        QVERIFY2(named(o, {u"rope-applied-twice"_s}), qPrintable(shown(o) + run.err));
        // At an attention factor of 1 the rows at twice their positions are the same reading: both named.
        QVERIFY2(llama || !o[u"mistakes"_s].toArray().contains(u"positions-out-of-order"_s), qPrintable(shown(o)));
    }

    // F7: an undeclared correct names the published form it equals: ModernBERT base's inv_freq
    // (rope_theta 160000, head 64; DeepSeek-V4's compress rope without its yarn, Automodel#2103) and
    // Llama 3 8B's cos table (rope_theta 500000, head 128).
    void correctNamesItsForm()
    {
        const QJsonObject v = CliRun::checked(vector(plainInv(160000.0, 64)), {});
        QVERIFY2(v[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(v)));
        QVERIFY2(v[u"diagnosis"_s].toString().contains(u"ModernBERT base"_s), qPrintable(shown(v)));
        const std::vector<double> inv = plainInv(500000.0, 128);
        const QString file = m_files.written(
            1024, 128, [&](qint64 p, qint64 j) { return std::cos(double(p) * inv[std::size_t(j % 64)]); });
        const QJsonObject t = CliRun::checked(file, {});
        QVERIFY2(t[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(t)));
        QVERIFY2(t[u"diagnosis"_s].toString().contains(u"Llama 3 8B"_s), qPrintable(shown(t)));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliRopeParams28)
} // namespace tst_cliropeparams28
#include "tst_cliropeparams28.moc"
