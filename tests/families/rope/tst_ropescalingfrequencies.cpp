// The rope_types that stretch a model's context, each pair's frequency against transformers'
// _compute_*_parameters written out here: dynamic NTK's base past the original length, YaRN's
// ramp and attention factor, LongRoPE's two lists, llama3's bands, proportional's turning pairs
// (tst_ropefrequencies holds the default and linear frequencies and what is derived from them).
#include "core/rope/RopeFrequencies.h"
#include "support/RopeReference.h"
#include "support/TestMain.h"

#include "RopeFrequencyTesting.h"
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <vector>

namespace tst_ropescalingfrequencies {
using namespace Qt::StringLiterals;
using namespace posenc;
namespace Rope = posenc::RopeFrequencies;
using namespace RopeFrequencyTesting;
class TestRopeScalingFrequencies : public QObject
{
    Q_OBJECT

private slots:
    void dynamicRaisesTheBasePastTheOriginalLength_data();
    void dynamicRaisesTheBasePastTheOriginalLength();
    void yarn_data();
    void yarn();
    void yarnGoldenNumbers();
    void getMscale_data();
    void getMscale();
    void longRopeOnBothSidesOfTheSwitch_data();
    void longRopeOnBothSidesOfTheSwitch();
    void llama3_data();
    void llama3();
    void llama3PairOnTheBoundaryIsKept();
    void proportionalIsNotPartialRotary();
};

void TestRopeScalingFrequencies::dynamicRaisesTheBasePastTheOriginalLength_data()
{
    QTest::addColumn<qint64>("headDim");
    QTest::addColumn<double>("factor");
    QTest::addColumn<qint64>("original");
    QTest::addColumn<qint64>("maxLen");
    QTest::newRow("within the original length: the default") << qint64(128) << 2.0 << qint64(4096) << qint64(1024);
    QTest::newRow("at it") << qint64(128) << 2.0 << qint64(4096) << qint64(4096);
    QTest::newRow("past it") << qint64(128) << 2.0 << qint64(4096) << qint64(16384);
    QTest::newRow("rotary 4, exponent 2") << qint64(4) << 4.0 << qint64(2048) << qint64(10000);
}

void TestRopeScalingFrequencies::dynamicRaisesTheBasePastTheOriginalLength()
{
    QFETCH(qint64, headDim);
    QFETCH(double, factor);
    QFETCH(qint64, original);
    QFETCH(qint64, maxLen);
    Params p = ropeParams(headDim, 10000.0, RopeType::Dynamic);
    p.maxLen = maxLen;
    p.rope.factor = factor;
    p.rope.originalMaxLen = original;
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    const Rope::Table t = Rope::table(p);
    compareLists(t.inv, roperef::dynamicInv(10000.0, headDim, factor, double(maxLen), double(original)), "inv");
    const double seq = double(std::max(maxLen, original));
    QVERIFY(close(
        Rope::dynamicBase(p),
        10000.0 * std::pow(factor * seq / double(original) - (factor - 1.0), double(headDim) / double(headDim - 2))));
    compareLists(t.invBefore, roperef::defaultInv(10000.0, headDim), "before");
    if (maxLen <= original)
        compareLists(t.inv, roperef::defaultInv(10000.0, headDim), "inv within the original length");
    else
        QVERIFY(t.inv.back() < t.invBefore.back());
    QCOMPARE(t.attentionFactor, 1.0);
}

void TestRopeScalingFrequencies::yarn_data()
{
    QTest::addColumn<qint64>("headDim");
    QTest::addColumn<double>("partial");
    QTest::addColumn<double>("theta");
    QTest::addColumn<double>("factor");
    QTest::addColumn<qint64>("original");
    QTest::addColumn<double>("betaFast");
    QTest::addColumn<double>("betaSlow");
    QTest::addColumn<bool>("truncate");
    QTest::addColumn<double>("mscale");
    QTest::addColumn<double>("mscaleAllDim");
    QTest::addColumn<double>("attention");
    const auto row = [](const char *name, qint64 head, double theta, double f, qint64 original, bool truncate,
                        double mscale = kUnset, double mscaleAllDim = kUnset, double attention = kUnset,
                        double partial = 1.0, double betaFast = 32.0, double betaSlow = 1.0) {
        QTest::newRow(name) << head << partial << theta << f << original << betaFast << betaSlow << truncate << mscale
                            << mscaleAllDim << attention;
    };
    row("Qwen2.5 7B's README block", 128, 1e6, 4.0, 32768, true);
    row("truncate off (gpt-oss-20b)", 64, 150000.0, 32.0, 4096, false);
    row("an mscale pair (DeepSeek-V3)", 64, 10000.0, 40.0, 4096, true, 1.0, 1.0);
    row("an unequal mscale pair", 64, 10000.0, 40.0, 4096, true, 0.707, 1.0);
    row("mscale alone is not read", 64, 10000.0, 40.0, 4096, true, 0.707);
    row("a zero mscale counts as absent", 64, 10000.0, 40.0, 4096, true, 0.0, 1.0);
    row("an explicit attention factor", 128, 10000.0, 16.0, 2048, true, kUnset, kUnset, 1.25);
    row("an explicit attention factor beats the mscale pair", 64, 10000.0, 40.0, 4096, true, 1.0, 0.5, 0.9);
    row("partial rotary, r 64 of 128", 128, 10000.0, 8.0, 4096, true, kUnset, kUnset, kUnset, 0.5);
    // At a context of 5 both edges round to 0: HF adds 0.001 to the high one.
    row("edges meet, 0.001 apart", 64, 10000.0, 4.0, 5, true);
    // A long context puts the low edge past the high one, clamped to r - 1: every pair divided.
    row("edges past r - 1", 8, 10.0, 4.0, 1000000, true);
    row("factor below 1: attention 1", 64, 10000.0, 0.5, 4096, true);
    row("other betas", 64, 10000.0, 4.0, 8192, false, kUnset, kUnset, kUnset, 1.0, 64.0, 2.0);
}

void TestRopeScalingFrequencies::yarn()
{
    QFETCH(qint64, headDim);
    QFETCH(double, partial);
    QFETCH(double, theta);
    QFETCH(double, factor);
    QFETCH(qint64, original);
    QFETCH(double, betaFast);
    QFETCH(double, betaSlow);
    QFETCH(bool, truncate);
    QFETCH(double, mscale);
    QFETCH(double, mscaleAllDim);
    QFETCH(double, attention);
    Params p = ropeParams(headDim, theta, RopeType::Yarn);
    p.rope.partialRotaryFactor = partial;
    p.rope.factor = factor;
    p.rope.originalMaxLen = original;
    p.rope.betaFast = betaFast;
    p.rope.betaSlow = betaSlow;
    p.rope.yarnTruncate = truncate;
    p.rope.mscale = given(mscale);
    p.rope.mscaleAllDim = given(mscaleAllDim);
    p.rope.attentionFactor = given(attention);
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    const std::int64_t r = std::int64_t(double(headDim) * partial);
    const roperef::Yarn want = roperef::yarn(theta, r, factor, double(original), betaFast, betaSlow, truncate,
                                             given(mscale), given(mscaleAllDim), given(attention));
    const Rope::Table t = Rope::table(p);
    compareLists(t.inv, want.inv, "inv");
    compareLists(t.band, want.ramp, "ramp");
    compareLists(t.invBefore, roperef::defaultInv(theta, r), "before");
    QVERIFY(close(t.attentionFactor, want.attention));
    QCOMPARE(Rope::attentionFactor(p), t.attentionFactor);
    const Rope::Description d = Rope::describe(p);
    QVERIFY(d.bandLow && d.bandHigh && d.bandLowUsed && d.bandHighUsed);
    QVERIFY(close(*d.bandLow, want.low));
    QVERIFY(close(*d.bandHigh, want.high));
    QCOMPARE(*d.bandLowUsed, want.lowUsed);
    QCOMPARE(*d.bandHighUsed, want.highUsed);
    // Each pair is kept (ramp 0), divided (ramp 1) or between.
    std::int64_t kept = 0, divided = 0;
    for (const double ramp : want.ramp) {
        kept += ramp == 0.0;
        divided += ramp == 1.0;
    }
    QCOMPARE(*d.pairsKept, kept);
    QCOMPARE(*d.pairsDivided, divided);
    QCOMPARE(*d.pairsBlended, r / 2 - kept - divided);
    QVERIFY(close(d.attentionFactor, want.attention));
    // The softmax scale factor: mscale_all_dim's get_mscale squared when it is given and non-zero.
    const double softmax = std::isnan(mscaleAllDim) || mscaleAllDim == 0.0
        ? 1.0
        : roperef::mscale(factor, mscaleAllDim) * roperef::mscale(factor, mscaleAllDim);
    QVERIFY(close(d.softmaxScaleFactor, softmax));
    QVERIFY(close(d.logitScale, want.attention * want.attention * softmax));
}

void TestRopeScalingFrequencies::yarnGoldenNumbers()
{
    // gpt-oss-20b: truncate false keeps the edges as computed (vLLM#27722).
    const Rope::Description oss = Rope::describe(roperef::gptOss());
    QCOMPARE(std::lround(*oss.bandLow * 1000.0), 8093L);
    QCOMPARE(std::lround(*oss.bandHigh * 1000.0), 17398L);
    QCOMPARE(*oss.bandLowUsed, *oss.bandLow);
    QCOMPARE(*oss.bandHighUsed, *oss.bandHigh);
    QVERIFY(close(oss.attentionFactor, 0.1 * std::log(32.0) + 1.0));
    // Pairs 0..8 kept, 18..31 divided: the ramp is 0 only up to 8.093 and 1 from 17.398 on.
    QCOMPARE(*oss.pairsKept, std::int64_t(9));
    QCOMPARE(*oss.pairsDivided, std::int64_t(14));
    QCOMPARE(*oss.pairsBlended, std::int64_t(9));
    // Rounded as HF does by default, the same config keeps pairs 0..8 and divides 18 on.
    Params rounded = roperef::gptOss();
    rounded.rope.yarnTruncate = true;
    const Rope::Description r = Rope::describe(rounded);
    QCOMPARE(*r.bandLowUsed, 8.0);
    QCOMPARE(*r.bandHighUsed, 18.0);

    // DeepSeek-V3: mscale = mscale_all_dim = 1, so the attention factor is 1 and
    // (0.1 ln 40 + 1)^2 goes to the softmax scale.
    const Rope::Description ds = Rope::describe(deepSeekV3());
    QCOMPARE(ds.attentionFactor, 1.0);
    QVERIFY(close(ds.softmaxScaleFactor, std::pow(0.1 * std::log(40.0) + 1.0, 2.0)));
    QCOMPARE(std::lround(ds.logitScale * 1000.0), 1874L);

    // Qwen2.5 7B with its README's YaRN block: edges 23.596 and 39.651, used as 23 and 40.
    Params qwen = ropeParams(128, 1e6, RopeType::Yarn);
    qwen.maxLen = 131072;
    qwen.rope.factor = 4.0;
    qwen.rope.originalMaxLen = 32768;
    const Rope::Description q = Rope::describe(qwen);
    QCOMPARE(std::lround(*q.bandLow * 1000.0), 23596L);
    QCOMPARE(std::lround(*q.bandHigh * 1000.0), 39651L);
    QCOMPARE(*q.bandLowUsed, 23.0);
    QCOMPARE(*q.bandHighUsed, 40.0);
    QCOMPARE(*q.pairsKept, std::int64_t(24));
    QCOMPARE(*q.pairsBlended, std::int64_t(16));
    QCOMPARE(*q.pairsDivided, std::int64_t(24));
    QCOMPARE(std::lround(q.attentionFactor * 10000.0), 11386L); // 0.1 ln 4 + 1
}

// get_mscale of _compute_yarn_parameters: 1 for a scale that does not stretch, else 0.1 m ln s + 1.
void TestRopeScalingFrequencies::getMscale_data()
{
    QTest::addColumn<double>("scale");
    QTest::addColumn<double>("mscale");
    QTest::addColumn<double>("expected");
    QTest::newRow("scale 1") << 1.0 << 1.0 << 1.0;
    QTest::newRow("scale below 1") << 0.5 << 1.0 << 1.0;
    QTest::newRow("scale 40") << 40.0 << 1.0 << 0.1 * std::log(40.0) + 1.0;
    QTest::newRow("scale 40, mscale 0.707") << 40.0 << 0.707 << 0.1 * 0.707 * std::log(40.0) + 1.0;
    QTest::newRow("mscale 0") << 40.0 << 0.0 << 1.0;
}

void TestRopeScalingFrequencies::getMscale()
{
    QFETCH(double, scale);
    QFETCH(double, mscale);
    QFETCH(double, expected);
    QVERIFY(close(Rope::getMscale(scale, mscale), expected));
    if (mscale == 1.0)
        QCOMPARE(Rope::getMscale(scale), Rope::getMscale(scale, 1.0));
}

void TestRopeScalingFrequencies::longRopeOnBothSidesOfTheSwitch_data()
{
    QTest::addColumn<qint64>("maxLen");
    QTest::addColumn<double>("factor");
    QTest::addColumn<double>("attention");
    QTest::addColumn<bool>("usesLong");
    QTest::addColumn<double>("expectedAttention");
    const auto phi3 = [](double f) { return std::sqrt(1.0 + std::log(f) / std::log(4096.0)); };
    // The attention factor is the model's, f = 131072 / 4096 = 32 as HF derives it: the sequence
    // length switches the lists only.
    QTest::newRow("Phi-3-mini-128k at 131072: long, 1.1902") << qint64(131072) << 32.0 << kUnset << true << phi3(32.0);
    QTest::newRow("at the original 4096: short, still 1.1902") << qint64(4096) << 32.0 << kUnset << false << phi3(32.0);
    QTest::newRow("one past it: long") << qint64(4097) << 32.0 << kUnset << true << phi3(32.0);
    QTest::newRow("below it: short") << qint64(100) << 32.0 << kUnset << false << phi3(32.0);
    QTest::newRow("a factor at most 1: attention 1") << qint64(100) << 1.0 << kUnset << false << 1.0;
    QTest::newRow("an attention factor given, no factor") << qint64(131072) << kUnset << 1.5 << true << 1.5;
}

void TestRopeScalingFrequencies::longRopeOnBothSidesOfTheSwitch()
{
    QFETCH(qint64, maxLen);
    QFETCH(double, factor);
    QFETCH(double, attention);
    QFETCH(bool, usesLong);
    QFETCH(double, expectedAttention);
    Params p = phi3Mini128k(maxLen);
    p.rope.factor = given(factor);
    p.rope.attentionFactor = given(attention);
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    const std::vector<double> &ext = usesLong ? kPhi3Long : kPhi3Short;
    std::vector<double> want;
    for (std::int64_t i = 0; i < 48; ++i)
        want.push_back(1.0 / (ext[std::size_t(i)] * std::pow(10000.0, double(2 * i) / 96.0)));
    const Rope::Table t = Rope::table(p);
    compareLists(t.inv, want, "inv");
    compareLists(t.invBefore, roperef::defaultInv(10000.0, 96), "before");
    QVERIFY(close(t.attentionFactor, expectedAttention));
    QCOMPARE(Rope::attentionFactor(p), t.attentionFactor);
    QVERIFY(std::all_of(t.band.begin(), t.band.end(), [](double b) { return b == 0.0; }));
    if (factor == 32.0 && std::isnan(attention))
        QCOMPARE(std::lround(t.attentionFactor * 10000.0), 11902L);
}

void TestRopeScalingFrequencies::llama3_data()
{
    QTest::addColumn<double>("theta");
    QTest::addColumn<double>("factor");
    QTest::addColumn<qint64>("original");
    QTest::addColumn<double>("low");
    QTest::addColumn<double>("high");
    QTest::addColumn<qint64>("kept");
    QTest::addColumn<qint64>("blended");
    QTest::addColumn<qint64>("divided");
    QTest::newRow("Llama 3.1 8B") << 500000.0 << 8.0 << qint64(8192) << 1.0 << 4.0 << qint64(29) << qint64(6)
                                  << qint64(29);
    QTest::newRow("Llama 4 Scout, low = high")
        << 500000.0 << 16.0 << qint64(8192) << 1.0 << 1.0 << qint64(35) << qint64(0) << qint64(29);
    QTest::newRow("factor 32 (Llama 3.2's)")
        << 500000.0 << 32.0 << qint64(8192) << 1.0 << 4.0 << qint64(29) << qint64(6) << qint64(29);
    QTest::newRow("a wide band") << 10000.0 << 4.0 << qint64(4096) << 0.5 << 16.0 << qint64(26) << qint64(24)
                                 << qint64(14);
}

void TestRopeScalingFrequencies::llama3()
{
    QFETCH(double, theta);
    QFETCH(double, factor);
    QFETCH(qint64, original);
    QFETCH(double, low);
    QFETCH(double, high);
    QFETCH(qint64, kept);
    QFETCH(qint64, blended);
    QFETCH(qint64, divided);
    Params p = ropeParams(128, theta, RopeType::Llama3);
    p.maxLen = 131072;
    p.rope.factor = factor;
    p.rope.originalMaxLen = original;
    p.rope.lowFreqFactor = low;
    p.rope.highFreqFactor = high;
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    const roperef::Llama3 want = roperef::llama3(theta, 128, factor, double(original), low, high);
    const Rope::Table t = Rope::table(p);
    QVERIFY(std::all_of(t.inv.begin(), t.inv.end(), [](double v) { return std::isfinite(v) && v > 0.0; }));
    compareLists(t.inv, want.inv, "inv");
    compareLists(t.band, want.band, "band");
    compareLists(t.invBefore, roperef::defaultInv(theta, 128), "before");
    QCOMPARE(t.attentionFactor, 1.0);
    const Rope::Description d = Rope::describe(p);
    QCOMPARE(qint64(*d.pairsKept), kept);
    QCOMPARE(qint64(*d.pairsBlended), blended);
    QCOMPARE(qint64(*d.pairsDivided), divided);
    QVERIFY(!d.bandLow && !d.bandHighUsed); // yarn's only
}

void TestRopeScalingFrequencies::llama3PairOnTheBoundaryIsKept()
{
    // Pair 0's wavelength is 2 pi exactly; a low = high factor that puts original/low on it
    // makes HF's smooth factor 0/0. The pair is kept, and nothing is NaN.
    const double original = 8192.0;
    double boundary = original / kTwoPi;
    int steps = 0;
    while (original / boundary != kTwoPi && steps < 64) {
        boundary = std::nextafter(boundary, original / boundary > kTwoPi ? 1e9 : 0.0);
        ++steps;
    }
    QCOMPARE(original / boundary, kTwoPi);
    Params p = ropeParams(64, 10000.0, RopeType::Llama3);
    p.rope.factor = 8.0;
    p.rope.originalMaxLen = 8192;
    p.rope.lowFreqFactor = boundary;
    p.rope.highFreqFactor = boundary;
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    const Rope::Table t = Rope::table(p);
    QCOMPARE(t.inv[0], 1.0);
    QCOMPARE(t.band[0], 0.0);
    QVERIFY(std::all_of(t.inv.begin(), t.inv.end(), [](double v) { return std::isfinite(v); }));
    // Every other pair turns slower and is divided.
    for (std::size_t i = 1; i < t.inv.size(); ++i)
        QCOMPARE(t.band[i], 2.0);
    QCOMPARE(*Rope::describe(p).pairsBlended, std::int64_t(0));
}

void TestRopeScalingFrequencies::proportionalIsNotPartialRotary()
{
    // Gemma 4's proportional RoPE: 0.25 of head_dim 512 turns, with the exponent over all 512.
    Params proportional = ropeParams(512, 1e6, RopeType::Proportional);
    proportional.rope.partialRotaryFactor = 0.25;
    QVERIFY2(proportional.isValid(), qPrintable(proportional.validate().value(0).sentence()));
    Params partial = proportional;
    partial.rope.type = RopeType::Default;
    QVERIFY(partial.isValid());

    const Rope::Table prop = Rope::table(proportional);
    QCOMPARE(prop.inv.size(), std::size_t(256));
    std::vector<double> want(256, 0.0);
    for (std::size_t j = 0; j < 64; ++j)
        want[j] = 1.0 / std::pow(1e6, double(2 * j) / 512.0);
    compareLists(prop.inv, want, "proportional");
    compareLists(prop.invBefore, want, "proportional before");
    QCOMPARE(prop.attentionFactor, 1.0);

    const Rope::Table part = Rope::table(partial);
    QCOMPARE(part.inv.size(), std::size_t(64));
    compareLists(part.inv, roperef::defaultInv(1e6, 128), "partial");
    // The same first pair, then the partial exponent's denominator 128 against 512: pair 63 turns
    // 1e6^(126/128 - 126/512) = 1e6^0.738 ~ 26600 times slower under partial rotary.
    QCOMPARE(part.inv[0], prop.inv[0]);
    for (std::size_t j = 1; j < 64; ++j)
        QVERIFY(prop.inv[j] > part.inv[j] * 1.1);
    QVERIFY(close(prop.inv[63] / part.inv[63], std::pow(1e6, 126.0 / 128.0 - 126.0 / 512.0), 1e-12));

    // A factor divides every live frequency; the tail stays at 0.
    Params divided = proportional;
    divided.rope.factor = 8.0;
    const Rope::Table d = Rope::table(divided);
    for (std::size_t j = 0; j < 256; ++j)
        QVERIFY(close(d.inv[j], want[j] / 8.0));
}

POSENC_TEST_GUILESS_MAIN(TestRopeScalingFrequencies)
} // namespace tst_ropescalingfrequencies
#include "tst_ropescalingfrequencies.moc"
