// The rope-scalings figure: every rope_type for one model, each curve against the float64 formula
// of its type written here with the model's factor and original context, the types the model
// lacks the parameters of said in the figure, longrope only with its factor lists.
#include "core/rope/RopeTypes.h"
#include "render/FigureExporter.h"
#include "render/figures/rope/RopeScalingsFigure.h"
#include "support/TestMain.h"

#include "RopeSlides.h"
#include "support/FigureBuilds.h"
#include "support/RopeReference.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>

namespace tst_ropescalingsfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

bool close(double a, double b, double relative = 1e-12)
{
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

QList<RopeType> typesOf(const RopeScalingsData &d)
{
    QList<RopeType> types;
    for (const RopeScalingCurve &curve : d.curves)
        types.append(curve.type);
    return types;
}

// Each curve against its formula at the data's factor, original and stretched context.
void checkCurves(const Params &model, const RopeScalingsData &d)
{
    for (const RopeScalingCurve &curve : d.curves) {
        Params p = model;
        p.maxLen = d.extended;
        if (curve.type != model.rope.type) {
            p.rope.type = curve.type;
            p.rope.factor = d.factor;
            p.rope.originalMaxLen = d.original;
        }
        const std::vector<double> inv = roperef::inv(p);
        qsizetype drawn = 0;
        for (std::size_t i = 0; i < inv.size(); ++i) {
            if (inv[i] == 0.0)
                continue;
            QVERIFY2(close(curve.wavelength[drawn], roperef::kTwoPi / inv[i]),
                     qPrintable(u"type %1 pair %2: %3 vs %4"_s.arg(int(curve.type))
                                    .arg(i)
                                    .arg(curve.wavelength[drawn])
                                    .arg(roperef::kTwoPi / inv[i])));
            ++drawn;
        }
        QCOMPARE(curve.wavelength.size(), drawn);
        QVERIFY(close(curve.attentionFactor, roperef::attentionFactor(p)));
        QCOMPARE(curve.chosen, curve.type == model.rope.type);
    }
}

} // namespace

class TestRopeScalingsFigure : public QObject
{
    Q_OBJECT

private slots:
    void llama31UnderEveryType();
    void aModelWithoutScalingAssumesAFactor();
    void longropeWithItsLists();
    void figureIsRegisteredAndExports();
    void llamaAndGptOssFitASlide();
    void theAxisRunsOverThePairsThatTurn();
    void eachLegendEntrySaysWhatItsCurveDoesToTheWavelengths();
    void noEntryNamesAnUndefinedSymbol_data();
    void noEntryNamesAnUndefinedSymbol();
};

void TestRopeScalingsFigure::llama31UnderEveryType()
{
    const Params p = roperef::llama31();
    const RopeScalingsData d = RopeScalingsModel::compute(p);
    QCOMPARE(typesOf(d),
             (QList<RopeType> {RopeType::Default, RopeType::Linear, RopeType::Dynamic, RopeType::Yarn, RopeType::Llama3,
                               RopeType::Proportional}));
    QCOMPARE(d.factor, 8.0);
    QVERIFY(!d.factorAssumed && !d.originalAssumed);
    QCOMPARE(d.original, 8192);
    QCOMPARE(d.extended, 131072);
    QVERIFY(d.left.contains(u"longrope (no factor lists)"_s));
    checkCurves(p, d);
    // yarn stretched by 8 keeps its 0.1 ln 8 + 1.
    QVERIFY(close(d.curves[3].attentionFactor, 0.1 * std::log(8.0) + 1.0));
    // proportional at F = 1 is linear: every pair divided by the factor.
    for (qsizetype i = 0; i < d.curves[5].wavelength.size(); ++i)
        QVERIFY(close(d.curves[5].wavelength[i], d.curves[1].wavelength[i]));
}

void TestRopeScalingsFigure::aModelWithoutScalingAssumesAFactor()
{
    // Llama 2 gives neither a factor nor an original length: the figure stretches its 4,096
    // positions by 4 and says so.
    Params p;
    p.encoding = Encoding::Rope;
    p.maxLen = 4096;
    const RopeScalingsData d = RopeScalingsModel::compute(p);
    QVERIFY(d.factorAssumed && d.originalAssumed);
    QCOMPARE(d.factor, RopeScalingsModel::kAssumedFactor);
    QCOMPARE(d.original, 4096);
    QCOMPARE(d.extended, 16384);
    checkCurves(p, d);
    const auto built = FigureBuilds::build(u"rope-scalings"_s, p, FigureSize::fromPixels(QSize(1400, 800)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"assumed: factor 4, original context = max-len"_s), qPrintable(texts));
    // A given original context shorter than max_len: the factor is how far max_len stretches it.
    Params stretched = p;
    stretched.maxLen = 131072;
    stretched.rope.originalMaxLen = 4096;
    const RopeScalingsData s = RopeScalingsModel::compute(stretched);
    QVERIFY(s.factorAssumed && !s.originalAssumed);
    QCOMPARE(s.factor, 32.0);
    QCOMPARE(s.extended, 131072);
}

void TestRopeScalingsFigure::longropeWithItsLists()
{
    // Phi-3-like: 48 pairs, short factors 1, long factors rising; max_len past the original
    // takes the long ones.
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = 3072;
    p.maxLen = 131072;
    p.rope.headDim = 96;
    p.rope.type = RopeType::LongRope;
    p.rope.originalMaxLen = 4096;
    p.rope.factor = 32.0;
    for (int i = 0; i < 48; ++i) {
        p.rope.shortFactor.push_back(1.0 + 0.01 * i);
        p.rope.longFactor.push_back(1.0 + 1.5 * i);
    }
    QVERIFY(p.validate().isEmpty());
    const RopeScalingsData d = RopeScalingsModel::compute(p);
    QVERIFY(typesOf(d).contains(RopeType::LongRope));
    QVERIFY(d.left.isEmpty());
    QVERIFY(!d.factorAssumed);
    QCOMPARE(d.factor, 32.0);
    checkCurves(p, d);
    // Its attention factor: sqrt(1 + ln 32 / ln 4096).
    QVERIFY(close(d.curves[4].attentionFactor, std::sqrt(1.0 + std::log(32.0) / std::log(4096.0))));
}

void TestRopeScalingsFigure::figureIsRegisteredAndExports()
{
    const FigureDescriptor &figure = FigureBuilds::figure(u"rope-scalings"_s);
    QCOMPARE(figure.model().families(), QList<Encoding> {Encoding::Rope});
    const FigureSize size = FigureSize::fromPixels(QSize(800, 500));
    const auto built = FigureBuilds::build(u"rope-scalings"_s, roperef::gptOss(), size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(800, 500));
}

void TestRopeScalingsFigure::llamaAndGptOssFitASlide()
{
    RopeSlides::check(u"rope-scalings"_s);
}

// GPT-NeoX-20B turns int(96 · 0.25) = 24 of its head's 96 columns, 12 pairs (GPTNeoXRotaryEmbedding's
// dim = int(head_size * rotary_pct)); proportional, drawn for comparison, keeps head_dim / 2 = 48
// pairs of which int(0.25 · 96 // 2) = 12 turn. The axis ran to pair 48, three quarters of it empty:
// it runs over the pairs a curve draws, 0 .. 11.
void TestRopeScalingsFigure::theAxisRunsOverThePairsThatTurn()
{
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = 6144;
    p.maxLen = 2048;
    p.rope.headDim = 96;
    p.rope.partialRotaryFactor = 0.25;
    const auto built = FigureBuilds::build(u"rope-scalings"_s, p, FigureSize::fromPixels(QSize(800, 500)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const auto data = RopeScalingsModel::compute(p);
    std::int64_t turning = 0;
    for (const RopeScalingCurve &curve : data.curves) {
        turning = std::max(turning, std::int64_t(curve.pair.size()));
        QVERIFY(curve.pair.isEmpty() || curve.pair.back() <= 11.0);
        if (curve.type == RopeType::Proportional)
            QCOMPARE(curve.pairs, std::int64_t(48));
    }
    QCOMPARE(turning, std::int64_t(12));
    int rects = 0;
    for (QCPAxisRect *rect : built->plot()->axisRects()) {
        if (rect->graphs().isEmpty())
            continue;
        ++rects;
        const QCPRange x = rect->axis(QCPAxis::atBottom)->range();
        QCOMPARE(x.lower, -0.5);
        QCOMPARE(x.upper, 11.5);
    }
    QCOMPARE(rects, 1);
}

// The legend said "linear: all ÷ 8" on an axis of wavelengths λᵢ = 2π/θᵢ, where linear's curve
// is every unscaled λᵢ times 8 (transformers' _compute_linear_scaling_rope_parameters divides
// inv_freq by the factor). Each entry says what its curve does to λᵢ, checked here against the
// unscaled curve in float64: linear × f on every pair, yarn's and llama3's slowest pair × f and
// their fastest kept; no entry says ÷.
void TestRopeScalingsFigure::eachLegendEntrySaysWhatItsCurveDoesToTheWavelengths()
{
    const Params p = roperef::llama31();
    const RopeScalingsData d = RopeScalingsModel::compute(p);
    const auto built = FigureBuilds::build(u"rope-scalings"_s, p, FigureSize::fromPixels(QSize(1200, 700)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QStringList names;
    for (int n = 0; n < built->plot()->graphCount(); ++n)
        names.append(built->plot()->graph(n)->name());
    Params unscaled = p;
    unscaled.rope.type = RopeType::Default;
    const std::vector<double> base = roperef::inv(unscaled);
    const auto curveOf = [&](RopeType type) -> const RopeScalingCurve * {
        for (const RopeScalingCurve &curve : d.curves)
            if (curve.type == type)
                return &curve;
        return nullptr;
    };
    const auto nameOf = [&](const QString &type) {
        for (const QString &name : names)
            if (name.startsWith(type + u":"_s) || name.startsWith(type + u" (chosen):"_s))
                return name;
        return QString();
    };
    const QString f = u"× 8"_s;
    // linear: every λᵢ × 8, said "λᵢ × 8".
    const RopeScalingCurve *linear = curveOf(RopeType::Linear);
    QVERIFY(linear);
    for (qsizetype i = 0; i < linear->wavelength.size(); ++i)
        QVERIFY(close(linear->wavelength[i], 8.0 * roperef::kTwoPi / base[std::size_t(i)]));
    QVERIFY2(nameOf(u"linear"_s).contains(u": λᵢ "_s + f), qPrintable(names.join(u" | "_s)));
    // yarn and llama3: the fastest pair kept, the slowest × 8.
    for (const RopeType type : {RopeType::Yarn, RopeType::Llama3}) {
        const RopeScalingCurve *curve = curveOf(type);
        QVERIFY(curve);
        const qsizetype last = curve->wavelength.size() - 1;
        QVERIFY(close(curve->wavelength[0], roperef::kTwoPi / base[0]));
        QVERIFY(close(curve->wavelength[last], 8.0 * roperef::kTwoPi / base[std::size_t(last)], 1e-9));
        QVERIFY2(nameOf(RopeTypes::word(type)).contains(u"slow λᵢ "_s + f), qPrintable(names.join(u" | "_s)));
    }
    for (const QString &name : std::as_const(names))
        QVERIFY2(!name.contains(u'÷'), qPrintable(name));
}

void TestRopeScalingsFigure::noEntryNamesAnUndefinedSymbol_data()
{
    QTest::addColumn<double>("partial");
    QTest::addColumn<QString>("proportional"); // what its entry says after "proportional: "
    // Llama 3.1 turns every pair: proportional's curve is linear's.
    QTest::newRow("every pair") << 1.0 << u"= linear"_s;
    // A quarter of head_dim's 64 pairs, int(0.25 · 128 // 2) = 16, as Gemma 4's full-attention layers.
    QTest::newRow("a quarter") << 0.25 << u"16 of 64 pairs turn"_s;
}

// The key said "proportional: = linear at F = 1" (and "F·head_dim/2 pairs") where nothing on the
// page defines F: it says what the curve does in words, and no entry names a symbol the title and
// axes do not (the title's f, the axes' λᵢ, θᵢ, i, L₀ and L).
void TestRopeScalingsFigure::noEntryNamesAnUndefinedSymbol()
{
    QFETCH(double, partial);
    QFETCH(QString, proportional);
    Params p = roperef::llama31();
    p.rope.partialRotaryFactor = partial;
    FigureStyle style;
    style.fontPointSize = 14;
    const auto built
        = FigureBuilds::build(u"rope-scalings"_s, p, FigureSize::fromInches(QSizeF(10.0, 5.626), 300), {}, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QStringList names;
    for (int n = 0; n < built->plot()->graphCount(); ++n)
        if (!built->plot()->graph(n)->name().isEmpty())
            names.append(built->plot()->graph(n)->name());
    const QString key = names.join(u" | "_s);
    QVERIFY2(key.contains(u"proportional: "_s + proportional), qPrintable(key));
    static const QRegularExpression symbol(u"(?<![\\w₀])(F)(?![\\w])"_s);
    QVERIFY2(!symbol.match(key).hasMatch(), qPrintable(key));
}

POSENC_TEST_MAIN(TestRopeScalingsFigure)
} // namespace tst_ropescalingsfigure
#include "tst_ropescalingsfigure.moc"
