// The numbers the lessons quote, against closed forms and float64 sums written here from
// docs/ARCHITECTURE.md, The mathematics: never against the unit's own formulas; the one count
// of a seed's mask against the mask's bits one cell at a time.
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

#include <algorithm>

#include <cmath>
#include <complex>
#include <numbers>

namespace tst_lessonnumbers {
using namespace Qt::StringLiterals;
using namespace posenc;
using namespace LessonNumberTesting;

class TestLessonNumbers : public QObject
{
    Q_OBJECT

private slots:
    void dropoutCounts_data();
    void dropoutCounts();
    void normsAndTheirRatio_data();
    void normsAndTheirRatio();
    void columnMomentsEqualSumsOverPositions_data();
    void columnMomentsEqualSumsOverPositions();
    void similarityEqualsDotProductsOfRows_data();
    void similarityEqualsDotProductsOfRows();
    void similarityRipplesAsTheRowsDo_data();
    void similarityRipplesAsTheRowsDo();
    void wavelengths_data();
    void wavelengths();
    void float32BoundHoldsAtTheLastPosition_data();
    void float32BoundHoldsAtTheLastPosition();
    void specialRowsAndPadding();
    void specialDroppedCountsTheMask();
    void concatColumns();
    void undefinedNumbersSayWhy();
    void formatting_data();
    void formatting();
    void fillReplacesKeysAndKeepsOtherBraces();
    void everyKeyIsDescribedAndAnswers();
    void positionsRecoveredFromY_data();
    void positionsRecoveredFromY();
    void embeddingAndPeAreNearlyOrthogonal_data();
    void embeddingAndPeAreNearlyOrthogonal();
    void cosineRowsStayWithinAFewMegabytes_data();
    void cosineRowsStayWithinAFewMegabytes();
};

void TestLessonNumbers::dropoutCounts_data()
{
    QTest::addColumn<Params>("params");
    QTest::newRow("d 512, L 64, p 0.1") << make(512, 64, {{u"dropout"_s, u"0.1"_s}});
    QTest::newRow("d 33, L 7, p 0.5") << make(33, 7, {{u"dropout"_s, u"0.5"_s}});
    QTest::newRow("d 8, L 1, p 0") << make(8, 1, {{u"dropout"_s, u"0"_s}});
    QTest::newRow("d 1024, L 4096, p 0.3") << make(1024, 4096, {{u"dropout"_s, u"0.3"_s}});
}

void TestLessonNumbers::dropoutCounts()
{
    QFETCH(Params, params);
    const double p = params.dropout;
    const double n = double(params.maxLen) * double(params.dModel);
    const double d = double(params.dModel);
    QVERIFY(close(valueOf(u"keep"_s, params), 1.0 - p, 1e-15));
    QVERIFY(close(valueOf(u"keep_factor"_s, params), 1.0 / (1.0 - p), 1e-15));
    QVERIFY(close(valueOf(u"cells"_s, params), n, 1e-15));
    QVERIFY(close(valueOf(u"dropped_mean"_s, params), p * n, 1e-15));
    // A binomial count: variance n p (1 - p).
    QVERIFY(close(valueOf(u"dropped_std"_s, params), std::sqrt(n * p * (1.0 - p)), 1e-15));
    QVERIFY(close(valueOf(u"dropped_fraction_std"_s, params), std::sqrt(n * p * (1.0 - p)) / n, 1e-14));
    QVERIFY(close(valueOf(u"row_dropped_mean"_s, params), p * d, 1e-15));
    QVERIFY(close(valueOf(u"row_dropped_std"_s, params), std::sqrt(d * p * (1.0 - p)), 1e-15));
    // No cell of d dropped: the product of d independent keeps.
    double intact = 1.0;
    for (std::int64_t j = 0; j < params.dModel; ++j)
        intact *= 1.0 - p;
    QVERIFY(close(valueOf(u"row_intact"_s, params), intact, 1e-12));
}

void TestLessonNumbers::normsAndTheirRatio_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<double>("s");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("peColumns");
    QTest::addColumn<double>("embeddingColumns");
    QTest::newRow("paper: s sqrt d, sigma d^-1/2")
        << make(512, 16, {{u"scale"_s, u"sqrt"_s}, {u"init"_s, u"scaled-normal"_s}}) << std::sqrt(512.0)
        << 1.0 / std::sqrt(512.0) << 512.0 << 512.0;
    QTest::newRow("nn.Embedding: s 1, sigma 1")
        << make(256, 16, {{u"scale"_s, u"1"_s}, {u"init"_s, u"normal"_s}}) << 1.0 << 1.0 << 256.0 << 256.0;
    QTest::newRow("s sqrt d, sigma 1") << make(64, 16, {{u"scale"_s, u"sqrt"_s}, {u"init"_s, u"normal"_s}}) << 8.0
                                       << 1.0 << 64.0 << 64.0;
    QTest::newRow("custom s 2.5, sigma 0.3")
        << make(100, 16, {{u"scale"_s, u"2.5"_s}, {u"init"_s, u"0.3"_s}}) << 2.5 << 0.3 << 100.0 << 100.0;
    QTest::newRow("concat, k 24 of 64") << make(
        64, 16, {{u"scale"_s, u"1"_s}, {u"init"_s, u"normal"_s}, {u"compose"_s, u"concat"_s}, {u"pe-dims"_s, u"24"_s}})
                                        << 1.0 << 1.0 << 24.0 << 40.0;
}

void TestLessonNumbers::normsAndTheirRatio()
{
    QFETCH(Params, params);
    QFETCH(double, s);
    QFETCH(double, sigma);
    QFETCH(double, peColumns);
    QFETCH(double, embeddingColumns);
    QVERIFY(params.isValid());
    // ||PE_p||^2: sin^2 + cos^2 = 1 per pair, measured on a row of the table.
    double rowSquare = 0.0;
    for (const double v : peRow(37, std::int64_t(peColumns), params.sinusoidal.base, params.sinusoidal.layout))
        rowSquare += v * v;
    QVERIFY(close(valueOf(u"pe_norm_sq"_s, params), rowSquare, 1e-12));
    QVERIFY(close(valueOf(u"pe_norm_sq"_s, params), peColumns / 2.0, 1e-15));
    QVERIFY(close(valueOf(u"pe_norm"_s, params), std::sqrt(peColumns / 2.0), 1e-15));
    // E||s E_p||^2 = s^2 sigma^2 d_E: each of d_E cells has variance s^2 sigma^2.
    const double embedding = s * s * sigma * sigma * embeddingColumns;
    QVERIFY(close(valueOf(u"emb_norm_sq"_s, params), embedding, 1e-12));
    QVERIFY(close(valueOf(u"emb_norm"_s, params), std::sqrt(embedding), 1e-12));
    QVERIFY(close(valueOf(u"ratio"_s, params), std::sqrt(embedding / (peColumns / 2.0)), 1e-12));
    QVERIFY(close(valueOf(u"emb_std"_s, params), s * sigma, 1e-12));
    // The 2 x 2 grid of question 4, at this d: sqrt(s^2 sigma^2 d / (d/2)).
    const double d = double(params.dModel);
    QVERIFY(close(valueOf(u"ratio_1_1"_s, params), std::sqrt(2.0), 1e-15));
    QVERIFY(close(valueOf(u"ratio_sqrtd_1"_s, params), std::sqrt(2.0 * d), 1e-14));
    QVERIFY(close(valueOf(u"ratio_1_invsqrtd"_s, params), std::sqrt(2.0 / d), 1e-14));
    QVERIFY(close(valueOf(u"ratio_sqrtd_invsqrtd"_s, params), std::sqrt(2.0), 1e-14));
    QVERIFY(close(valueOf(u"sqrt_d"_s, params), std::sqrt(d), 1e-15));
    QVERIFY(close(valueOf(u"inv_sqrt_d"_s, params), 1.0 / std::sqrt(d), 1e-15));
}

void TestLessonNumbers::columnMomentsEqualSumsOverPositions_data()
{
    QTest::addColumn<Params>("params");
    QTest::newRow("d 512, L 1024") << make(512, 1024);
    QTest::newRow("d 64, L 100, split") << make(64, 100, {{u"layout"_s, u"split"_s}});
    QTest::newRow("d 33 (odd), L 5000") << make(33, 5000);
    QTest::newRow("concat k 16 of 48, L 300") << make(48, 300, {{u"compose"_s, u"concat"_s}, {u"pe-dims"_s, u"16"_s}});
    QTest::newRow("base 500, L 1") << make(16, 1, {{u"base"_s, u"500"_s}});
}

void TestLessonNumbers::columnMomentsEqualSumsOverPositions()
{
    QFETCH(Params, params);
    const std::int64_t k = params.peColumns();
    for (const auto &[column, meanKey, stdKey] : {std::tuple {std::int64_t(0), u"pe_mean_first"_s, u"pe_std_first"_s},
                                                  std::tuple {k - 1, u"pe_mean_last"_s, u"pe_std_last"_s}}) {
        double sum = 0.0;
        for (std::int64_t p = 0; p < params.maxLen; ++p)
            sum += reference::exactValue(p, column, k, params.sinusoidal.base, params.sinusoidal.layout);
        const double mean = sum / double(params.maxLen);
        double squares = 0.0;
        for (std::int64_t p = 0; p < params.maxLen; ++p) {
            const double v
                = reference::exactValue(p, column, k, params.sinusoidal.base, params.sinusoidal.layout) - mean;
            squares += v * v;
        }
        const double std = std::sqrt(squares / double(params.maxLen));
        QVERIFY2(close(valueOf(meanKey, params), mean, 1e-9, 1e-12),
                 qPrintable(u"%1: %2 vs %3"_s.arg(meanKey).arg(valueOf(meanKey, params)).arg(mean)));
        QVERIFY2(close(valueOf(stdKey, params), std, 1e-6, 1e-7),
                 qPrintable(u"%1: %2 vs %3"_s.arg(stdKey).arg(valueOf(stdKey, params)).arg(std)));
    }
    QCOMPARE(valueOf(u"last_column"_s, params), double(k - 1));
}

void TestLessonNumbers::similarityEqualsDotProductsOfRows_data()
{
    QTest::addColumn<Params>("params");
    QTest::newRow("d 128") << make(128, 256);
    QTest::newRow("d 512, split") << make(512, 256, {{u"layout"_s, u"split"_s}});
    QTest::newRow("d 6, base 100") << make(6, 256, {{u"base"_s, u"100"_s}});
}

void TestLessonNumbers::similarityEqualsDotProductsOfRows()
{
    QFETCH(Params, params);
    const std::int64_t d = params.dModel;
    for (const int offset : {0, 1, 10, 100}) {
        // Two pairs of rows at this offset, far apart: the dot product is the same.
        for (const std::int64_t p : {std::int64_t(0), std::int64_t(1234)}) {
            const std::vector<double> a = peRow(p, d, params.sinusoidal.base, params.sinusoidal.layout);
            const std::vector<double> b = peRow(p + offset, d, params.sinusoidal.base, params.sinusoidal.layout);
            double dot = 0.0;
            for (std::size_t j = 0; j < a.size(); ++j)
                dot += a[j] * b[j];
            const QString key = u"sim_%1"_s.arg(offset);
            QVERIFY2(close(valueOf(key, params), dot, 1e-9, 1e-9),
                     qPrintable(u"%1 at p %2: %3 vs %4"_s.arg(key).arg(p).arg(valueOf(key, params)).arg(dot)));
        }
    }
}

void TestLessonNumbers::similarityRipplesAsTheRowsDo_data()
{
    QTest::addColumn<Params>("params");
    QTest::newRow("d 128, L 256: S rises again") << make(128, 256);
    // Three positions: S(0) > S(1) > S(2), pair 0's cos(k) still falling: no ripple.
    QTest::newRow("d 64, L 3: S falls") << make(64, 3);
    // Many slow pairs: S(0) .. S(200) turned pair by pair, as the lesson now sums them, stays within
    // the rows' sums (20 s at d 10^6 when each S(k) was its own pass of cosines).
    QTest::newRow("d 16384, L 201") << make(16384, 201);
}

void TestLessonNumbers::similarityRipplesAsTheRowsDo()
{
    QFETCH(Params, params);
    const std::int64_t d = params.dModel;
    // sim_ripples: whether S(k) rises somewhere over the offsets drawn, 0 .. min(L - 1, 200), S from
    // the rows' dot products at p = 0 (a condition holds where its number is present).
    const std::int64_t last = std::min<std::int64_t>(params.maxLen - 1, 200);
    const std::vector<double> first = peRow(0, d, params.sinusoidal.base, params.sinusoidal.layout);
    bool rises = false;
    double previous = 0.0;
    for (std::int64_t k = 0; k <= last; ++k) {
        const std::vector<double> row = peRow(k, d, params.sinusoidal.base, params.sinusoidal.layout);
        double dot = 0.0;
        for (std::size_t j = 0; j < row.size(); ++j)
            dot += first[j] * row[j];
        rises = rises || (k > 0 && dot > previous + 1e-9);
        previous = dot;
    }
    const auto ripples = LessonNumbers::number(u"sim_ripples"_s, params);
    QVERIFY(ripples);
    QCOMPARE(ripples->present(), rises);
}

void TestLessonNumbers::wavelengths_data()
{
    QTest::addColumn<Params>("params");
    QTest::newRow("d 64, L 256") << make(64, 256);
    QTest::newRow("d 512, L 1024") << make(512, 1024);
    QTest::newRow("d 512, L 10^6 (every pair turns)") << make(512, 1000000, {{u"base"_s, u"100"_s}});
    QTest::newRow("d 7, split") << make(7, 50, {{u"layout"_s, u"split"_s}});
}

void TestLessonNumbers::wavelengths()
{
    QFETCH(Params, params);
    const std::int64_t d = params.dModel;
    const std::int64_t pairs = (d + 1) / 2;
    QCOMPARE(valueOf(u"pairs"_s, params), double(pairs));
    const auto lambda
        = [&](std::int64_t i) { return 2.0 * std::numbers::pi / reference::omega(i, d, params.sinusoidal.base); };
    QVERIFY(close(valueOf(u"lambda_first"_s, params), 2.0 * std::numbers::pi, 1e-15));
    QVERIFY(close(valueOf(u"lambda_last"_s, params), lambda(pairs - 1), 1e-12));
    QVERIFY(close(valueOf(u"lambda_mid"_s, params), lambda(pairs / 2), 1e-12));
    QVERIFY(close(valueOf(u"w_last"_s, params), reference::omega(pairs - 1, d, params.sinusoidal.base), 1e-12));
    std::int64_t slow = 0;
    std::int64_t firstSlow = -1;
    for (std::int64_t i = 0; i < pairs; ++i) {
        if (lambda(i) > double(params.maxLen)) {
            ++slow;
            if (firstSlow < 0)
                firstSlow = i;
        }
    }
    QCOMPARE(valueOf(u"slow_pairs"_s, params), double(slow));
    if (firstSlow < 0) {
        QVERIFY(!LessonNumbers::number(u"slow_column"_s, params)->value);
        return;
    }
    // The sine of that pair: column 2i interleaved, column i split.
    const double column = params.sinusoidal.layout == Layout::Interleaved ? 2.0 * double(firstSlow) : double(firstSlow);
    QCOMPARE(valueOf(u"slow_column"_s, params), column);
}

void TestLessonNumbers::float32BoundHoldsAtTheLastPosition_data()
{
    QTest::addColumn<std::int64_t>("maxLen");
    QTest::newRow("L 10^6") << std::int64_t(1000000);
    QTest::newRow("L 65536") << std::int64_t(65536);
    QTest::newRow("L 5000") << std::int64_t(5000);
}

void TestLessonNumbers::float32BoundHoldsAtTheLastPosition()
{
    QFETCH(std::int64_t, maxLen);
    const Params params = make(128, maxLen, {{u"angles"_s, u"float32"_s}});
    const double last = double(maxLen - 1);
    const double bound = valueOf(u"f32_bound"_s, params);
    QVERIFY(close(bound, last * std::pow(2.0, -23) + std::pow(2.0, -25), 1e-15));
    // The error of column 0 over the last thousand positions stays within it.
    double worst = 0.0;
    for (std::int64_t p = std::max<std::int64_t>(0, maxLen - 1000); p < maxLen; ++p) {
        const double error
            = std::abs(double(reference::float32AngleValue(p, 0, 128, params.sinusoidal.base, params.sinusoidal.layout))
                       - reference::preciseValue(p, 0, 128, params.sinusoidal.base, params.sinusoidal.layout));
        worst = std::max(worst, error);
    }
    QVERIFY2(worst <= bound, qPrintable(u"%1 > %2"_s.arg(worst).arg(bound)));
    // float32 numbers near L - 1 are this far apart: the next float after it.
    const float f = float(last);
    QCOMPARE(valueOf(u"f32_spacing"_s, params), double(std::nextafter(f, 2.0f * f + 1.0f)) - double(f));
    QVERIFY(close(valueOf(u"turns_last"_s, params), last / (2.0 * std::numbers::pi), 1e-15));
    // Where the bound reaches 1e-3.
    const double reach = valueOf(u"f32_reach_1e3"_s, params);
    QVERIFY((reach - 1.0) * std::pow(2.0, -23) + std::pow(2.0, -25) < 1e-3);
    QVERIFY(reach * std::pow(2.0, -23) + std::pow(2.0, -25) >= 1e-3);
}

void TestLessonNumbers::specialRowsAndPadding()
{
    const Params params = make(32, 24,
                               {{u"dropout"_s, u"0.1"_s},
                                {u"dropout-mode"_s, u"masked-fill"_s},
                                {u"special"_s, u"0,-1"_s},
                                {u"seq-len"_s, u"16"_s}});
    QVERIFY(params.isValid());
    QCOMPARE(valueOf(u"seq_len"_s, params), 16.0);
    QCOMPARE(valueOf(u"padding_rows"_s, params), 8.0);
    QCOMPARE(valueOf(u"last_position"_s, params), 23.0);
    // [CLS] at 0 and [SEP] at seq_len - 1.
    QCOMPARE(LessonNumbers::number(u"special"_s, params)->text, u"0, 15"_s);
    QCOMPARE(valueOf(u"special_rows"_s, params), 2.0);
    QCOMPARE(valueOf(u"special_cells"_s, params), 64.0);
    QVERIFY(close(valueOf(u"special_dropped_mean"_s, params), 0.1 * 64.0, 1e-15));
}

// The special rows' cells this seed zeroes, against the mask's bits one cell at a time, at a width
// that is not whole words of bits; none in evaluation.
void TestLessonNumbers::specialDroppedCountsTheMask()
{
    for (const std::uint64_t seed : {0ull, 1ull, 27ull, 123456789ull}) {
        Params params = make(100, 24,
                             {{u"dropout"_s, u"0.3"_s},
                              {u"dropout-mode"_s, u"masked-fill"_s},
                              {u"special"_s, u"0,4,-1"_s},
                              {u"seq-len"_s, u"16"_s}});
        params.seed = seed;
        const DropoutMask mask(params);
        std::int64_t dropped = 0;
        for (const std::int64_t row : {0, 4, 15})
            for (std::int64_t c = 0; c < 100; ++c)
                dropped += mask.kept(row, c) ? 0 : 1;
        QCOMPARE(valueOf(u"special_dropped"_s, params), double(dropped));
        params.training = false;
        QCOMPARE(valueOf(u"special_dropped"_s, params), 0.0);
    }
    // p = 0 drops nothing, p = 1 every cell of the three rows; 0 and -1 name one row of a
    // sequence of one.
    Params edge = make(100, 24, {{u"dropout"_s, u"0"_s}, {u"special"_s, u"0,4,-1"_s}, {u"seq-len"_s, u"16"_s}});
    QCOMPARE(valueOf(u"special_dropped"_s, edge), 0.0);
    edge.dropout = 1.0;
    QCOMPARE(valueOf(u"special_dropped"_s, edge), 300.0);
    edge.seqLen = 1;
    QCOMPARE(valueOf(u"special_rows"_s, edge), 1.0);
    QCOMPARE(valueOf(u"special_dropped"_s, edge), 100.0);
}

void TestLessonNumbers::concatColumns()
{
    // In sum, what concatenating would do: half the columns by default, or pe_dims.
    QCOMPARE(valueOf(u"concat_k"_s, make(512, 8)), 256.0);
    QCOMPARE(valueOf(u"concat_d_e"_s, make(512, 8)), 256.0);
    QCOMPARE(valueOf(u"concat_k"_s, make(7, 8)), 3.0);
    const Params concat = make(64, 8, {{u"compose"_s, u"concat"_s}, {u"pe-dims"_s, u"16"_s}});
    QCOMPARE(valueOf(u"concat_k"_s, concat), 16.0);
    QCOMPARE(valueOf(u"concat_d_e"_s, concat), 48.0);
    QCOMPARE(valueOf(u"k"_s, concat), 16.0);
    QCOMPARE(valueOf(u"k"_s, make(64, 8)), 64.0);
}

void TestLessonNumbers::undefinedNumbersSayWhy()
{
    Params params = make(16, 16, {{u"dropout"_s, u"1"_s}});
    const auto factor = LessonNumbers::number(u"keep_factor"_s, params);
    QVERIFY(!factor->value);
    QVERIFY(!factor->present() && factor->text.isEmpty());
    QVERIFY(factor->missing.contains(u"p = 1"_s));
    auto matrix = std::make_shared<EmbeddingMatrix>();
    matrix->values = RowMatrixXf::Zero(16, 16);
    matrix->source = u"e.npy"_s;
    params.embeddings = matrix;
    for (const QString &key : {u"sigma"_s, u"emb_norm"_s, u"ratio"_s, u"emb_std"_s}) {
        const auto number = LessonNumbers::number(key, params);
        QVERIFY2(!number->value, qPrintable(key));
        QVERIFY2(number->missing.contains(u"file"_s), qPrintable(number->missing));
    }
    params.training = false;
    QVERIFY(LessonNumbers::number(u"dropout_note"_s, params)->text.contains(u"Y = X"_s));
    QVERIFY(!LessonNumbers::number(u"no_such_key"_s, params));
    // A family's name keeps its letters in the middle of a sentence ("RoPE", never "roPE"); a
    // heading of ordinary words starts small.
    const QList<std::pair<QString, QString>> families {{u"rope"_s, u"RoPE adds"_s},
                                                       {u"alibi"_s, u"ALiBi adds"_s},
                                                       {u"deberta"_s, u"DeBERTa log buckets adds"_s},
                                                       {u"t5"_s, u"T5 relative buckets adds"_s}};
    for (const auto &[encoding, words] : families) {
        const auto term = LessonNumbers::number(u"adds_term"_s, make(16, 16, {{u"encoding"_s, encoding}}));
        QVERIFY2(term->missing.startsWith(words), qPrintable(term->missing));
    }
    QCOMPARE(LessonNumbers::number(u"family"_s, make(16, 16, {{u"encoding"_s, u"learned"_s}}))->text,
             u"learned position table"_s);
}

void TestLessonNumbers::formatting_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("0") << 0.0 << u"0"_s;
    QTest::newRow("0.1") << 0.1 << u"0.1"_s;
    QTest::newRow("1/0.9") << 1.0 / 0.9 << u"1.11"_s;
    QTest::newRow("51.2") << 51.2 << u"51.2"_s;
    QTest::newRow("22.627") << 22.627417 << u"22.6"_s;
    QTest::newRow("1234.4, grouped") << 1234.4 << u"1,234"_s;
    QTest::newRow("0.00123") << 0.0012345 << u"0.00123"_s;
    QTest::newRow("negative") << -0.5 << u"−0.5"_s;
    QTest::newRow("tiny") << 3.8e-24 << u"3.8·10⁻²⁴"_s;
    QTest::newRow("power of ten") << 1e-5 << u"10⁻⁵"_s;
    QTest::newRow("rounds up to a power") << 9.9996e7 << u"10⁸"_s;
    QTest::newRow("huge") << 1.759e13 << u"1.76·10¹³"_s;
    QTest::newRow("0.99969 is not 1") << 0.9996858680902386 << u"0.9997"_s; // rope-decay, Gemma 3 4B
}

void TestLessonNumbers::formatting()
{
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(NumberText::prose(value), text);
}

void TestLessonNumbers::fillReplacesKeysAndKeepsOtherBraces()
{
    const LessonModel model {make(512, 64, {{u"dropout"_s, u"0.1"_s}}), u"a model"_s, {}, {}, {}, {}, false, false};
    const LessonNumbers::Filled filled
        = LessonNumbers::fill(u"d = {d}, 1/(1 − p) = {keep_factor}, {nope} and {}"_s, model);
    QCOMPARE(filled.text, u"d = 512, 1/(1 − p) = 1.11, {nope} and {}"_s);
    QCOMPARE(filled.unknown, QStringList {u"nope"_s});
    QCOMPARE(filled.keys, (QStringList {u"d"_s, u"keep_factor"_s, u"nope"_s}));
    QVERIFY(!filled.complete());
    QCOMPARE(LessonNumbers::fill(u"p = {p}"_s, model, true).text, u"p = <b>0.1</b>"_s);
    // A word is never emphasised; {Model} starts a sentence with it, a model's name as it is spelt
    // ("a model", "gpt-oss-20b") and other words with a capital.
    QCOMPARE(LessonNumbers::fill(u"{Model}: {model}"_s, model, true).text, u"a model: a model"_s);
    const LessonModel unnamed {model.params, {}, {}, {}, {}, {}, false};
    QCOMPARE(LessonNumbers::fill(u"{Model}: {model}"_s, unnamed, true).text, u"This model: this model"_s);
    // A name ending in s takes the possessive as an apostrophe alone; other words after 's stay.
    const LessonModel plural {model.params, u"PyTorch nn.Embedding defaults"_s, {}, {}, {}, {}, false};
    QCOMPARE(LessonNumbers::fill(u"At {model}'s s, {model}'s."_s, plural).text,
             u"At PyTorch nn.Embedding defaults' s, PyTorch nn.Embedding defaults'."_s);
    QCOMPARE(LessonNumbers::fill(u"{model}'s"_s, model).text, u"a model's"_s);
    QCOMPARE(LessonNumbers::fill(u"{model}'ss"_s, plural).text, u"PyTorch nn.Embedding defaults'ss"_s);
    // A missing number leaves no words of its own: the fragment is not complete, and says nothing of why.
    const LessonNumbers::Filled lacking = LessonNumbers::fill(u"slope {rope_pairs}"_s, model);
    QCOMPARE(lacking.missing, QStringList {u"rope_pairs"_s});
    QVERIFY(!lacking.text.contains(u"not"_s));
}

void TestLessonNumbers::everyKeyIsDescribedAndAnswers()
{
    const QList<Params> settings = {make(512, 1024), make(1, 1), make(7, 3, {{u"dropout"_s, u"1"_s}}),
                                    make(64, 16, {{u"compose"_s, u"concat"_s}, {u"pe-dims"_s, u"2"_s}})};
    QVERIFY(LessonNumbers::keys().size() > 40);
    for (const QString &key : LessonNumbers::keys()) {
        QVERIFY2(!LessonNumbers::describe(key).isEmpty(), qPrintable(key));
        for (const Params &params : settings) {
            QVERIFY(params.isValid());
            const auto number = LessonNumbers::number(key, params);
            QVERIFY2(number, qPrintable(key));
            // A number has words, a condition none, a missing number its reason and no words.
            if (number->present())
                QVERIFY2(!number->text.isEmpty() || !number->value, qPrintable(key));
            else
                QVERIFY2(!number->missing.isEmpty() && number->text.isEmpty() && !number->value, qPrintable(key));
            QVERIFY2(!number->value || std::isfinite(*number->value), qPrintable(key + u": "_s + number->text));
        }
    }
}

void TestLessonNumbers::positionsRecoveredFromY_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("p");
    const Params pe = make(64, 48, {{u"dropout"_s, u"0"_s}});
    QTest::newRow("no dropout: every position") << pe << u"recovered"_s << 0.0;
    Params seeded = make(64, 48);
    seeded.seed = 5;
    QTest::newRow("p = 0.5") << seeded << u"recovered_p50"_s << 0.5;
    QTest::newRow("p = 0.9") << seeded << u"recovered_p90"_s << 0.9;
    // The embedding plays no part: the PE's part of Y is counted.
    Params large = make(128, 64, {{u"init"_s, u"normal"_s}});
    large.seed = 3;
    QTest::newRow("d 128, p = 0.5, sigma 1") << large << u"recovered_p50"_s << 0.5;
}

void TestLessonNumbers::positionsRecoveredFromY()
{
    // The count of positions q whose PE row nearest to the PE's part of Y_q (largest dot product)
    // is PE_q, from that part written out in float64: M ⊙ PE / (1 − p), the mask bits the model's.
    QFETCH(Params, params);
    QFETCH(QString, key);
    QFETCH(double, p);
    Params at = params;
    at.dropout = p;
    const DropoutMask mask(at);
    const std::int64_t L = at.maxLen, d = at.dModel;
    std::vector<std::vector<double>> pe;
    for (std::int64_t q = 0; q < L; ++q)
        pe.push_back(peRow(q, d, at.sinusoidal.base, at.sinusoidal.layout));
    std::int64_t found = 0;
    for (std::int64_t q = 0; q < L; ++q) {
        std::vector<double> y(static_cast<std::size_t>(d));
        for (std::int64_t j = 0; j < d; ++j)
            y[std::size_t(j)] = mask.kept(q, j) ? pe[std::size_t(q)][std::size_t(j)] / (1.0 - p) : 0.0;
        std::int64_t best = 0;
        double bestScore = -INFINITY;
        for (std::int64_t r = 0; r < L; ++r) {
            double score = 0.0;
            for (std::int64_t j = 0; j < d; ++j)
                score += y[std::size_t(j)] * pe[std::size_t(r)][std::size_t(j)];
            if (score > bestScore) {
                bestScore = score;
                best = r;
            }
        }
        found += best == q ? 1 : 0;
    }
    if (p == 0.0)
        QCOMPARE(found, L); // S(0) = d/2 > S(k) for every other offset in the table
    QCOMPARE(valueOf(key, params), double(found));
}

void TestLessonNumbers::embeddingAndPeAreNearlyOrthogonal_data()
{
    // sum-vs-concat's L 1024 is taken whole (it was the first 256 rows while the lesson said L).
    QTest::addColumn<int>("L");
    QTest::addColumn<int>("rows");
    QTest::newRow("L 300") << 300 << 300;
    QTest::newRow("L 1024, the lesson's") << 1024 << 1024;
    QTest::newRow("L 5000, the first 4096") << 5000 << 4096;
}

// Before: 4096 rows at any d, two blocks of 4096 x d floats on the GUI thread on every change
// (6 GiB each at d 396132, seconds of a frozen window). Now 2^22 cells of each at most.
void TestLessonNumbers::cosineRowsStayWithinAFewMegabytes_data()
{
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("rows");
    QTest::newRow("d 1024: 4096") << 1024 << 4096;
    QTest::newRow("d 2048: 2048") << 2048 << 2048;
    QTest::newRow("d 396132: 10") << 396132 << 10;
    QTest::newRow("d 2^20: 4") << (1 << 20) << 4;
}

void TestLessonNumbers::cosineRowsStayWithinAFewMegabytes()
{
    QFETCH(int, d);
    QFETCH(int, rows);
    QCOMPARE(valueOf(u"cos_e_pe_rows"_s, make(d, 8192, {})), double(rows));
}

void TestLessonNumbers::embeddingAndPeAreNearlyOrthogonal()
{
    // The mean |cos(s·E_q, PE_q)| over its rows, from the engine's E in float64, and near
    // sqrt(2/(pi d)), the mean for random directions (its spread over 300 rows is ~0.0016).
    QFETCH(int, L);
    QFETCH(int, rows);
    const Params params = make(512, L, {{u"init"_s, u"scaled-normal"_s}});
    QCOMPARE(valueOf(u"cos_e_pe_rows"_s, params), double(rows));
    const Engine engine(params);
    RowMatrixXf e(rows, 512);
    engine.computeBlock(Quantity::Embedding, {0, rows, 0, 512}, e);
    double total = 0.0;
    for (std::int64_t q = 0; q < rows; ++q) {
        const std::vector<double> pe = peRow(q, 512, params.sinusoidal.base, params.sinusoidal.layout);
        double dot = 0.0, ee = 0.0, pp = 0.0;
        for (std::int64_t j = 0; j < 512; ++j) {
            dot += double(e(q, j)) * pe[std::size_t(j)];
            ee += double(e(q, j)) * double(e(q, j));
            pp += pe[std::size_t(j)] * pe[std::size_t(j)];
        }
        total += std::abs(dot) / std::sqrt(ee * pp);
    }
    QVERIFY(close(valueOf(u"cos_e_pe"_s, params), total / rows, 1e-5));
    const double random = std::sqrt(2.0 / (std::numbers::pi * 512.0));
    QVERIFY(close(valueOf(u"cos_random"_s, params), random, 1e-15));
    QVERIFY2(std::abs(total / rows - random) < 0.01, qPrintable(QString::number(total / rows)));
}

POSENC_TEST_GUILESS_MAIN(TestLessonNumbers)
} // namespace tst_lessonnumbers
#include "tst_lessonnumbers.moc"
