// The rope-frequencies figure: each pair's wavelength after and before scaling against float64
// formulas written here, llama3's bands and yarn's ramp as they are shaded (Llama 3.1's 29/6/29
// pairs, gpt-oss's unrounded edges 8.093 and 17.398), the critical dimension (92 for Llama 2)
// and the attention factor in the title.
#include "render/FigureExporter.h"
#include "render/figures/rope/RopeFrequenciesFigure.h"
#include "support/TestMain.h"

#include "RopeSlides.h"
#include "support/FigureBuilds.h"
#include "support/RopeReference.h"

#include <QTest>

#include <cmath>

namespace tst_ropefrequenciesfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

bool close(double a, double b, double relative = 1e-12)
{
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

Params withType(Params p, RopeType type)
{
    p.rope.type = type;
    return p;
}

Params gemma4Like()
{
    // Proportional RoPE: 0.25 of a head of 512, theta 10^6, factor 8.
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = 1024;
    p.maxLen = 4096;
    p.rope.headDim = 512;
    p.rope.theta = 1e6;
    p.rope.partialRotaryFactor = 0.25;
    p.rope.type = RopeType::Proportional;
    p.rope.factor = 8.0;
    return p;
}

QString titleOf(const QCustomPlot &plot)
{
    const QStringList texts = FigureBuilds::texts(plot);
    return texts.isEmpty() ? QString() : texts.front();
}

} // namespace

class TestRopeFrequenciesFigure : public QObject
{
    Q_OBJECT

private slots:
    void wavelengthsAreTheFormulas_data();
    void wavelengthsAreTheFormulas();
    void llama31HasItsBands();
    void gptOssRampsBetweenItsUnroundedEdges();
    void truncatedRampIsRounded();
    void criticalDimensionOfLlama2();
    void proportionalBesidePartialRotary();
    void titleCarriesTheAttentionFactor();
    void figureIsRegisteredAndExports();
    void llamaAndGptOssFitASlide();
};

void TestRopeFrequenciesFigure::wavelengthsAreTheFormulas_data()
{
    QTest::addColumn<Params>("p");
    QTest::newRow("Llama 3.1, llama3") << roperef::llama31();
    QTest::newRow("gpt-oss, yarn untruncated") << roperef::gptOss();
    QTest::newRow("linear") << withType(roperef::llama31(), RopeType::Linear);
    QTest::newRow("dynamic") << withType(roperef::llama31(), RopeType::Dynamic);
    QTest::newRow("default") << withType(roperef::llama31(), RopeType::Default);
    QTest::newRow("proportional") << gemma4Like();
    Params partial = roperef::llama31();
    partial.rope.partialRotaryFactor = 0.5;
    QTest::newRow("llama3, partial rotary 0.5") << partial;
}

void TestRopeFrequenciesFigure::wavelengthsAreTheFormulas()
{
    QFETCH(Params, p);
    QVERIFY(p.validate().isEmpty());
    const RopeFrequenciesData d = RopeFrequenciesModel::compute(p);
    const std::vector<double> inv = roperef::inv(p);
    const std::int64_t r = roperef::rotaryDim(p);
    const std::vector<double> before = p.rope.type == RopeType::Proportional ? roperef::inv(withType(
                                           [&] {
                                               Params unscaled = p;
                                               unscaled.rope.factor.reset();
                                               return unscaled;
                                           }(),
                                           RopeType::Proportional))
                                                                             : roperef::defaultInv(p.rope.theta, r);
    QCOMPARE(d.pairs, r / 2);
    // Every pair with a frequency, in order; proportional's still tail has none.
    qsizetype drawn = 0;
    for (std::size_t i = 0; i < inv.size(); ++i) {
        if (inv[i] == 0.0)
            continue;
        QCOMPARE(d.pair[drawn], double(i));
        QVERIFY2(close(d.wavelength[drawn], roperef::kTwoPi / inv[i]),
                 qPrintable(u"pair %1: %2 vs %3"_s.arg(i).arg(d.wavelength[drawn]).arg(roperef::kTwoPi / inv[i])));
        QVERIFY(close(d.wavelengthBefore[drawn], roperef::kTwoPi / before[i]));
        ++drawn;
    }
    QCOMPARE(d.pair.size(), drawn);
    QCOMPARE(d.attentionFactor, roperef::attentionFactor(p));
    QCOMPARE(d.extended, p.maxLen);
    QCOMPARE(d.original, p.rope.originalMaxLen.value_or(p.maxLen));
}

void TestRopeFrequenciesFigure::llama31HasItsBands()
{
    const Params p = roperef::llama31();
    const RopeFrequenciesData d = RopeFrequenciesModel::compute(p);
    QCOMPARE(d.bands.size(), 64);
    // The bands by each pair's unscaled wavelength against L0 / high = 2,048 and L0 / low = 8,192.
    int counts[3] = {0, 0, 0};
    for (qsizetype i = 0; i < d.bands.size(); ++i) {
        const double wavelength = roperef::kTwoPi * std::pow(500000.0, double(2 * i) / 128.0);
        const RopeBand expected = wavelength < 2048.0 ? RopeBand::Kept
            : wavelength > 8192.0                     ? RopeBand::Divided
                                                      : RopeBand::Blended;
        QCOMPARE(d.bands[i], expected);
        ++counts[int(expected)];
    }
    QCOMPARE(counts[0], 29);
    QCOMPARE(counts[1], 6);
    QCOMPARE(counts[2], 29);
    // Each band one run, shaded as one: kept 0-28, blended 29-34, divided 35-63.
    QCOMPARE(d.run(RopeBand::Kept), std::optional(std::pair<std::int64_t, std::int64_t> {0, 28}));
    QCOMPARE(d.run(RopeBand::Blended), std::optional(std::pair<std::int64_t, std::int64_t> {29, 34}));
    QCOMPARE(d.run(RopeBand::Divided), std::optional(std::pair<std::int64_t, std::int64_t> {35, 63}));
}

void TestRopeFrequenciesFigure::gptOssRampsBetweenItsUnroundedEdges()
{
    const Params p = roperef::gptOss();
    const RopeFrequenciesData d = RopeFrequenciesModel::compute(p);
    const double low = roperef::yarnCorrection(32.0, 64, 150000.0, 4096.0);
    const double high = roperef::yarnCorrection(1.0, 64, 150000.0, 4096.0);
    QVERIFY2(std::abs(low - 8.093) < 5e-4 && std::abs(high - 17.398) < 5e-4, qPrintable(u"%1 %2"_s.arg(low).arg(high)));
    QVERIFY(d.rampLow && d.rampHigh && d.rampLowUsed && d.rampHighUsed);
    QVERIFY(close(*d.rampLow, low));
    QVERIFY(close(*d.rampHigh, high));
    // truncate false: used as they are.
    QVERIFY(close(*d.rampLowUsed, low));
    QVERIFY(close(*d.rampHighUsed, high));
    // Pairs up to 8 kept, 9-17 on the ramp, from 18 divided by 32.
    QCOMPARE(d.run(RopeBand::Kept), std::optional(std::pair<std::int64_t, std::int64_t> {0, 8}));
    QCOMPARE(d.run(RopeBand::Blended), std::optional(std::pair<std::int64_t, std::int64_t> {9, 17}));
    QCOMPARE(d.run(RopeBand::Divided), std::optional(std::pair<std::int64_t, std::int64_t> {18, 31}));
    QVERIFY(close(d.attentionFactor, 0.1 * std::log(32.0) + 1.0));
}

void TestRopeFrequenciesFigure::truncatedRampIsRounded()
{
    Params p = roperef::gptOss();
    p.rope.yarnTruncate = true;
    const RopeFrequenciesData d = RopeFrequenciesModel::compute(p);
    QCOMPARE(*d.rampLowUsed, 8.0);
    QCOMPARE(*d.rampHighUsed, 18.0);
    QCOMPARE(d.run(RopeBand::Blended), std::optional(std::pair<std::int64_t, std::int64_t> {9, 17}));
    QCOMPARE(d.run(RopeBand::Divided), std::optional(std::pair<std::int64_t, std::int64_t> {18, 31}));
}

void TestRopeFrequenciesFigure::criticalDimensionOfLlama2()
{
    // Llama 2: theta 10000, rotary 128, trained on 4,096 positions: 2 ceil(64 log_10000(4096 / 2 pi)).
    Params p;
    p.encoding = Encoding::Rope;
    p.maxLen = 4096;
    const RopeFrequenciesData d = RopeFrequenciesModel::compute(p);
    const double expected = 2.0 * std::ceil(64.0 * std::log(4096.0 / roperef::kTwoPi) / std::log(10000.0));
    QCOMPARE(double(d.criticalDimension), expected);
    QCOMPARE(d.criticalDimension, 92);
    // Pair 46 is the first whose wavelength exceeds 4,096: the mark sits before it.
    QVERIFY(d.wavelength[45] < 4096.0 && d.wavelength[46] > 4096.0);
}

void TestRopeFrequenciesFigure::proportionalBesidePartialRotary()
{
    // Gemma 4's proportional RoPE turns 64 pairs over the full head_dim's exponent; partial
    // rotary with the same F would turn 64 pairs of a 128-column rotary dim, far faster.
    const Params p = gemma4Like();
    const RopeFrequenciesData d = RopeFrequenciesModel::compute(p);
    QCOMPARE(d.pairs, 256);
    QCOMPARE(d.pair.size(), 64);
    QCOMPARE(d.partialPair.size(), 64);
    for (qsizetype j = 0; j < 64; ++j) {
        const double partial = roperef::kTwoPi * std::pow(1e6, 2.0 * double(j) / 128.0) * 8.0;
        QVERIFY(close(d.partialWavelength[j], partial));
    }
    // Pair j's wavelength against the partial build's: theta^(-2j (1/128 - 1/512)), 1 at j = 0 and
    // falling with j: the partial build turns every pair past 0 too slowly.
    QVERIFY(close(d.wavelength[63] / d.partialWavelength[63], std::pow(1e6, -2.0 * 63.0 * (1.0 / 128 - 1.0 / 512))));
}

void TestRopeFrequenciesFigure::titleCarriesTheAttentionFactor()
{
    const auto built
        = FigureBuilds::build(u"rope-frequencies"_s, roperef::gptOss(), FigureSize::fromPixels(QSize(1400, 700)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString title = titleOf(*built->plot()).replace(u'\n', u' ');
    QVERIFY2(title.contains(u"attention factor 1.347"_s), qPrintable(title));
    QVERIFY2(title.contains(u"yarn, factor 32, original 4,096"_s), qPrintable(title));
    QVERIFY2(title.contains(u"θ = 150,000, rotary dim 64"_s), qPrintable(title));
    const auto llama
        = FigureBuilds::build(u"rope-frequencies"_s, roperef::llama31(), FigureSize::fromPixels(QSize(1400, 700)));
    QVERIFY2(titleOf(*llama->plot()).replace(u'\n', u' ').contains(u"attention factor 1"_s), "llama3's factor");
}

void TestRopeFrequenciesFigure::figureIsRegisteredAndExports()
{
    const FigureDescriptor &figure = FigureBuilds::figure(u"rope-frequencies"_s);
    QCOMPARE(figure.model().inputs({}), QList<Quantity> {Quantity::RopeFrequencies});
    QCOMPARE(figure.model().families(), QList<Encoding> {Encoding::Rope});
    // Another family is refused, naming rope.
    const QList<ParamError> refused = figure.model().check(Params(), {});
    QCOMPARE(refused.size(), 1);
    QCOMPARE(refused.front().key, u"encoding"_s);
    QVERIFY(refused.front().allowed.contains(u"rope"_s));
    const FigureSize size = FigureSize::fromPixels(QSize(800, 500));
    const auto built = FigureBuilds::build(u"rope-frequencies"_s, roperef::llama31(), size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(800, 500));
}

void TestRopeFrequenciesFigure::llamaAndGptOssFitASlide()
{
    RopeSlides::check(u"rope-frequencies"_s);
}

POSENC_TEST_MAIN(TestRopeFrequenciesFigure)
} // namespace tst_ropefrequenciesfigure
#include "tst_ropefrequenciesfigure.moc"
