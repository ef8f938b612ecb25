// The families figure: for one query, each family's term against the key's offset, checked
// against float64 sums written here: the sinusoid's PE[q]·PE[q + k] from its rows, RoPE's aligned
// score from HF's inverse frequencies, ALiBi's bias, T5's and DeBERTa's buckets; each pixel the
// least and the most of its offsets, sampled past the cap.
#include "render/FigureExporter.h"
#include "render/figures/FamiliesFigure.h"

#include "RelativeSlides.h"
#include "support/AlibiReference.h"
#include "support/DebertaReference.h"
#include "support/FigureBuilds.h"
#include "support/RelativeModels.h"
#include "support/RopeReference.h"
#include "support/SandwichReference.h"
#include "support/T5Reference.h"

#include <QTest>

#include <cmath>

using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// PE[p] · PE[q] from the rows themselves: sin and cos of p w_i for each column (interleaved).
double peDot(std::int64_t d, double base, std::int64_t p, std::int64_t q)
{
    double sum = 0.0;
    for (std::int64_t j = 0; j < d; ++j) {
        const double w = std::exp(-double(j - j % 2) * std::log(base) / double(d));
        const double a = double(p) * w, b = double(q) * w;
        sum += j % 2 == 0 ? std::sin(a) * std::sin(b) : std::cos(a) * std::cos(b);
    }
    return sum;
}

// <q, R(k) q> / |q|^2 for q all ones: 2 cos(k theta_i) per pair, 1 per unrotated column.
double ropeAligned(const Params &p, double k)
{
    const std::vector<double> inv = roperef::inv(p);
    double sum = double(p.rope.headDim) - 2.0 * double(inv.size());
    for (const double theta : inv)
        sum += 2.0 * std::cos(k * theta);
    return sum / double(p.rope.headDim);
}

// The value of a staircase at offset k: the step starting at or before it.
double stepAt(const FamilyCurve &steps, std::int64_t k)
{
    const auto it = std::upper_bound(steps.offset.cbegin(), steps.offset.cend(), double(k));
    return steps.lo[it - steps.offset.cbegin() - 1];
}

// The point of `curve` holding offset k: its pixel's least and most.
std::pair<double, double> at(const FamilyCurve &curve, const OffsetPixels &pixels, std::int64_t k)
{
    const auto it = std::upper_bound(pixels.starts.cbegin(), pixels.starts.cend(), k);
    const qsizetype g = it - pixels.starts.cbegin() - 1;
    return {curve.lo[g], curve.hi[g]};
}

Params settings(std::int64_t maxLen)
{
    Params p;
    p.maxLen = maxLen;
    p.dModel = 64;
    p.alibi.heads = 12;
    p.alibi.head = 10;
    p.rope.headDim = 32;
    p.rope.theta = 500000.0;
    p.rope.type = RopeType::Llama3;
    p.rope.factor = 8.0;
    p.rope.originalMaxLen = 128;
    return p;
}

} // namespace

class TestFamiliesFigure : public QObject
{
    Q_OBJECT

private slots:
    void everyOffsetItsOwnPoint_data();
    void everyOffsetItsOwnPoint();
    void crowdedPixelsHoldTheirLeastAndMost();
    void pastTheCapEachPixelIsSampled();
    void appliesToEveryFamilyAndMarksTheChosenOne();
    void llamaBloomAndT5FitASlide();
    void aSlidesPanelsAreAsHighAndDebertasIsTickedBothSides();
    void everyPanelFitsInColumnsTheHeightNeeds_data();
    void everyPanelFitsInColumnsTheHeightNeeds();
};

void TestFamiliesFigure::everyOffsetItsOwnPoint_data()
{
    QTest::addColumn<qint64>("dModel");
    QTest::addColumn<bool>("causal");
    QTest::newRow("d 64, causal ALiBi, bidirectional T5") << qint64(64) << false;
    QTest::newRow("odd d 63: the lone sine, causal T5") << qint64(63) << true;
}

void TestFamiliesFigure::everyOffsetItsOwnPoint()
{
    QFETCH(qint64, dModel);
    QFETCH(bool, causal);
    Params p = settings(300);
    p.dModel = dModel;
    p.t5.causal = causal;
    p.alibi.mask = causal ? AlibiMask::Symmetric : AlibiMask::Causal;
    p.sandwich.mask = causal ? SandwichMask::Causal : SandwichMask::Bidirectional;
    const std::int64_t q = 120;
    const auto d = FamiliesModel::compute(p, q, -q - 0.5, 300 - q - 0.5, 2000, nullptr);
    QVERIFY(d);
    QCOMPARE(d->sampled, 0);
    QCOMPARE(d->panels.size(), FamiliesModel::panelFamilies().size());
    const FamilyCurve &sinusoid = d->panel(Encoding::Sinusoidal)->curve;
    const FamilyCurve &rope = d->panel(Encoding::Rope)->curve;
    const FamilyCurve &t5 = d->panel(Encoding::T5)->curve;
    const FamilyCurve &deberta = d->panel(Encoding::Deberta)->curve;
    const QList<FamilyPanelLine> &alibi = d->panel(Encoding::Alibi)->lines;
    const OffsetPixels pixels = OffsetPixels::of(q, 300, -q - 0.5, 300 - q - 0.5, 2000);
    QCOMPARE(pixels.count(), 300);
    QCOMPARE(qsizetype(pixels.starts.size()), 300);
    QCOMPARE(sinusoid.offset.size(), 300);
    const std::vector<double> slopes = alibiref::slopes(12);
    for (std::int64_t k = -q; k < 300 - q; ++k) {
        const auto [lo, hi] = at(sinusoid, pixels, k);
        QCOMPARE(lo, hi);
        QVERIFY2(std::abs(lo - peDot(dModel, 10000.0, q, q + k)) < 1e-9,
                 qPrintable(u"k %1: %2 vs %3"_s.arg(k).arg(lo).arg(peDot(dModel, 10000.0, q, q + k))));
        const auto score = at(rope, pixels, k);
        QVERIFY2(std::abs(score.first - ropeAligned(p, double(k))) < 1e-12, qPrintable(QString::number(k)));
        // T5: the bucket of k; DeBERTa: of q - j = -k.
        QVERIFY2(buckettie::matches(std::int64_t(stepAt(t5, k)), t5ref::t5(k, p.t5.buckets, p.t5.maxDistance, !causal)),
                 qPrintable(u"k %1: %2"_s.arg(k).arg(stepAt(t5, k))));
        QVERIFY(buckettie::matches(std::int64_t(stepAt(deberta, k)), debertaref::deberta(-k, 256, 512)));
    }
    // Sandwich: head K's bias at each offset, exact; under the causal mask the offsets after q hold
    // the bias of distance 0 (NeMo's tril), two points at their ends.
    const FamilyCurve &sandwich = d->panel(Encoding::Sandwich)->curve;
    QCOMPARE(sandwich.offset.size(), causal ? q + 1 + 2 : 300);
    for (qsizetype n = 0; n < sandwich.offset.size(); ++n) {
        const auto k = std::int64_t(sandwich.offset[n]);
        const double expected = sandwichref::bias(12, 1, 64, q, q + k, !causal);
        QCOMPARE(sandwich.lo[n], sandwich.hi[n]);
        QVERIFY2(std::abs(sandwich.lo[n] - expected) < 1e-9,
                 qPrintable(u"k %1: %2 vs %3"_s.arg(k).arg(sandwich.lo[n]).arg(expected)));
    }
    QCOMPARE(d->panel(Encoding::Sandwich)->maskedAfterQuery, causal);
    // ALiBi: a line per head through the ends of the offsets (and 0), -m|k| or masked after q.
    QCOMPARE(alibi.size(), 12);
    for (qsizetype h = 0; h < 12; ++h) {
        const FamilyCurve &line = alibi[h].curve;
        const double m = slopes[std::size_t(h)];
        // Head K = 10 is drawn wider; the steepest, the gentlest and K are named.
        QCOMPARE(alibi[h].emphasised, h + 1 == 10);
        const bool named = h + 1 == 10 || m == *std::max_element(slopes.begin(), slopes.end())
            || m == *std::min_element(slopes.begin(), slopes.end());
        QCOMPARE(!alibi[h].name.isEmpty(), named);
        for (qsizetype n = 0; n < line.offset.size(); ++n) {
            const auto k = std::int64_t(line.offset[n]);
            QCOMPARE(line.lo[n], alibiref::bias(m, q, q + k, p.alibi.mask == AlibiMask::Causal));
        }
        QCOMPARE(line.offset.front(), double(-q));
        QCOMPARE(line.offset.back(), p.alibi.mask == AlibiMask::Causal ? 0.0 : double(300 - 1 - q));
    }
}

void TestFamiliesFigure::crowdedPixelsHoldTheirLeastAndMost()
{
    // 5,000 offsets on 100 pixels: each point the least and the most of its pixel's PE·PE.
    Params p = settings(5000);
    const std::int64_t q = 2500;
    const double lower = -2500.5, upper = 2499.5;
    const auto d = FamiliesModel::compute(p, q, lower, upper, 100, nullptr);
    QVERIFY(d);
    QCOMPARE(d->sampled, 0);
    const OffsetPixels pixels = OffsetPixels::of(q, 5000, lower, upper, 100);
    QVERIFY(pixels.starts.size() <= 101);
    for (std::size_t g = 0; g < pixels.starts.size(); ++g) {
        double lo = INFINITY, hi = -INFINITY;
        for (std::int64_t k = pixels.starts[g]; k <= pixels.end(g); ++k) {
            const double v = peDot(64, 10000.0, q, q + k);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            // Every offset in the pixel its axis places it in.
            QCOMPARE(int(std::floor((double(k) - lower) / ((upper - lower) / 100.0))),
                     int(std::floor((double(pixels.starts[g]) - lower) / ((upper - lower) / 100.0))));
        }
        const FamilyCurve &sinusoid = d->panel(Encoding::Sinusoidal)->curve;
        QVERIFY2(std::abs(sinusoid.lo[qsizetype(g)] - lo) < 1e-9 && std::abs(sinusoid.hi[qsizetype(g)] - hi) < 1e-9,
                 qPrintable(u"pixel %1"_s.arg(g)));
    }
}

void TestFamiliesFigure::pastTheCapEachPixelIsSampled()
{
    // 2^24 offsets of a d = 4096 table: past the cap each pixel takes a sample, its ends among them.
    Params p = settings(std::int64_t(1) << 24);
    p.dModel = 4096;
    const std::int64_t q = 0;
    const double upper = double(p.maxLen) - 0.5;
    const auto d = FamiliesModel::compute(p, q, -0.5, upper, 200, nullptr);
    QVERIFY(d);
    QVERIFY(d->sampled >= 2);
    const OffsetPixels pixels = OffsetPixels::of(q, p.maxLen, -0.5, upper, 200);
    for (const std::size_t g : {std::size_t(0), pixels.starts.size() / 2, pixels.starts.size() - 1}) {
        for (const std::int64_t k : {pixels.starts[g], pixels.end(g)}) {
            const double v = peDot(4096, 10000.0, q, q + k);
            const FamilyCurve &sinusoid = d->panel(Encoding::Sinusoidal)->curve;
            QVERIFY2(sinusoid.lo[qsizetype(g)] <= v + 1e-7 && sinusoid.hi[qsizetype(g)] >= v - 1e-7,
                     qPrintable(u"pixel %1, k %2"_s.arg(g).arg(k)));
        }
    }
    const FigureSize size = FigureSize::fromPixels(QSize(900, 900));
    const auto built = FigureBuilds::build(u"families"_s, p, size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"sampled a pixel"_s), qPrintable(texts));
}

void TestFamiliesFigure::appliesToEveryFamilyAndMarksTheChosenOne()
{
    const FigureSize size = FigureSize::fromPixels(QSize(900, 800));
    for (const Encoding encoding : {Encoding::Sinusoidal, Encoding::None, Encoding::Rope, Encoding::Alibi, Encoding::T5,
                                    Encoding::Deberta, Encoding::Sandwich}) {
        Params p = settings(1024);
        p.encoding = encoding;
        const auto built = FigureBuilds::build(u"families"_s, p, size);
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
        QVERIFY2(texts.contains(u"bucket index stands for"_s, Qt::CaseInsensitive), qPrintable(texts));
        // DeBERTa's term is named for what it is, not as a bias.
        QVERIFY2(texts.contains(u"c2p"_s) && texts.contains(u"p2c"_s), qPrintable(texts));
        QVERIFY2(texts.contains(u"query q = 511"_s), qPrintable(texts));
    }
    const auto &model = FigureBuilds::figure(u"families"_s).model();
    QCOMPARE(model.families().size(), Families::all().size());
    FigureState state;
    state.options.insert(u"query"_s, u"-1"_s);
    QCOMPARE(model.check(settings(1024), state).size(), 1);
}

void TestFamiliesFigure::llamaBloomAndT5FitASlide()
{
    Params llama = roperef::llama31();
    llama.maxLen = 8192;
    Params bloom = relativemodels::bloom560m();
    bloom.rope = llama.rope;
    Params t5 = relativemodels::t5Base();
    RelativeSlides::check(u"families"_s, {{u"llama-3.1"_s, llama}, {u"bloom-560m"_s, bloom}, {u"t5-base"_s, t5}});
}

// On a 14-pt slide the last panel, whose outer rect holds the offset axis too, was the lowest:
// DeBERTa's label spilled into T5's panel and its ticks thinned to 0 alone. The plots are as high
// as each other, and DeBERTa's buckets, which run both ways, are ticked on both sides.
void TestFamiliesFigure::aSlidesPanelsAreAsHighAndDebertasIsTickedBothSides()
{
    Params p = settings(2048);
    p.dModel = 512;
    p.rope.headDim = 128;
    p.rope.originalMaxLen = 8192;
    p.alibi.heads = 16;
    p.alibi.head = 1;
    const FigureSize slide = FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.29 / 2.54), 150.0);
    FigureStyle style;
    style.fontPointSize = 14.0;
    const auto built = FigureBuilds::build(u"families"_s, p, slide, {}, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QList<QCPAxisRect *> rects = FigureBuild::plotRects(*built->plot());
    const QList<const FamilySpec *> families = FamiliesModel::panelFamilies();
    QCOMPARE(rects.size(), families.size());
    for (const QCPAxisRect *rect : rects)
        QVERIFY2(std::abs(rect->height() - rects.front()->height()) <= 2,
                 qPrintable(u"%1 and %2 high"_s.arg(rect->height()).arg(rects.front()->height())));
    const auto debertaPanel = std::find_if(families.cbegin(), families.cend(),
                                           [](const FamilySpec *f) { return f->encoding == Encoding::Deberta; });
    QVERIFY(debertaPanel != families.cend());
    QCPAxis *deberta = rects[debertaPanel - families.cbegin()]->axis(QCPAxis::atLeft);
    const QCPRange range = deberta->range();
    int below = 0, above = 0;
    for (const double tick : deberta->tickVector()) {
        below += tick < 0.0 && range.contains(tick);
        above += tick > 0.0 && range.contains(tick);
    }
    QVERIFY2(below >= 1 && above >= 1, qPrintable(u"%1 below 0, %2 above"_s.arg(below).arg(above)));
}

void TestFamiliesFigure::everyPanelFitsInColumnsTheHeightNeeds_data()
{
    QTest::addColumn<double>("width");
    QTest::addColumn<double>("height");
    QTest::addColumn<double>("points");
    QTest::addColumn<int>("columns");
    QTest::newRow("view 640x420") << 640.0 << 420.0 << 9.0 << 2;
    QTest::newRow("slide, 14 pt") << 25.4 << 14.29 << 14.0 << 2;
    QTest::newRow("view 900x720") << 900.0 << 720.0 << 9.0 << 1;
    QTest::newRow("view 1200x800") << 1200.0 << 800.0 << 9.0 << 1;
}

// Six panels in one column did not fit a 640 x 420 view (it needed 422 pixels) nor a 14-pt slide:
// a low figure sets them in columns, row by row in the list's order, each plot as high as the
// others and at least a line of its text high, the axis under the last panel of each column.
void TestFamiliesFigure::everyPanelFitsInColumnsTheHeightNeeds()
{
    QFETCH(double, width);
    QFETCH(double, height);
    QFETCH(double, points);
    QFETCH(int, columns);
    const bool slide = points > FigureStyle::kBaseFontPointSize;
    const FigureSize size = slide ? FigureSize::fromInches(QSizeF(width / 2.54, height / 2.54), 150.0)
                                  : FigureSize::fromPixels(QSize(int(width), int(height)));
    FigureStyle style;
    style.fontPointSize = points;
    const auto built = FigureBuilds::build(u"families"_s, settings(1024), size, {}, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QList<QCPAxisRect *> rects = FigureBuild::plotRects(*built->plot());
    const QList<const FamilySpec *> families = FamiliesModel::panelFamilies();
    QCOMPARE(rects.size(), families.size());
    QList<int> lefts;
    for (qsizetype n = 0; n < rects.size(); ++n) {
        QCOMPARE(rects[n]->axis(QCPAxis::atLeft)->label().isEmpty(), false);
        QVERIFY2(std::abs(rects[n]->height() - rects.front()->height()) <= 2,
                 qPrintable(u"%1 and %2 high"_s.arg(rects[n]->height()).arg(rects.front()->height())));
        const double line = QFontMetricsF(rects[n]->axis(QCPAxis::atLeft)->labelFont()).lineSpacing();
        QVERIFY2(rects[n]->height() >= line, qPrintable(u"%1 high, a line %2"_s.arg(rects[n]->height()).arg(line)));
        if (!lefts.contains(rects[n]->left()))
            lefts.append(rects[n]->left());
        // Row by row: a panel is right of the one before it, or starts a row below it.
        if (n > 0)
            QVERIFY(rects[n]->left() > rects[n - 1]->left() || rects[n]->top() > rects[n - 1]->top());
        const bool last = n + columns >= rects.size();
        QCOMPARE(rects[n]->axis(QCPAxis::atBottom)->tickLabels(), last);
    }
    QCOMPARE(lefts.size(), columns);
}

QTEST_MAIN(TestFamiliesFigure)
#include "tst_familiesfigure.moc"
