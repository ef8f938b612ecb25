// A scaling's factor applied inside the power (apache/tvm#18576, gpt-oss's YaRN in TVM before the
// fix: freq_inter = 1 / (factor * theta)^(2i/d) where transformers divides, 1 / (factor *
// theta^(2i/d)); the same code floored and ceiled the correction range, gpt-oss's truncate false
// taken as true) against a declared reference (issue 56): `rope-factor-in-power`, with
// `yarn-truncate` where the ramp's ends are rounded too, for an inv_freq vector and a cos table, by
// a preset and by a reference file alike; the faithful vector and table are correct. Everything is
// written here in float64 from transformers' modeling_rope_utils.py, _compute_yarn_parameters
// (find_correction_dim, find_correction_range with truncate, linear_ramp_factor, inv_freq =
// inv_freq_interpolation * (1 - extrapolation_factor) + inv_freq_extrapolation *
// extrapolation_factor; attention_factor get_mscale(factor) = 0.1 ln(factor) + 1), at gpt-oss-20b's
// config: rope_theta 150000, head_dim 64, factor 32, original 4096, beta_fast 32, beta_slow 1,
// truncate false. Llama 3's bands the same way (_compute_llama3_parameters: inv_freq / factor on the
// low-frequency band, the smoothed blend between) show the rule is the scaling's, not YaRN's.
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/TestMain.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace tst_clifactorinpower {
using namespace Qt::StringLiterals;

namespace {

constexpr double kTheta = 150000.0, kFactor = 32.0, kOriginal = 4096.0;
constexpr std::int64_t kDim = 64, kRows = 2048;

enum class Power { Divided, Inside };

// _compute_yarn_parameters' inv_freq; `inside`: the interpolated branch (factor theta)^(-2i/d).
std::vector<double> yarn(bool truncate, Power power)
{
    const double d = double(kDim);
    const auto correctionDim = [&](double rotations) {
        return d * std::log(kOriginal / (rotations * 2.0 * std::numbers::pi)) / (2.0 * std::log(kTheta));
    };
    double low = correctionDim(32.0), high = correctionDim(1.0);
    if (truncate) {
        low = std::floor(low);
        high = std::ceil(high);
    }
    low = std::max(low, 0.0);
    high = std::min(high, d - 1.0);
    if (low == high)
        high += 0.001;
    std::vector<double> inv;
    for (std::int64_t i = 0; i < kDim / 2; ++i) {
        const double exponent = double(2 * i) / d;
        const double extrapolation = 1.0 / std::pow(kTheta, exponent);
        const double interpolation = power == Power::Inside ? 1.0 / std::pow(kFactor * kTheta, exponent)
                                                            : 1.0 / (kFactor * std::pow(kTheta, exponent));
        const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
        const double extrapolationFactor = 1.0 - ramp;
        inv.push_back(interpolation * (1.0 - extrapolationFactor) + extrapolation * extrapolationFactor);
    }
    return inv;
}

// _compute_llama3_parameters at Llama 3.1's config (rope_theta 500000, factor 8, low 1, high 4,
// original 8192, head_dim 128); `inside`: the factor in the power on the divided share.
std::vector<double> llama3(Power power)
{
    const double d = 128.0, factor = 8.0, original = 8192.0;
    std::vector<double> inv;
    for (std::int64_t i = 0; i < 64; ++i) {
        const double exponent = double(2 * i) / d;
        const double u = 1.0 / std::pow(500000.0, exponent);
        const double divided = power == Power::Inside ? u * std::pow(factor, -exponent) : u / factor;
        const double wavelen = 2.0 * std::numbers::pi / u;
        const double lowWavelen = original / 1.0, highWavelen = original / 4.0;
        if (wavelen < highWavelen) {
            inv.push_back(u);
        } else if (wavelen > lowWavelen) {
            inv.push_back(divided);
        } else {
            const double smooth = (original / wavelen - 1.0) / (4.0 - 1.0);
            inv.push_back((1.0 - smooth) * divided + smooth * u);
        }
    }
    return inv;
}

// HF's cos table, cat(freqs, freqs).cos() * attention_factor.
QByteArray cosTable(const std::vector<double> &inv)
{
    const double attention = 0.1 * std::log(kFactor) + 1.0;
    const auto pairs = std::int64_t(inv.size());
    std::vector<double> cells;
    for (std::int64_t r = 0; r < kRows; ++r)
        for (std::int64_t c = 0; c < 2 * pairs; ++c)
            cells.push_back(attention * std::cos(double(r) * inv[std::size_t(c % pairs)]));
    return npy({kRows, 2 * pairs}, cells);
}

QByteArray vector(const std::vector<double> &inv)
{
    return npy({std::int64_t(inv.size())}, inv);
}

QStringList ids(const CliCheck::Checked &c)
{
    QStringList out;
    for (const QJsonValue &v : c.mistakes())
        out.append(v.toString());
    return out;
}

} // namespace

class TestCliFactorInPower : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString file(const QString &name, const QByteArray &bytes) { return CliCheck::write(m_dir, name, bytes); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void yarn_data()
    {
        QTest::addColumn<bool>("table");
        QTest::addColumn<bool>("byFile");
        QTest::newRow("inv_freq, preset") << false << false;
        QTest::newRow("inv_freq, reference vector") << false << true;
        QTest::newRow("cos, preset") << true << false;
        QTest::newRow("cos, reference table") << true << true;
    }

    void yarn()
    {
        QFETCH(bool, table);
        QFETCH(bool, byFile);
        const auto bytes = [&](bool truncate, Power power) {
            return table ? cosTable(tst_clifactorinpower::yarn(truncate, power))
                         : vector(tst_clifactorinpower::yarn(truncate, power));
        };
        const QString fixed = file(u"fixed.npy"_s, bytes(false, Power::Divided));
        const QStringList declared = byFile ? QStringList {u"--expect-table"_s, fixed}
                                            : QStringList {u"--expect"_s, u"rope"_s, u"--preset"_s, u"gpt-oss-20b"_s};
        const CliCheck::Checked right
            = CliCheck::checkFile(file(u"same.npy"_s, bytes(false, Power::Divided)), declared);
        QVERIFY2(right.exit == 0, qPrintable(right.shown));
        // tvm#18576 whole: the power and truncate's floor and ceil.
        const CliCheck::Checked both = CliCheck::checkFile(file(u"both.npy"_s, bytes(true, Power::Inside)), declared);
        QVERIFY2(both.exit == 1 && ids(both).contains(u"rope-factor-in-power"_s)
                     && ids(both).contains(u"yarn-truncate"_s),
                 qPrintable(both.shown));
        QVERIFY2(both.diagnosis().contains(u"inside the power"_s), qPrintable(both.diagnosis()));
        // The power alone: truncate as declared, not named.
        const CliCheck::Checked power
            = CliCheck::checkFile(file(u"power.npy"_s, bytes(false, Power::Inside)), declared);
        QVERIFY2(power.exit == 1 && ids(power) == QStringList {u"rope-factor-in-power"_s}, qPrintable(power.shown));
        // Truncate alone stays the ramp's own name.
        const CliCheck::Checked floor
            = CliCheck::checkFile(file(u"floor.npy"_s, bytes(true, Power::Divided)), declared);
        QVERIFY2(floor.exit == 1 && ids(floor) == QStringList {u"yarn-truncate"_s}, qPrintable(floor.shown));
    }

    // The class: llama3's divided band with the factor in the power, against Llama 3.1 8B's preset.
    void llama3()
    {
        const QStringList declared {u"--expect"_s, u"rope"_s, u"--preset"_s, u"llama-3-1-8b"_s};
        const CliCheck::Checked right
            = CliCheck::checkFile(file(u"l3.npy"_s, vector(tst_clifactorinpower::llama3(Power::Divided))), declared);
        QVERIFY2(right.exit == 0, qPrintable(right.shown));
        const CliCheck::Checked wrong = CliCheck::checkFile(
            file(u"l3_power.npy"_s, vector(tst_clifactorinpower::llama3(Power::Inside))), declared);
        QVERIFY2(wrong.exit == 1 && ids(wrong) == QStringList {u"rope-factor-in-power"_s}, qPrintable(wrong.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliFactorInPower)
} // namespace tst_clifactorinpower
#include "tst_clifactorinpower.moc"
