// The numbers the family lessons quote (RoPE's, ALiBi's, T5's, DeBERTa's, the families figure's),
// against float64 sums and the families' reference code written in the tests, never against the
// unit's own formulas (tst_lessonnumbers holds the shared numbers').
#include "core/DropoutMask.h"
#include "core/Engine.h"
#include "core/LessonNumbers.h"
#include "core/NumberText.h"
#include "core/ParamText.h"
#include "support/TestMain.h"

#include "LessonNumberTesting.h"
#include "Reference.h"
#include "support/AlibiReference.h"
#include "support/DebertaReference.h"
#include "support/RopeReference.h"
#include "support/T5Reference.h"

#include <QTest>

#include <algorithm>

#include <cmath>
#include <complex>
#include <numbers>

namespace tst_familylessonnumbers {
using namespace Qt::StringLiterals;
using namespace posenc;
using namespace LessonNumberTesting;

class TestFamilyLessonNumbers : public QObject
{
    Q_OBJECT

private slots:
    void ropeScalingNumbers();
    void ropeScoresDependOnTheDistanceOnly_data();
    void ropeScoresDependOnTheDistanceOnly();
    void ropeLayoutsTradePlaces();
    void ropeDecayNumbers();
    void ropeNumbersNeedRope();
    void alibiSlopeNumbers_data();
    void alibiSlopeNumbers();
    void alibiSpansAreTheSoftmaxOfTheBias_data();
    void alibiSpansAreTheSoftmaxOfTheBias();
    void t5Numbers_data();
    void t5Numbers();
    void debertaNumbers();
    void familiesNumbers_data();
    void familiesNumbers();
    void anAlignedScoreReadsApartFromOne();
    void familiesQuoteKeysTheFigureDraws_data();
    void familiesQuoteKeysTheFigureDraws();
    void familiesDistancesGoTogether_data();
    void familiesDistancesGoTogether();
    void relativeNumbersSayWhyWhereTheSettingsCannot();
};

namespace {

// The lessons' head vectors: q_j = sin(j + 1), k_j = cos(2j + 1).
std::vector<double> ropeVector(std::int64_t headDim, bool query)
{
    std::vector<double> v;
    for (std::int64_t j = 0; j < headDim; ++j)
        v.push_back(query ? std::sin(double(j) + 1.0) : std::cos(2.0 * double(j) + 1.0));
    return v;
}

// R(position) x: pair i, columns (i, i + h) or (2i, 2i + 1), as the complex number a + ib turned
// by e^{i position theta_i}, times the attention factor.
std::vector<double> ropeTurned(const Params &p, std::vector<double> x, double position, RopeLayout layout)
{
    const std::vector<double> inv = roperef::inv(p);
    const double a = roperef::attentionFactor(p);
    const std::size_t h = inv.size();
    for (std::size_t i = 0; i < h; ++i) {
        const std::size_t c0 = layout == RopeLayout::Half ? i : 2 * i;
        const std::size_t c1 = layout == RopeLayout::Half ? i + h : 2 * i + 1;
        const std::complex<double> z = std::complex<double>(x[c0], x[c1]) * std::polar(a, position * inv[i]);
        x[c0] = z.real();
        x[c1] = z.imag();
    }
    return x;
}

double ropeReferenceScore(const Params &p, double m, double n, RopeLayout layout)
{
    const std::vector<double> q = ropeTurned(p, ropeVector(p.rope.headDim, true), m, layout);
    const std::vector<double> k = ropeTurned(p, ropeVector(p.rope.headDim, false), n, layout);
    double sum = 0.0;
    for (std::size_t j = 0; j < q.size(); ++j)
        sum += q[j] * k[j];
    return sum;
}

} // namespace

void TestFamilyLessonNumbers::ropeScalingNumbers()
{
    // Llama 3.1 8B: 29 pairs kept, 6 blended, 29 divided; NTK's base at 131,072 of 8,192.
    const Params llama = roperef::llama31();
    QCOMPARE(valueOf(u"rope_kept"_s, llama), 29.0);
    QCOMPARE(valueOf(u"rope_blended"_s, llama), 6.0);
    QCOMPARE(valueOf(u"rope_divided"_s, llama), 29.0);
    QCOMPARE(valueOf(u"rope_attention"_s, llama), 1.0);
    QCOMPARE(valueOf(u"rope_critical_dim"_s, llama),
             2.0 * std::ceil(64.0 * std::log(8192.0 / (2.0 * std::numbers::pi)) / std::log(500000.0)));
    QVERIFY(close(valueOf(u"rope_dynamic_base"_s, llama),
                  500000.0 * std::pow(8.0 * 131072.0 / 8192.0 - 7.0, 128.0 / 126.0), 1e-12));
    QVERIFY(close(valueOf(u"rope_yarn_mscale"_s, llama), 0.1 * std::log(8.0) + 1.0, 1e-15));
    QVERIFY(close(valueOf(u"rope_yarn_logits"_s, llama), std::pow(0.1 * std::log(8.0) + 1.0, 2.0), 1e-15));
    QVERIFY(close(valueOf(u"rope_lambda_first_before"_s, llama), 2.0 * std::numbers::pi, 1e-15));
    QVERIFY(close(valueOf(u"rope_lambda_last"_s, llama),
                  8.0 * 2.0 * std::numbers::pi * std::pow(500000.0, 126.0 / 128.0), 1e-12));
    QCOMPARE(valueOf(u"rope_pairs"_s, llama), 64.0);
    QCOMPARE(valueOf(u"rope_original"_s, llama), 8192.0);
    // gpt-oss: yarn's ramp from 8.093 to 17.398 keeps 9 pairs, blends 9 and divides 14; its
    // attention factor 0.1 ln 32 + 1 multiplies q·k by its square.
    const Params oss = roperef::gptOss();
    QCOMPARE(valueOf(u"rope_kept"_s, oss), 9.0);
    QCOMPARE(valueOf(u"rope_blended"_s, oss), 9.0);
    QCOMPARE(valueOf(u"rope_divided"_s, oss), 14.0);
    QVERIFY(close(valueOf(u"rope_attention"_s, oss), 0.1 * std::log(32.0) + 1.0, 1e-15));
    QVERIFY(close(valueOf(u"rope_logit_scale"_s, oss), std::pow(0.1 * std::log(32.0) + 1.0, 2.0), 1e-14));
    // The rotation keeps each pair's norm, times the attention factor.
    QVERIFY(
        close(valueOf(u"rope_norm_rq"_s, oss), valueOf(u"rope_norm_q"_s, oss) * (0.1 * std::log(32.0) + 1.0), 1e-12));
}

void TestFamilyLessonNumbers::ropeScoresDependOnTheDistanceOnly_data()
{
    QTest::addColumn<Params>("params");
    Params small = make(64, 512, {{u"encoding"_s, u"rope"_s}, {u"head-dim"_s, u"64"_s}});
    QTest::newRow("default, half") << small;
    ParamText::set(small, u"rope-layout"_s, u"interleaved"_s);
    QTest::newRow("default, interleaved") << small;
    QTest::newRow("gpt-oss, yarn") << roperef::gptOss();
}

void TestFamilyLessonNumbers::ropeScoresDependOnTheDistanceOnly()
{
    QFETCH(Params, params);
    QVERIFY(params.isValid());
    const RopeLayout layout = params.rope.layout;
    const double at3 = valueOf(u"rope_dot_3_10"_s, params);
    QVERIFY(close(at3, ropeReferenceScore(params, 3.0, 10.0, layout), 1e-12, 1e-12));
    QVERIFY(close(valueOf(u"rope_dot_3_11"_s, params), ropeReferenceScore(params, 3.0, 11.0, layout), 1e-12, 1e-12));
    // The same distance 7 from 3, 100 and 0: the same score, to rounding.
    QVERIFY(close(valueOf(u"rope_dot_100_107"_s, params), at3, 1e-10, 1e-12));
    QVERIFY(close(valueOf(u"rope_dot_0_7"_s, params), at3, 1e-10, 1e-12));
    QVERIFY(std::abs(valueOf(u"rope_dot_3_11"_s, params) - at3) > 1e-3);
}

void TestFamilyLessonNumbers::ropeLayoutsTradePlaces()
{
    Params half = make(64, 256, {{u"encoding"_s, u"rope"_s}, {u"head-dim"_s, u"64"_s}});
    Params interleaved = half;
    interleaved.rope.layout = RopeLayout::Interleaved;
    for (const double d : {10.0, 100.0}) {
        const QString n = QString::number(int(d));
        const double right = valueOf(u"rope_right_"_s + n, half);
        const double wrong = valueOf(u"rope_wrong_"_s + n, half);
        QVERIFY(close(right, ropeReferenceScore(half, 0.0, d, RopeLayout::Half), 1e-12, 1e-12));
        QVERIFY(close(wrong, ropeReferenceScore(half, 0.0, d, RopeLayout::Interleaved), 1e-12, 1e-12));
        QVERIFY(std::abs(right - wrong) > 1e-2);
        QCOMPARE(valueOf(u"rope_right_"_s + n, interleaved), wrong);
        QCOMPARE(valueOf(u"rope_wrong_"_s + n, interleaved), right);
    }
}

void TestFamilyLessonNumbers::ropeDecayNumbers()
{
    const Params p = make(512, 16384, {{u"encoding"_s, u"rope"_s}, {u"head-dim"_s, u"128"_s}});
    const std::vector<double> inv = roperef::inv(p);
    for (const double k : {1.0, 10.0, 100.0, 1000.0}) {
        double ones = 0.0, bound = 0.0;
        std::complex<double> s(0.0, 0.0);
        for (const double theta : inv) {
            ones += std::cos(k * theta) / double(inv.size());
            s += std::polar(1.0, k * theta);
            bound += std::abs(s) / double(inv.size());
        }
        QVERIFY(close(valueOf(u"rope_ones_"_s + QString::number(int(k)), p), ones, 1e-12, 1e-14));
        if (k >= 100.0)
            QVERIFY(close(valueOf(u"rope_bound_"_s + QString::number(int(k)), p), bound, 1e-12));
    }
    QVERIFY(close(valueOf(u"rope_bound_0"_s, p), (64.0 + 1.0) / 2.0, 1e-15));
    QVERIFY(close(valueOf(u"rope_random_std"_s, p), 1.0 / std::sqrt(128.0), 1e-15));
}

void TestFamilyLessonNumbers::ropeNumbersNeedRope()
{
    const auto number = LessonNumbers::number(u"rope_dot_3_10"_s, make(64, 64));
    QVERIFY(number && !number->value);
    QVERIFY2(number->missing.contains(u"not rope"_s), qPrintable(number->missing));
    // A type without bands says so.
    const auto kept
        = LessonNumbers::number(u"rope_kept"_s, make(64, 64, {{u"encoding"_s, u"rope"_s}, {u"head-dim"_s, u"64"_s}}));
    QVERIFY(kept && !kept->value);
    QVERIFY2(kept->missing.contains(u"llama3 and yarn"_s), qPrintable(kept->missing));
}

void TestFamilyLessonNumbers::alibiSlopeNumbers_data()
{
    QTest::addColumn<qint64>("heads");
    QTest::addColumn<qint64>("power");
    QTest::addColumn<QString>("interleaved");
    QTest::newRow("8 heads") << qint64(8) << qint64(8) << QString();
    QTest::newRow("12 heads") << qint64(12) << qint64(8) << u"0.707, 0.354, 0.177 and 0.0884"_s;
    QTest::newRow("16 heads") << qint64(16) << qint64(16) << QString();
    QTest::newRow("20 heads") << qint64(20) << qint64(16) << u"0.841, 0.595, 0.42 and 0.297"_s;
    QTest::newRow("112 heads") << qint64(112) << qint64(64) << QString();
}

void TestFamilyLessonNumbers::alibiSlopeNumbers()
{
    QFETCH(qint64, heads);
    QFETCH(qint64, power);
    QFETCH(QString, interleaved);
    const Params p = make(
        64, 1024,
        {{u"encoding"_s, u"alibi"_s}, {u"heads"_s, QString::number(heads)}, {u"head"_s, QString::number(heads)}});
    const std::vector<double> slopes = alibiref::slopes(heads);
    QCOMPARE(valueOf(u"alibi_heads"_s, p), double(heads));
    QCOMPARE(valueOf(u"alibi_power"_s, p), double(power));
    QCOMPARE(valueOf(u"alibi_twice"_s, p), double(2 * power));
    QVERIFY(close(valueOf(u"alibi_ratio"_s, p), std::pow(2.0, -8.0 / double(power)), 1e-15));
    QVERIFY(close(valueOf(u"alibi_slope_1"_s, p), slopes[0], 1e-15));
    QVERIFY(close(valueOf(u"alibi_slope_p"_s, p), slopes[std::size_t(power - 1)], 1e-15));
    QVERIFY(close(valueOf(u"alibi_slope_p"_s, p), std::pow(2.0, -8.0), 1e-14));
    QVERIFY(close(valueOf(u"alibi_slope_h"_s, p), slopes.back(), 1e-15));
    QVERIFY(close(valueOf(u"alibi_slope_k"_s, p), slopes.back(), 1e-15));
    QVERIFY(close(valueOf(u"alibi_bias_k_100"_s, p), -100.0 * slopes.back(), 1e-15));
    QVERIFY(close(valueOf(u"alibi_bias_p_1000"_s, p), -1000.0 * std::pow(2.0, -8.0), 1e-14));
    // Heads that are a power of two interleave none: the number is missing, not a 0 in a sentence.
    const auto listed = LessonNumbers::number(u"alibi_interleaved"_s, p);
    QCOMPARE(listed->present(), heads != power);
    if (heads != power)
        QCOMPARE(*listed->value, double(heads - power));
    if (!interleaved.isEmpty())
        QCOMPARE(listed->text, interleaved);
}

void TestFamilyLessonNumbers::alibiSpansAreTheSoftmaxOfTheBias_data()
{
    QTest::addColumn<QString>("mask");
    QTest::addColumn<qint64>("maxLen");
    QTest::newRow("causal, 1024: the table's edge shortens head 8's span") << u"causal"_s << qint64(1024);
    QTest::newRow("causal, 4096, as the lesson") << u"causal"_s << qint64(4096);
    QTest::newRow("symmetric, 1024") << u"symmetric"_s << qint64(1024);
    QTest::newRow("causal, 100: the span reaches the table's edge") << u"causal"_s << qint64(100);
}

void TestFamilyLessonNumbers::alibiSpansAreTheSoftmaxOfTheBias()
{
    QFETCH(QString, mask);
    QFETCH(qint64, maxLen);
    const Params p = make(64, maxLen, {{u"encoding"_s, u"alibi"_s}, {u"heads"_s, u"12"_s}, {u"alibi"_s, mask}});
    const AlibiMask m = mask == u"causal"_s ? AlibiMask::Causal : AlibiMask::Symmetric;
    const std::vector<double> slopes = alibiref::slopes(12);
    // The query the attention figure opens on: the last (causal) or the middle one.
    const std::int64_t query = m == AlibiMask::Causal ? maxLen - 1 : (maxLen - 1) / 2;
    QCOMPARE(valueOf(u"alibi_query"_s, p), double(query));
    const std::vector<double> first = alibiref::softmax(slopes[0], maxLen, query, m == AlibiMask::Causal);
    const std::vector<double> gentle = alibiref::softmax(slopes[7], maxLen, query, m == AlibiMask::Causal);
    QVERIFY(close(valueOf(u"alibi_self_1"_s, p), first[std::size_t(query)], 1e-12));
    QCOMPARE(valueOf(u"alibi_span_1_half"_s, p), double(alibiref::span(first, query, 0.5)));
    QCOMPARE(valueOf(u"alibi_span_1_90"_s, p), double(alibiref::span(first, query, 0.9)));
    QCOMPARE(valueOf(u"alibi_span_p_half"_s, p), double(alibiref::span(gentle, query, 0.5)));
    QCOMPARE(valueOf(u"alibi_span_p_90"_s, p), double(alibiref::span(gentle, query, 0.9)));
    // Ten times the length: the query moves with it, and the span stays unless the table's edge cut
    // it short (at 1024 positions head 8 still weighs the first keys).
    const std::int64_t longQuery = m == AlibiMask::Causal ? 10 * maxLen - 1 : (10 * maxLen - 1) / 2;
    const std::vector<double> longer = alibiref::softmax(slopes[7], 10 * maxLen, longQuery, m == AlibiMask::Causal);
    QCOMPARE(valueOf(u"alibi_span_p_90_10x"_s, p), double(alibiref::span(longer, longQuery, 0.9)));
    if (maxLen >= 4096)
        QCOMPARE(valueOf(u"alibi_span_p_90_10x"_s, p), valueOf(u"alibi_span_p_90"_s, p));
    else
        QVERIFY(valueOf(u"alibi_span_p_90_10x"_s, p) > valueOf(u"alibi_span_p_90"_s, p));
}

void TestFamilyLessonNumbers::t5Numbers_data()
{
    QTest::addColumn<bool>("causal");
    QTest::addColumn<qint64>("buckets");
    QTest::newRow("T5-base, bidirectional") << false << qint64(32);
    QTest::newRow("T5-base's decoder, causal") << true << qint64(32);
    QTest::newRow("64 buckets") << false << qint64(64);
}

void TestFamilyLessonNumbers::t5Numbers()
{
    QFETCH(bool, causal);
    QFETCH(qint64, buckets);
    const Params p = make(64, 2048,
                          {{u"encoding"_s, u"t5"_s},
                           {u"t5-buckets"_s, QString::number(buckets)},
                           {u"t5-causal"_s, causal ? u"true"_s : u"false"_s}});
    const std::int64_t side = causal ? buckets : buckets / 2;
    QCOMPARE(valueOf(u"t5_side"_s, p), double(side));
    QCOMPARE(valueOf(u"t5_exact"_s, p), double(side / 2));
    QCOMPARE(valueOf(u"t5_last"_s, p), double(side - 1));
    for (const int d : {1, 7, 8, 16, 32, 64, 127, 128, 1000}) {
        const auto number = LessonNumbers::number(u"t5_before_"_s + QString::number(d), p);
        QVERIFY(number && number->value);
        QVERIFY2(buckettie::matches(std::int64_t(*number->value), t5ref::t5(-d, buckets, 128, !causal)),
                 qPrintable(u"%1 before: %2"_s.arg(d).arg(*number->value)));
    }
    QVERIFY(buckettie::matches(std::int64_t(valueOf(u"t5_after_1"_s, p)), t5ref::t5(1, buckets, 128, !causal)));
    QVERIFY(buckettie::matches(std::int64_t(valueOf(u"t5_after_1000"_s, p)), t5ref::t5(1000, buckets, 128, !causal)));
    // Where the last bucket starts: the least distance before the query whose bucket is it.
    std::int64_t start = 0;
    while (t5ref::t5(-start, buckets, 128, !causal).value < side - 1)
        ++start;
    QVERIFY2(std::abs(valueOf(u"t5_cap_start"_s, p) - double(start)) <= 1.0,
             qPrintable(u"%1 vs %2"_s.arg(valueOf(u"t5_cap_start"_s, p)).arg(start)));
    QCOMPARE(valueOf(u"t5_shared"_s, p), 2048.0 - valueOf(u"t5_cap_start"_s, p));
    // Every key from the cap on shares the last bucket.
    for (const std::int64_t d : {std::int64_t(valueOf(u"t5_cap_start"_s, p)), std::int64_t(2047)})
        QCOMPARE(t5ref::t5(-d, buckets, 128, !causal).value, side - 1);
}

void TestFamilyLessonNumbers::debertaNumbers()
{
    const Params p = make(64, 2048, {{u"encoding"_s, u"deberta"_s}});
    QCOMPARE(valueOf(u"deberta_mid"_s, p), 128.0);
    QCOMPARE(valueOf(u"deberta_top"_s, p), 255.0);
    QCOMPARE(valueOf(u"deberta_reach"_s, p), 511.0);
    for (const int d : {128, 129, 256, 511, 512, 1000, -1000})
        QVERIFY2(buckettie::matches(
                     std::int64_t(
                         valueOf(u"deberta_"_s + (d < 0 ? u"minus_"_s + QString::number(-d) : QString::number(d)), p)),
                     debertaref::deberta(d, 256, 512)),
                 qPrintable(QString::number(d)));
    QCOMPARE(valueOf(u"deberta_511"_s, p), 255.0);
    QVERIFY(valueOf(u"deberta_1000"_s, p) > 255.0);
    QCOMPARE(valueOf(u"deberta_minus_1000"_s, p), -valueOf(u"deberta_1000"_s, p));
    QVERIFY(buckettie::matches(std::int64_t(valueOf(u"deberta_last"_s, p)), debertaref::deberta(2047, 256, 512)));
    // The rows of the relative embedding c2p and p2c read, as transformers'
    // DisentangledSelfAttention.disentangled_attention_bias (models/deberta_v2/modeling_deberta_v2.py)
    // gathers them, k = att_span = position_buckets = 256: c2p_pos = clamp(relative_pos + k, 0, 2k − 1)
    // at [i, j], relative_pos[i, j] the bucket of i − j; p2c_pos = clamp(−r_pos + k, 0, 2k − 1) at
    // [j, i] (r_pos the keys' own relative positions, the bucket of j − i), gathered and transposed
    // to [i, j]. The paper's p2c reads δ(j, i) = clamp(k − bucket(i − j)).
    const auto row = [](std::int64_t bucket) { return double(std::clamp<std::int64_t>(bucket + 256, 0, 511)); };
    const auto bucket = [](std::int64_t relative) { return debertaref::deberta(relative, 256, 512).value; };
    QCOMPARE(valueOf(u"deberta_c2p_row_10"_s, p), row(bucket(10))); // 266
    QCOMPARE(valueOf(u"deberta_p2c_row_10"_s, p), row(-bucket(-10))); // 266: the same row
    QCOMPARE(valueOf(u"deberta_p2c_row_10"_s, p), 266.0);
    QCOMPARE(valueOf(u"deberta_paper_p2c_row_10"_s, p), row(-bucket(10))); // 246
    QCOMPARE(valueOf(u"deberta_paper_p2c_row_10"_s, p), 246.0);
    const std::int64_t far = bucket(1000);
    QVERIFY(far > 256); // past the rows: they clamp to the edges
    QCOMPARE(valueOf(u"deberta_c2p_row_1000"_s, p), row(far));
    QCOMPARE(valueOf(u"deberta_c2p_row_1000"_s, p), 511.0);
    QCOMPARE(valueOf(u"deberta_p2c_row_1000"_s, p), row(-bucket(-1000)));
    QCOMPARE(valueOf(u"deberta_p2c_row_1000"_s, p), 511.0);
    QCOMPARE(valueOf(u"deberta_paper_p2c_row_1000"_s, p), 0.0);
}

void TestFamilyLessonNumbers::familiesNumbers_data()
{
    QTest::addColumn<Params>("p");
    QTest::newRow("the families lesson: Llama 3.1's RoPE, BLOOM's 16 heads, T5-base, DeBERTa-v3")
        << make(512, 2048,
                {{u"encoding"_s, u"rope"_s},
                 {u"head-dim"_s, u"128"_s},
                 {u"rope-theta"_s, u"500000"_s},
                 {u"rope-type"_s, u"llama3"_s},
                 {u"rope-factor"_s, u"8"_s},
                 {u"original-max-len"_s, u"8192"_s},
                 {u"heads"_s, u"16"_s}});
    QTest::newRow("odd d, sinusoidal") << make(63, 301, {{u"heads"_s, u"12"_s}, {u"head-dim"_s, u"32"_s}});
}

void TestFamilyLessonNumbers::familiesNumbers()
{
    QFETCH(Params, p);
    const std::int64_t q = (p.maxLen - 1) / 2;
    QCOMPARE(valueOf(u"fam_query"_s, p), double(q));
    // PE[q] · PE[q - d] from the rows themselves.
    for (const int d : {0, 1, 100}) {
        const std::vector<double> a = peRow(q, p.dModel, 10000.0, Layout::Interleaved);
        const std::vector<double> b = peRow(q - d, p.dModel, 10000.0, Layout::Interleaved);
        double dot = 0.0;
        for (std::size_t j = 0; j < a.size(); ++j)
            dot += a[j] * b[j];
        QVERIFY2(close(valueOf(u"fam_pe_"_s + QString::number(d), p), dot, 1e-12, 1e-12),
                 qPrintable(u"%1: %2 vs %3"_s.arg(d).arg(valueOf(u"fam_pe_"_s + QString::number(d), p)).arg(dot)));
    }
    // RoPE's aligned score from HF's inverse frequencies.
    Params rope = p;
    rope.encoding = Encoding::Rope;
    const std::vector<double> inv = roperef::inv(rope);
    for (const int d : {1, 100}) {
        double sum = double(p.rope.headDim) - 2.0 * double(inv.size());
        for (const double theta : inv)
            sum += 2.0 * std::cos(double(d) * theta);
        QVERIFY(close(valueOf(u"fam_rope_"_s + QString::number(d), p), sum / double(p.rope.headDim), 1e-12, 1e-14));
    }
    QVERIFY(close(valueOf(u"fam_alibi_1_100"_s, p), -100.0 * alibiref::slopes(p.alibi.heads)[0], 1e-15));
    for (const int d : {1, 10, 100, 1000}) {
        QVERIFY(buckettie::matches(std::int64_t(valueOf(u"fam_t5_"_s + QString::number(d), p)),
                                   t5ref::t5(-d, 32, 128, true)));
        QVERIFY(buckettie::matches(std::int64_t(valueOf(u"fam_deberta_"_s + QString::number(d), p)),
                                   debertaref::deberta(d, 256, 512)));
    }
}

// An aligned pair scores 1 at distance 0: the families lesson's score one key back reads in the
// digits that tell it from that 1. Gemma 3 4B's full-attention layers (google/gemma-3-4b-it
// config.json text_config: head_dim 256, rope_theta 1e6, rope_scaling linear, factor 8) score
// 0.99969 there, and the lesson said "Gemma 3 4B's is 1 at distance 1".
void TestFamilyLessonNumbers::anAlignedScoreReadsApartFromOne()
{
    const Params p = make(2560, 131072,
                          {{u"encoding"_s, u"rope"_s},
                           {u"head-dim"_s, u"256"_s},
                           {u"rope-theta"_s, u"1000000"_s},
                           {u"rope-type"_s, u"linear"_s},
                           {u"rope-factor"_s, u"8"_s}});
    const std::vector<double> inv = roperef::inv(p);
    double sum = 0.0;
    for (const double theta : inv)
        sum += 2.0 * std::cos(theta);
    const double aligned = sum / double(p.rope.headDim);
    QVERIFY(aligned < 1.0 && aligned > 0.9995);
    const auto one = LessonNumbers::number(u"fam_rope_1"_s, p);
    QVERIFY(one && one->value);
    QVERIFY(close(*one->value, aligned, 1e-12, 1e-14));
    QCOMPARE(one->text, u"0.9997"_s);
    // Farther, three digits tell it from 1 already.
    QCOMPARE(LessonNumbers::number(u"fam_rope_100"_s, p)->text, u"0.775"_s);
}

void TestFamilyLessonNumbers::familiesQuoteKeysTheFigureDraws_data()
{
    QTest::addColumn<Params>("p");
    QTest::addColumn<qint64>("far");
    QTest::addColumn<qint64>("farthest");
    // The families lesson said "a hundred back" and "1000 back" where its figure's query, (L − 1)/2,
    // has no such key: the distances it quotes are 100 and 1000, or the farthest key drawn unmasked.
    QTest::newRow("MAE's 197 patches: q = 98") << make(768, 197) << qint64(98) << qint64(98);
    QTest::newRow("512 positions (T5, DeBERTa): q = 255") << make(768, 512) << qint64(100) << qint64(255);
    QTest::newRow("2048 positions: q = 1023") << make(512, 2048) << qint64(100) << qint64(1000);
    // masking_utils' sliding_window_overlay: kv_idx > q_idx − W, the keys W − 1 back the farthest seen.
    QTest::newRow("a causal window of 64 from q = 1023")
        << make(512, 2048, {{u"sliding-window"_s, u"64"_s}}) << qint64(63) << qint64(63);
    QTest::newRow("a window wider than q masks nothing")
        << make(512, 2048, {{u"sliding-window"_s, u"4096"_s}}) << qint64(100) << qint64(1000);
    QTest::newRow("an encoder's window masks nothing in the figure")
        << make(512, 2048, {{u"sliding-window"_s, u"64"_s}, {u"attention"_s, u"both-ways"_s}}) << qint64(100)
        << qint64(1000);
}

void TestFamilyLessonNumbers::familiesQuoteKeysTheFigureDraws()
{
    QFETCH(Params, p);
    QFETCH(qint64, far);
    QFETCH(qint64, farthest);
    const std::int64_t q = (p.maxLen - 1) / 2;
    QCOMPARE(valueOf(u"fam_far"_s, p), double(far));
    QCOMPARE(valueOf(u"fam_farthest"_s, p), double(farthest));
    // PE[q] · PE[q − far] from the rows themselves.
    const std::vector<double> a = peRow(q, p.dModel, 10000.0, Layout::Interleaved);
    const std::vector<double> b = peRow(q - far, p.dModel, 10000.0, Layout::Interleaved);
    double dot = 0.0;
    for (std::size_t j = 0; j < a.size(); ++j)
        dot += a[j] * b[j];
    QVERIFY(close(valueOf(u"fam_pe_far"_s, p), dot, 1e-12, 1e-12));
    Params rope = p;
    rope.encoding = Encoding::Rope;
    const std::vector<double> inv = roperef::inv(rope);
    double sum = double(p.rope.headDim) - 2.0 * double(inv.size());
    for (const double theta : inv)
        sum += 2.0 * std::cos(double(far) * theta);
    QVERIFY(close(valueOf(u"fam_rope_far"_s, p), sum / double(p.rope.headDim), 1e-12, 1e-14));
    QVERIFY(close(valueOf(u"fam_alibi_1_far"_s, p), -double(far) * alibiref::slopes(p.alibi.heads)[0], 1e-15));
    const auto t5 = [](std::int64_t back) { return t5ref::t5(-back, 32, 128, true); };
    QVERIFY(buckettie::matches(std::int64_t(valueOf(u"fam_t5_farthest"_s, p)), t5(farthest)));
    QVERIFY(buckettie::matches(std::int64_t(valueOf(u"fam_deberta_farthest"_s, p)),
                               debertaref::deberta(farthest, 256, 512)));
    // "its last": the bucket of every key farther still (T5's log buckets stop at max_distance 128).
    const auto last = LessonNumbers::number(u"fam_t5_farthest_last"_s, p);
    QVERIFY(last);
    QCOMPARE(last->present(), t5(farthest).value == t5(1'000'000).value);
}

void TestFamilyLessonNumbers::familiesDistancesGoTogether_data()
{
    QTest::addColumn<Params>("p");
    QTest::addColumn<bool>("far");
    QTest::addColumn<bool>("farthest");
    // A causal window W from q = 1023 draws the keys up to W − 1 back: 7 is past 1 but not past 10,
    // 1 past neither.
    QTest::newRow("a window of 8: the far key 7 back, no farthest")
        << make(512, 2048, {{u"sliding-window"_s, u"8"_s}}) << true << false;
    QTest::newRow("a window of 2: neither") << make(512, 2048, {{u"sliding-window"_s, u"2"_s}}) << false << false;
    QTest::newRow("2048 positions: both") << make(512, 2048) << true << true;
}

// Every number the families lesson quotes at its far distance (fam_far) or its farthest
// (fam_farthest) is there where that distance is and missing where it is not, all for one reason:
// one rule (familiesQuotedBack) says where the distances are, not a threshold in each family's file.
void TestFamilyLessonNumbers::familiesDistancesGoTogether()
{
    QFETCH(Params, p);
    QFETCH(bool, far);
    QFETCH(bool, farthest);
    const QStringList atFar {u"fam_far"_s, u"fam_pe_far"_s, u"fam_rope_far"_s, u"fam_alibi_1_far"_s};
    const QStringList atFarthest {u"fam_farthest"_s, u"fam_t5_farthest"_s, u"fam_deberta_farthest"_s};
    for (const auto &[keys, there] : {std::pair {atFar, far}, std::pair {atFarthest, farthest}}) {
        QString why;
        for (const QString &key : keys) {
            const auto number = LessonNumbers::number(key, p);
            QVERIFY2(number, qPrintable(key));
            QCOMPARE(number->present(), there);
            if (there)
                continue;
            QVERIFY2(number->missing.startsWith(u"not here: the families figure draws no key"_s),
                     qPrintable(key + u": "_s + number->missing));
            QVERIFY2(why.isEmpty() || number->missing == why, qPrintable(key + u": "_s + number->missing));
            why = number->missing;
        }
    }
    // T5's "last bucket" is said of the farthest key only where there is one.
    const auto last = LessonNumbers::number(u"fam_t5_farthest_last"_s, p);
    QVERIFY(last);
    if (!farthest)
        QVERIFY(!last->present());
}

void TestFamilyLessonNumbers::relativeNumbersSayWhyWhereTheSettingsCannot()
{
    // RoPE's settings incomplete under another encoding (yarn needs a factor): the number says so.
    const Params p = make(64, 64, {{u"rope-type"_s, u"yarn"_s}, {u"head-dim"_s, u"32"_s}});
    const auto rope = LessonNumbers::number(u"fam_rope_1"_s, p);
    QVERIFY(rope && !rope->value);
    QVERIFY2(rope->missing.contains(u"RoPE's settings"_s), qPrintable(rope->missing));
    // No key 100 positions before the middle of 64.
    const auto far = LessonNumbers::number(u"fam_pe_100"_s, p);
    QVERIFY(far && !far->value);
}

POSENC_TEST_GUILESS_MAIN(TestFamilyLessonNumbers)
} // namespace tst_familylessonnumbers
#include "tst_familylessonnumbers.moc"
