// The numbers the lessons quote, against closed forms and float64 sums written here from
// docs/ARCHITECTURE.md, The mathematics: never against the unit's own formulas; the one count
// of a seed's mask against the mask's bits one cell at a time.
#include "core/DropoutMask.h"
#include "core/Engine.h"
#include "core/LessonNumbers.h"
#include "core/NumberText.h"
#include "core/ParamText.h"

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

using namespace Qt::StringLiterals;
using namespace posenc;

Q_DECLARE_METATYPE(posenc::Params)

namespace {

double valueOf(const QString &key, const Params &params)
{
    const auto number = LessonNumbers::number(key, params);
    if (!number || !number->value)
        return std::nan("");
    return *number->value;
}

Params make(std::int64_t d, std::int64_t L, const QList<std::pair<QString, QString>> &settings = {})
{
    Params p;
    p.dModel = d;
    p.maxLen = L;
    for (const auto &[key, text] : settings)
        ParamText::set(p, key, text);
    return p;
}

// The PE table of `columns` columns as the mathematics defines it, one row.
std::vector<double> peRow(std::int64_t position, std::int64_t columns, double base, Layout layout)
{
    std::vector<double> row(static_cast<std::size_t>(columns));
    for (std::int64_t j = 0; j < columns; ++j)
        row[static_cast<std::size_t>(j)] = reference::exactValue(position, j, columns, base, layout);
    return row;
}

bool close(double a, double b, double relative, double absolute = 0.0)
{
    return std::abs(a - b) <= std::max(absolute, relative * std::max(std::abs(a), std::abs(b)));
}

} // namespace

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
    void relativeNumbersSayWhyWhereTheSettingsCannot();
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
    QTest::newRow("1234.4") << 1234.4 << u"1234"_s;
    QTest::newRow("0.00123") << 0.0012345 << u"0.00123"_s;
    QTest::newRow("negative") << -0.5 << u"−0.5"_s;
    QTest::newRow("tiny") << 3.8e-24 << u"3.8·10⁻²⁴"_s;
    QTest::newRow("power of ten") << 1e-5 << u"10⁻⁵"_s;
    QTest::newRow("rounds up to a power") << 9.9996e7 << u"10⁸"_s;
    QTest::newRow("huge") << 1.759e13 << u"1.76·10¹³"_s;
}

void TestLessonNumbers::formatting()
{
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(NumberText::prose(value), text);
}

void TestLessonNumbers::fillReplacesKeysAndKeepsOtherBraces()
{
    const LessonModel model {make(512, 64, {{u"dropout"_s, u"0.1"_s}}), u"a model"_s, {}, {}, {}};
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
    const LessonModel unnamed {model.params, {}, {}, {}, {}};
    QCOMPARE(LessonNumbers::fill(u"{Model}: {model}"_s, unnamed, true).text, u"This model: this model"_s);
    // A name ending in s takes the possessive as an apostrophe alone; other words after 's stay.
    const LessonModel plural {model.params, u"PyTorch nn.Embedding defaults"_s, {}, {}, {}};
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

void TestLessonNumbers::ropeScalingNumbers()
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

void TestLessonNumbers::ropeScoresDependOnTheDistanceOnly_data()
{
    QTest::addColumn<Params>("params");
    Params small = make(64, 512, {{u"encoding"_s, u"rope"_s}, {u"head-dim"_s, u"64"_s}});
    QTest::newRow("default, half") << small;
    ParamText::set(small, u"rope-layout"_s, u"interleaved"_s);
    QTest::newRow("default, interleaved") << small;
    QTest::newRow("gpt-oss, yarn") << roperef::gptOss();
}

void TestLessonNumbers::ropeScoresDependOnTheDistanceOnly()
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

void TestLessonNumbers::ropeLayoutsTradePlaces()
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

void TestLessonNumbers::ropeDecayNumbers()
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

void TestLessonNumbers::ropeNumbersNeedRope()
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

void TestLessonNumbers::alibiSlopeNumbers_data()
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

void TestLessonNumbers::alibiSlopeNumbers()
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

void TestLessonNumbers::alibiSpansAreTheSoftmaxOfTheBias_data()
{
    QTest::addColumn<QString>("mask");
    QTest::addColumn<qint64>("maxLen");
    QTest::newRow("causal, 1024: the table's edge shortens head 8's span") << u"causal"_s << qint64(1024);
    QTest::newRow("causal, 4096, as the lesson") << u"causal"_s << qint64(4096);
    QTest::newRow("symmetric, 1024") << u"symmetric"_s << qint64(1024);
    QTest::newRow("causal, 100: the span reaches the table's edge") << u"causal"_s << qint64(100);
}

void TestLessonNumbers::alibiSpansAreTheSoftmaxOfTheBias()
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

void TestLessonNumbers::t5Numbers_data()
{
    QTest::addColumn<bool>("causal");
    QTest::addColumn<qint64>("buckets");
    QTest::newRow("T5-base, bidirectional") << false << qint64(32);
    QTest::newRow("T5-base's decoder, causal") << true << qint64(32);
    QTest::newRow("64 buckets") << false << qint64(64);
}

void TestLessonNumbers::t5Numbers()
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

void TestLessonNumbers::debertaNumbers()
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

void TestLessonNumbers::familiesNumbers_data()
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

void TestLessonNumbers::familiesNumbers()
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

void TestLessonNumbers::relativeNumbersSayWhyWhereTheSettingsCannot()
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

QTEST_GUILESS_MAIN(TestLessonNumbers)
#include "tst_lessonnumbers.moc"
