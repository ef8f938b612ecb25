// RoPE's frequencies for every rope_type of HF transformers' modeling_rope_utils.py, against
// float64 formulas written from the reference's definitions (tests/support/RopeReference.h; quirks
// included: yarn's rounding, clamping and 0.001; llama3 with low = high; longrope's switch at the
// original length; proportional's full head_dim in the exponent), and the golden numbers of real
// configs: Llama 2, Llama 3.1 8B, Llama 4 Scout, gpt-oss-20b, DeepSeek-V3, Qwen2.5 7B,
// Phi-3-mini-128k and Gemma 4's proportional RoPE.
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

namespace tst_ropefrequencies {
using namespace Qt::StringLiterals;
using namespace posenc;
namespace Rope = posenc::RopeFrequencies;
using namespace RopeFrequencyTesting;

class TestRopeFrequencies : public QObject
{
    Q_OBJECT

private slots:
    void rotaryDims_data();
    void rotaryDims();
    void defaultAndLinear_data();
    void defaultAndLinear();
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

POSENC_TEST_GUILESS_MAIN(TestRopeFrequencies)
} // namespace tst_ropefrequencies
#include "tst_ropefrequencies.moc"
