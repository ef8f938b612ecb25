// RoPE's frequencies for every rope_type of HF transformers' modeling_rope_utils.py, against
// float64 formulas written from the reference's definitions (tests/support/RopeReference.h; quirks
// included: yarn's rounding, clamping and 0.001; llama3 with low = high; longrope's switch at the
// original length; proportional's full head_dim in the exponent), and the golden numbers of real
// configs: Llama 2, Llama 3.1 8B, Llama 4 Scout, gpt-oss-20b, DeepSeek-V3, Qwen2.5 7B,
// Phi-3-mini-128k and Gemma 4's proportional RoPE.
#include "core/rope/RopeFrequencies.h"
#include "support/RopeReference.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <vector>

using namespace Qt::StringLiterals;
using namespace posenc;
namespace Rope = posenc::RopeFrequencies;

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
const double kUnset = std::numeric_limits<double>::quiet_NaN(); // a data column's unset optional

std::optional<double> given(double v)
{
    return std::isnan(v) ? std::nullopt : std::optional<double>(v);
}

Params ropeParams(std::int64_t headDim, double theta, RopeType type)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = std::max<std::int64_t>(headDim, 64);
    p.maxLen = 1024;
    p.rope.headDim = headDim;
    p.rope.theta = theta;
    p.rope.type = type;
    return p;
}

// Relative agreement, 0 = 0 exactly.
bool close(double a, double b, double relative = 1e-13)
{
    return a == b || std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

void compareLists(const std::vector<double> &got, const std::vector<double> &want, const char *what,
                  double relative = 1e-13)
{
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        QVERIFY2(close(got[i], want[i], relative),
                 qPrintable(u"%1[%2]: %3, expected %4"_s.arg(QString::fromLatin1(what))
                                .arg(i)
                                .arg(got[i], 0, 'g', 17)
                                .arg(want[i], 0, 'g', 17)));
}

// Phi-3-mini-128k-instruct's rope_scaling lists (June 2024 revision), 48 each for head_dim 96.
const std::vector<double> kPhi3Short = {1.1,
                                        1.1,
                                        1.1,
                                        1.3000000000000003,
                                        1.3500000000000003,
                                        1.3500000000000003,
                                        1.4000000000000004,
                                        1.5500000000000005,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.000000000000001,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.0500000000000007,
                                        2.1000000000000005,
                                        2.1000000000000005,
                                        2.1500000000000004,
                                        2.25,
                                        2.25,
                                        2.25,
                                        2.25,
                                        2.25,
                                        2.3999999999999995,
                                        2.4499999999999993,
                                        2.499999999999999,
                                        2.6999999999999984,
                                        2.6999999999999984,
                                        2.7499999999999982,
                                        2.799999999999998,
                                        2.8999999999999977,
                                        3.049999999999997};
const std::vector<double> kPhi3Long
    = {1.0700000524520874, 1.1200000047683716, 1.149999976158142,  1.4199999570846558, 1.5699999332427979,
       1.7999999523162842, 2.129999876022339,  2.129999876022339,  3.009999990463257,  5.910000324249268,
       6.950000286102295,  9.070000648498535,  9.930000305175781,  10.710000038146973, 11.130000114440918,
       14.609999656677246, 15.409998893737793, 19.809999465942383, 37.279998779296875, 38.279998779296875,
       38.599998474121094, 40.12000274658203,  46.20000457763672,  50.940006256103516, 53.66000747680664,
       54.9373893737793,   56.89738845825195,  57.28738784790039,  59.98738479614258,  60.86738586425781,
       60.887386322021484, 61.71739196777344,  62.91739273071289,  62.957393646240234, 63.41739273071289,
       63.8173942565918,   63.83739471435547,  63.897396087646484, 63.93739700317383,  64.06739807128906,
       64.11434936523438,  64.12435150146484,  64.15435028076172,  64.19435119628906,  64.24435424804688,
       64.57435607910156,  64.69000244140625,  64.76000213623047};

// A config of each real model the tests name.
Params deepSeekV3()
{
    Params p = ropeParams(64, 10000.0, RopeType::Yarn); // qk_rope_head_dim 64
    p.maxLen = 163840;
    p.rope.factor = 40.0;
    p.rope.mscale = 1.0;
    p.rope.mscaleAllDim = 1.0;
    p.rope.originalMaxLen = 4096;
    return p;
}

Params phi3Mini128k(std::int64_t maxLen)
{
    Params p = ropeParams(96, 10000.0, RopeType::LongRope);
    p.maxLen = maxLen;
    p.rope.originalMaxLen = 4096;
    p.rope.factor = 32.0; // HF: max_position_embeddings 131072 / original 4096
    p.rope.shortFactor = kPhi3Short;
    p.rope.longFactor = kPhi3Long;
    return p;
}

} // namespace

class TestRopeFrequencies : public QObject
{
    Q_OBJECT

private slots:
    void rotaryDims_data();
    void rotaryDims();
    void defaultAndLinear_data();
    void defaultAndLinear();
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
    void criticalDimension_data();
    void criticalDimension();
    void positionStep_data();
    void positionStep();
    void describeSteps_data();
    void describeSteps();
    void wavelengthsLeaveOutZeroFrequencies();
    void scheduleIsTheTable_data();
    void scheduleIsTheTable();
};

void TestRopeFrequencies::rotaryDims_data()
{
    QTest::addColumn<qint64>("headDim");
    QTest::addColumn<double>("factor");
    QTest::addColumn<int>("type");
    QTest::addColumn<qint64>("rotary");
    QTest::addColumn<qint64>("live");
    const auto row = [](const char *name, qint64 head, double f, RopeType type, qint64 rotary, qint64 live) {
        QTest::newRow(name) << head << f << static_cast<int>(type) << rotary << live;
    };
    row("Llama 2", 128, 1.0, RopeType::Default, 128, 64);
    row("GPT-NeoX-20B, rotary_pct 0.25", 96, 0.25, RopeType::Default, 24, 12);
    row("GPT-J-6B, 64 of 256", 256, 0.25, RopeType::Default, 64, 32);
    row("Phi-4-mini, 0.75", 128, 0.75, RopeType::LongRope, 96, 48);
    row("int() truncates: 96 x 0.3 = 28.8", 96, 0.3, RopeType::Default, 28, 14);
    // proportional: every pair of head_dim, the first int(F * head_dim // 2) with a frequency.
    row("Gemma 4, proportional 0.25 of 512", 512, 0.25, RopeType::Proportional, 512, 64);
    row("proportional floors: 0.5 x 6 // 2 = 1", 6, 0.5, RopeType::Proportional, 6, 1);
}

void TestRopeFrequencies::rotaryDims()
{
    QFETCH(qint64, headDim);
    QFETCH(double, factor);
    QFETCH(int, type);
    QFETCH(qint64, rotary);
    QFETCH(qint64, live);
    RopeParams rope;
    rope.headDim = headDim;
    rope.partialRotaryFactor = factor;
    rope.type = static_cast<RopeType>(type);
    QCOMPARE(qint64(Rope::rotaryDim(rope)), rotary);
    QCOMPARE(qint64(Rope::pairs(rope)), rotary / 2);
    QCOMPARE(qint64(Rope::livePairs(rope)), live);
}

void TestRopeFrequencies::defaultAndLinear_data()
{
    QTest::addColumn<qint64>("headDim");
    QTest::addColumn<double>("partial");
    QTest::addColumn<double>("theta");
    QTest::addColumn<double>("factor"); // NaN: default
    QTest::newRow("Llama 2") << qint64(128) << 1.0 << 10000.0 << kUnset;
    QTest::newRow("Qwen3 theta 1e6") << qint64(128) << 1.0 << 1e6 << kUnset;
    QTest::newRow("GPT-NeoX 24 of 96") << qint64(96) << 0.25 << 10000.0 << kUnset;
    QTest::newRow("head 2") << qint64(2) << 1.0 << 10000.0 << kUnset;
    QTest::newRow("Gemma 3 global, linear 8") << qint64(256) << 1.0 << 1e6 << 8.0;
    QTest::newRow("linear 0.5 shortens") << qint64(64) << 0.5 << 10000.0 << 0.5;
}

void TestRopeFrequencies::defaultAndLinear()
{
    QFETCH(qint64, headDim);
    QFETCH(double, partial);
    QFETCH(double, theta);
    QFETCH(double, factor);
    Params p = ropeParams(headDim, theta, std::isnan(factor) ? RopeType::Default : RopeType::Linear);
    p.rope.partialRotaryFactor = partial;
    p.rope.factor = given(factor);
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    const std::int64_t r = std::int64_t(double(headDim) * partial);
    const std::vector<double> before = roperef::defaultInv(theta, r);
    std::vector<double> after = before;
    for (double &v : after)
        v /= std::isnan(factor) ? 1.0 : factor;
    const Rope::Table t = Rope::table(p);
    compareLists(t.invBefore, before, "before");
    compareLists(t.inv, after, "after");
    QVERIFY(std::all_of(t.band.begin(), t.band.end(), [](double b) { return b == 0.0; }));
    QCOMPARE(t.attentionFactor, 1.0);
}

void TestRopeFrequencies::dynamicRaisesTheBasePastTheOriginalLength_data()
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

void TestRopeFrequencies::dynamicRaisesTheBasePastTheOriginalLength()
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

void TestRopeFrequencies::yarn_data()
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

void TestRopeFrequencies::yarn()
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

void TestRopeFrequencies::yarnGoldenNumbers()
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
void TestRopeFrequencies::getMscale_data()
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

void TestRopeFrequencies::getMscale()
{
    QFETCH(double, scale);
    QFETCH(double, mscale);
    QFETCH(double, expected);
    QVERIFY(close(Rope::getMscale(scale, mscale), expected));
    if (mscale == 1.0)
        QCOMPARE(Rope::getMscale(scale), Rope::getMscale(scale, 1.0));
}

void TestRopeFrequencies::longRopeOnBothSidesOfTheSwitch_data()
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

void TestRopeFrequencies::longRopeOnBothSidesOfTheSwitch()
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

void TestRopeFrequencies::llama3_data()
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

void TestRopeFrequencies::llama3()
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

void TestRopeFrequencies::llama3PairOnTheBoundaryIsKept()
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

void TestRopeFrequencies::proportionalIsNotPartialRotary()
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

void TestRopeFrequencies::criticalDimension_data()
{
    QTest::addColumn<qint64>("headDim");
    QTest::addColumn<double>("partial");
    QTest::addColumn<double>("theta");
    QTest::addColumn<qint64>("original"); // 0: unset, max_len counts
    QTest::addColumn<qint64>("maxLen");
    QTest::addColumn<qint64>("critical");
    QTest::addColumn<bool>("proportional");
    // 2 ceil(64 log_1e4(4096 / 2 pi)) = 2 ceil(45.03) = 92.
    QTest::newRow("Llama 2: 92") << qint64(128) << 1.0 << 1e4 << qint64(0) << qint64(4096) << qint64(92) << false;
    QTest::newRow("Llama 2 at 4096, max_len longer")
        << qint64(128) << 1.0 << 1e4 << qint64(4096) << qint64(32768) << qint64(92) << false;
    // 2 ceil(64 log_5e5(8192 / 2 pi)) = 2 ceil(34.98) = 70.
    QTest::newRow("Llama 3.1: 70") << qint64(128) << 1.0 << 5e5 << qint64(8192) << qint64(131072) << qint64(70)
                                   << false;
    // 2 ceil(12 log_1e4(2048 / 2 pi)) = 2 ceil(7.53) = 16.
    QTest::newRow("GPT-NeoX's 24 rotary dims")
        << qint64(96) << 0.25 << 1e4 << qint64(0) << qint64(2048) << qint64(16) << false;
    QTest::newRow("a context shorter than 2 pi: 0")
        << qint64(64) << 1.0 << 1e4 << qint64(0) << qint64(4) << qint64(0) << false;
    QTest::newRow("every dim turns: r") << qint64(8) << 1.0 << 10.0 << qint64(0) << qint64(1000000) << qint64(8)
                                        << false;
    // Gemma 4's proportional 0.25 of 512: 2 ceil(256 log_1e6(8192 / 2 pi)) = 2 ceil(132.9) = 266
    // dims would turn, but only its 64 live pairs (128 dims) have a frequency.
    QTest::newRow("proportional: at most its live pairs")
        << qint64(512) << 0.25 << 1e6 << qint64(0) << qint64(8192) << qint64(128) << true;
}

void TestRopeFrequencies::criticalDimension()
{
    QFETCH(qint64, headDim);
    QFETCH(double, partial);
    QFETCH(double, theta);
    QFETCH(qint64, original);
    QFETCH(qint64, maxLen);
    QFETCH(qint64, critical);
    QFETCH(bool, proportional);
    Params p = ropeParams(headDim, theta, proportional ? RopeType::Proportional : RopeType::Default);
    p.rope.partialRotaryFactor = partial;
    p.maxLen = maxLen;
    if (original > 0)
        p.rope.originalMaxLen = original;
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    QCOMPARE(qint64(Rope::describe(p).criticalDimension), critical);
}

void TestRopeFrequencies::positionStep_data()
{
    QTest::addColumn<double>("x");
    QTest::addColumn<int>("bits");
    QTest::addColumn<double>("step");
    QTest::newRow("bf16 at 0 counts as 1") << 0.0 << 7 << std::ldexp(1.0, -7);
    QTest::newRow("bf16 at 255: 1") << 255.0 << 7 << 1.0;
    QTest::newRow("bf16 at 256: 2") << 256.0 << 7 << 2.0;
    QTest::newRow("bf16 at 8191: 32 (8188..8191 merge)") << 8191.0 << 7 << 32.0;
    QTest::newRow("fp16 at 2047: 1") << 2047.0 << 10 << 1.0;
    QTest::newRow("fp16 at 2048: 2") << 2048.0 << 10 << 2.0;
    QTest::newRow("fp16 at 65504: 32") << 65504.0 << 10 << 32.0;
    QTest::newRow("float32 at 2^24: 2") << 16777216.0 << 23 << 2.0;
}

void TestRopeFrequencies::positionStep()
{
    QFETCH(double, x);
    QFETCH(int, bits);
    QFETCH(double, step);
    QCOMPARE(Rope::positionStep(x, bits), step);
}

void TestRopeFrequencies::describeSteps_data()
{
    QTest::addColumn<qint64>("maxLen");
    QTest::addColumn<double>("bf16");
    QTest::addColumn<double>("fp16"); // NaN: unset
    QTest::newRow("one position") << qint64(1) << std::ldexp(1.0, -7) << std::ldexp(1.0, -10);
    QTest::newRow("8192") << qint64(8192) << 32.0 << 4.0;
    QTest::newRow("65520: last 65519 still fp16") << qint64(65520) << 256.0 << 32.0;
    QTest::newRow("65521: last 65520 overflows fp16") << qint64(65521) << 256.0 << kUnset;
    QTest::newRow("131072") << qint64(131072) << 512.0 << kUnset;
}

void TestRopeFrequencies::describeSteps()
{
    QFETCH(qint64, maxLen);
    QFETCH(double, bf16);
    QFETCH(double, fp16);
    Params p = ropeParams(128, 10000.0, RopeType::Default);
    p.maxLen = maxLen;
    const Rope::Description d = Rope::describe(p);
    QCOMPARE(d.bf16PositionStep, bf16);
    QCOMPARE(d.fp16PositionStep.has_value(), !std::isnan(fp16));
    if (d.fp16PositionStep)
        QCOMPARE(*d.fp16PositionStep, fp16);
}

void TestRopeFrequencies::wavelengthsLeaveOutZeroFrequencies()
{
    Params p = ropeParams(512, 1e6, RopeType::Proportional);
    p.rope.partialRotaryFactor = 0.25;
    const Rope::Description d = Rope::describe(p);
    QCOMPARE(d.rotaryDim, std::int64_t(512));
    QCOMPARE(d.wavelengthMin, kTwoPi);
    QVERIFY(close(d.wavelengthMax, kTwoPi * std::pow(1e6, 126.0 / 512.0)));
    // Llama 3.1: pair 0 kept at 2 pi, pair 63 divided by 8.
    const Rope::Description l = Rope::describe(roperef::llama31());
    QCOMPARE(l.wavelengthMin, kTwoPi);
    QVERIFY(close(l.wavelengthMax, 8.0 * kTwoPi * std::pow(500000.0, 126.0 / 128.0)));
    QCOMPARE(l.type, RopeType::Llama3);
    QCOMPARE(l.rotaryDim, std::int64_t(128));
    QCOMPARE(l.logitScale, 1.0);
}

void TestRopeFrequencies::scheduleIsTheTable_data()
{
    QTest::addColumn<int>("which");
    QTest::newRow("Llama 3.1") << 0;
    QTest::newRow("gpt-oss") << 1;
    QTest::newRow("Phi-3-mini-128k") << 2;
}

void TestRopeFrequencies::scheduleIsTheTable()
{
    QFETCH(int, which);
    const Params p = which == 0 ? roperef::llama31() : which == 1 ? roperef::gptOss() : phi3Mini128k(131072);
    QVERIFY2(p.isValid(), qPrintable(p.validate().value(0).sentence()));
    const Rope::Table t = Rope::table(p);
    const FrequencySchedule s = Rope::schedule(p);
    QVERIFY(s.w == t.inv);
    QCOMPARE(s.amplitude, t.attentionFactor);
    QCOMPARE(s.pairs(), Rope::pairs(p.rope));
}

QTEST_GUILESS_MAIN(TestRopeFrequencies)
#include "tst_ropefrequencies.moc"
