// The families figure: for one query, each family's term against the key's offset, checked
// against float64 sums its test record writes (tests/families/<family>/: the sinusoid's PE[q]·PE[q
// + k] from its rows, RoPE's aligned score from HF's inverse frequencies, ALiBi's bias, T5's and
// DeBERTa's buckets, Sandwich's bias); each pixel the least and the most of its offsets, sampled
// past the cap.
#include "render/FigureExporter.h"
#include "render/FigureRoom.h"
#include "render/data/FamilyPanel.h"
#include "render/data/HeadBiasPanel.h"
#include "render/figures/FamiliesFigure.h"
#include "render/figures/FamiliesRoom.h"
#include "support/TestMain.h"

#include "FamiliesFigureSums.h"
#include "RelativeSlides.h"
#include "support/FigureBuilds.h"
#include "support/RelativeModels.h"
#include "support/RopeReference.h"
#include "support/TestFamily.h"

#include <QMap>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tst_familiesfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

using namespace FamiliesFigureTest;

// The panels a 14-pt 16:9 slide holds (FamiliesRoom::held): two rows of four, all eight (it held
// two rows of three, and left two families out).
constexpr qsizetype kOnASlide = 8;

// The panels' left axis labels of a built figure, in layout order.
QStringList panelLabels(const QCustomPlot &plot)
{
    QStringList labels;
    for (const QCPAxisRect *rect : FigureBuild::plotRects(plot))
        labels.append(FigureRoom::shownLabel(rect->axis(QCPAxis::atLeft)));
    return labels;
}

class TestFamiliesFigure : public QObject
{
    Q_OBJECT

private slots:
    void everyOffsetItsOwnPoint_data();
    void everyOffsetItsOwnPoint();
    void theRotaryPanelDrawsAHeadWiderThanTheModel();
    void crowdedPixelsHoldTheirLeastAndMost();
    void pastTheCapEachPixelIsSampled();
    void theDrawnBandReachesPeDotPeAtTheQuery_data();
    void theDrawnBandReachesPeDotPeAtTheQuery();
    void appliesToEveryFamilyAndMarksTheChosenOne();
    void llamaBloomAndT5FitASlide();
    void aSlidesPanelsAreAsHighAndDebertasIsTickedBothSides();
    void everyPanelFitsInColumnsTheHeightNeeds_data();
    void everyPanelFitsInColumnsTheHeightNeeds();
    void aCrowdedPageKeepsTheChosenTheNamedThenOneOfEachKind();
    void aNamedPanelIsDrawnAndTheTitleSaysHowManyOfHowMany();
    void aPageThatHoldsEveryPanelDrawsThemAll();
    void headBiasPanelsWordTheirHeadAndTheMaskedKeys();
    void everyPanelWordsTheOffsetUnderTheMouse();
    void aCausalModelsPanelsEachMaskTheKeysAfterTheQuery();
    void aSlidingWindowMasksTheKeysItLeavesBehind();
};

void TestFamiliesFigure::everyOffsetItsOwnPoint_data()
{
    QTest::addColumn<qint64>("dModel");
    QTest::addColumn<bool>("flipped");
    QTest::newRow("d 64, a causal model") << qint64(64) << false;
    QTest::newRow("odd d 63: the lone sine, a model that attends both ways") << qint64(63) << true;
}

// Each panel against its family's float64 sums (its record's `panel`), for one query, every offset
// its own pixel, at the panels' parameters (FamiliesModel::panelParams): causal, then both ways.
void TestFamiliesFigure::everyOffsetItsOwnPoint()
{
    QFETCH(qint64, dModel);
    QFETCH(bool, flipped);
    Params p = settings(300, flipped);
    p.dModel = dModel;
    p.batch.attention = flipped ? Attention::BothWays : Attention::Causal;
    const std::int64_t q = 120;
    const auto d = FamiliesModel::compute(p, q, -q - 0.5, 300 - q - 0.5, 2000, nullptr);
    QVERIFY(d);
    QCOMPARE(d->sampled, 0);
    QCOMPARE(d->panels.size(), FamiliesModel::panelFamilies().size());
    const OffsetPixels pixels = OffsetPixels::of(q, 300, -q - 0.5, 300 - q - 0.5, 2000);
    QCOMPARE(pixels.count(), 300);
    QCOMPARE(qsizetype(pixels.starts.size()), 300);
    for (const FamilySpec *spec : FamiliesModel::panelFamilies()) {
        const TestFamily &family = TestFamilies::of(spec->encoding);
        QVERIFY2(family.panel, qPrintable(family.word + u"'s record checks no panel"_s));
        const FamilyPanelData *data = d->panel(spec->encoding);
        QVERIFY(data);
        TestPanel drawn;
        drawn.curve = data->curve;
        for (const FamilyPanelLine &line : data->lines) {
            drawn.lines.append(line.curve);
            drawn.emphasised.append(line.emphasised);
            drawn.named.append(!line.name.isEmpty());
        }
        drawn.maskedAfterQuery = data->maskedAfterQuery;
        drawn.pixels = pixels;
        const std::optional<QString> differs = family.panel(FamiliesModel::panelParams(p), q, drawn);
        QVERIFY2(!differs, qPrintable(family.word + u": "_s + differs.value_or(QString())));
    }
}

// The alibi lesson's d_model 64 under RoPE's default head_dim 128: the RoPE panel drew nothing (its
// settings "not valid"), though its score needs the head alone. It draws HF's aligned score over
// head_dim 128 (RoPE's record, tests/families/rope), the d_model under it not RoPE's to check.
void TestFamiliesFigure::theRotaryPanelDrawsAHeadWiderThanTheModel()
{
    Params p = settings(300);
    p.encoding = Encoding::Alibi;
    p.dModel = 64;
    p.rope.headDim = 128;
    const std::int64_t q = 120;
    const auto d = FamiliesModel::compute(p, q, -q - 0.5, 300 - q - 0.5, 2000, nullptr);
    QVERIFY(d);
    const FamilyPanelData *data = d->panel(Encoding::Rope);
    QVERIFY(data);
    QVERIFY2(!data->problem, qPrintable(data->problem.value_or(QString())));
    TestPanel drawn;
    drawn.curve = data->curve;
    drawn.pixels = OffsetPixels::of(q, 300, -q - 0.5, 300 - q - 0.5, 2000);
    QVERIFY(drawn.pixels.count() == 300);
    const std::optional<QString> differs = TestFamilies::of(Encoding::Rope).panel(p, q, drawn);
    QVERIFY2(!differs, qPrintable(differs.value_or(QString())));
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

void TestFamiliesFigure::theDrawnBandReachesPeDotPeAtTheQuery_data()
{
    QTest::addColumn<QSize>("pixels");
    QTest::newRow("1920 x 1080") << QSize(1920, 1080);
    QTest::newRow("1366 x 768") << QSize(1366, 768);
    QTest::newRow("4:3 slide at 96 dpi") << QSize(960, 720);
}

// The families lesson's Llama 3.1 8B (d 4096, 131,072 positions, the middle query): its text says
// PE·PE = 2048 at the query, and the drawn band, 6 to 8 offsets sampled a pixel, topped there at
// about 1500. The sinusoid panel's upper line at the pixel of offset 0 is PE[q]·PE[q] in float64.
void TestFamiliesFigure::theDrawnBandReachesPeDotPeAtTheQuery()
{
    QFETCH(QSize, pixels);
    const Params p = roperef::llama31();
    const auto built = FigureBuilds::build(u"families"_s, p, FigureSize::fromPixels(pixels));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const std::int64_t q = FamiliesModel::defaultQuery(p);
    const double exact = peDot(4096, 10000.0, q, q);
    QVERIFY(std::abs(exact - 2048.0) < 1e-9);
    const QCPGraph *upper = nullptr;
    for (int i = 0; i < built->plot()->graphCount(); ++i) {
        QCPGraph *graph = built->plot()->graph(i);
        if (graph->channelFillGraph() && graph->valueAxis()->label() == u"PE·PE"_s)
            upper = graph;
    }
    QVERIFY2(upper, "no PE·PE band drawn");
    QVERIFY(upper->data()->size() > 100);
    // The point of the pixel that holds offset 0: the last whose offset is at most half a pixel on.
    const double width = double(p.maxLen) / double(upper->data()->size());
    double top = -INFINITY;
    for (auto it = upper->data()->constBegin(); it != upper->data()->constEnd(); ++it)
        if (std::abs(it->key) <= width)
            top = std::max(top, it->value);
    QVERIFY2(std::abs(top - exact) <= 1e-9 * exact,
             qPrintable(u"the band tops at %1 by the query; PE·PE there is %2"_s.arg(top, 0, 'g', 12).arg(exact)));
}

void TestFamiliesFigure::appliesToEveryFamilyAndMarksTheChosenOne()
{
    const FigureSize size = FigureSize::fromPixels(QSize(900, 800));
    // Every family chosen but one whose term is a file's (the learned table).
    int drawn = 0;
    for (const TestFamily &family : TestFamilies::all()) {
        Params p = TestFamilies::forFamilies({family.encoding}, settings(1024));
        p.encoding = family.encoding;
        if (!p.isValid()) {
            qInfo("%s: %s", qPrintable(family.word), qPrintable(p.validate().value(0).sentence()));
            continue;
        }
        ++drawn;
        const auto built = FigureBuilds::build(u"families"_s, p, size);
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
        QVERIFY2(texts.contains(u"bucket index stands for"_s, Qt::CaseInsensitive), qPrintable(texts));
        // DeBERTa's term is named for what it is, not as a bias.
        QVERIFY2(texts.contains(u"c2p"_s) && texts.contains(u"p2c"_s), qPrintable(texts));
        QVERIFY2(texts.contains(u"query q = 511"_s), qPrintable(texts));
    }
    QCOMPARE(drawn, Families::all().size() - 1);
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
    QCOMPARE(rects.size(), std::min(families.size(), kOnASlide));
    for (const QCPAxisRect *rect : rects)
        QVERIFY2(std::abs(rect->height() - rects.front()->height()) <= 2,
                 qPrintable(u"%1 and %2 high"_s.arg(rect->height()).arg(rects.front()->height())));
    const auto debertaPanel = std::find_if(rects.cbegin(), rects.cend(), [](const QCPAxisRect *rect) {
        return FigureRoom::shownLabel(rect->axis(QCPAxis::atLeft)).startsWith(u"DeBERTa"_s);
    });
    QVERIFY(debertaPanel != rects.cend());
    QCPAxis *deberta = (*debertaPanel)->axis(QCPAxis::atLeft);
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
    QTest::addColumn<int>("least"); // columns, as the panels' count needs
    QTest::addColumn<int>("most");
    QTest::newRow("view 640x420") << 640.0 << 420.0 << 9.0 << 2 << 3;
    QTest::newRow("slide, 14 pt") << 25.4 << 14.29 << 14.0 << 4 << 4;
    QTest::newRow("view 900x720") << 900.0 << 720.0 << 9.0 << 1 << 1;
    QTest::newRow("view 1200x800") << 1200.0 << 800.0 << 9.0 << 1 << 1;
}

// Six panels in one column did not fit a 640 x 420 view (it needed 422 pixels) nor a 14-pt slide:
// a low figure sets them in columns, row by row in the list's order, each plot as high as the
// others and at least a line of its text high, the axis under the last panel of each column; a last
// row with fewer panels than columns keeps every panel (seven panels left a slide one). On a page
// short of room, a 14-pt 16:9 slide, all eight in four columns (three columns of three left the
// plots too little of the page, and the slide drew six).
void TestFamiliesFigure::everyPanelFitsInColumnsTheHeightNeeds()
{
    QFETCH(double, width);
    QFETCH(double, height);
    QFETCH(double, points);
    QFETCH(int, least);
    QFETCH(int, most);
    const bool slide = points > FigureStyle::kBaseFontPointSize;
    const FigureSize size = slide ? FigureSize::fromInches(QSizeF(width / 2.54, height / 2.54), 150.0)
                                  : FigureSize::fromPixels(QSize(int(width), int(height)));
    FigureStyle style;
    style.fontPointSize = points;
    const auto built = FigureBuilds::build(u"families"_s, settings(1024), size, {}, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QList<QCPAxisRect *> rects = FigureBuild::plotRects(*built->plot());
    const QList<const FamilySpec *> families = FamiliesModel::panelFamilies();
    QCOMPARE(rects.size(), slide ? std::min(families.size(), kOnASlide) : families.size());
    QList<int> lefts;
    for (const QCPAxisRect *rect : rects)
        if (!lefts.contains(rect->left()))
            lefts.append(rect->left());
    const auto columns = qsizetype(lefts.size());
    QVERIFY2(columns >= least && columns <= most, qPrintable(u"%1 columns"_s.arg(columns)));
    for (qsizetype n = 0; n < rects.size(); ++n) {
        QCOMPARE(FigureRoom::shownLabel(rects[n]->axis(QCPAxis::atLeft)).isEmpty(), false);
        QVERIFY2(std::abs(rects[n]->height() - rects.front()->height()) <= 2,
                 qPrintable(u"%1 and %2 high"_s.arg(rects[n]->height()).arg(rects.front()->height())));
        const double line = QFontMetricsF(rects[n]->axis(QCPAxis::atLeft)->labelFont()).lineSpacing();
        QVERIFY2(rects[n]->height() >= line, qPrintable(u"%1 high, a line %2"_s.arg(rects[n]->height()).arg(line)));
        // Row by row: a panel is right of the one before it, or starts a row below it.
        if (n > 0)
            QVERIFY(rects[n]->left() > rects[n - 1]->left() || rects[n]->top() > rects[n - 1]->top());
        const bool last = n + columns >= rects.size();
        QCOMPARE(rects[n]->axis(QCPAxis::atBottom)->tickLabels(), last);
    }
}

// The families lesson's 14-pt slide left out a family its text had just introduced: a crowded page
// dropped panels in the list's order. It keeps the chosen family's, those named, then one of each
// kind (absolute, none, rotary, bias, bucket) before a second, each round in the list's order. The
// families are the product's, found by kind, so that a family added changes no line here.
void TestFamiliesFigure::aCrowdedPageKeepsTheChosenTheNamedThenOneOfEachKind()
{
    const QList<const FamilySpec *> families = FamiliesModel::panelFamilies();
    QMap<FamiliesRoom::PanelKind, QList<qsizetype>> ofKind; // each kind's panels, in the list's order
    for (qsizetype n = 0; n < families.size(); ++n)
        ofKind[FamiliesRoom::kindOf(*families[n])].append(n);
    const qsizetype kinds = ofKind.size();
    const auto crowded = std::find_if(ofKind.cbegin(), ofKind.cend(), [](const auto &list) { return list.size() > 1; });
    QVERIFY2(crowded != ofKind.cend(), "no kind has two panels");
    // The last panel of a kind chosen: it stands for its kind, and the others' first panels follow.
    const qsizetype chosen = crowded->last(), first = crowded->first();
    const Encoding chosenFamily = families[chosen]->encoding;
    QList<bool> expected(families.size(), false);
    for (const QList<qsizetype> &list : ofKind)
        expected[list.first()] = true;
    expected[first] = false;
    expected[chosen] = true;
    QCOMPARE(FamiliesRoom::shown(families, chosenFamily, {}, kinds), expected);
    // A second round in the list's order: the first panel not drawn yet, of any kind.
    QList<bool> oneMore = expected;
    oneMore[oneMore.indexOf(false)] = true;
    QCOMPARE(FamiliesRoom::shown(families, chosenFamily, {}, kinds + 1), oneMore);
    // The named come before the kinds: with room for two, the chosen and the one named, of one kind.
    QList<bool> named(families.size(), false);
    named[chosen] = named[first] = true;
    QCOMPARE(FamiliesRoom::shown(families, chosenFamily, {families[first]->encoding}, 2), named);
    // Named in the order given: with room for one more, the one named first stays, wherever the
    // list puts it.
    const qsizetype lastPanel = families.size() - 1, other = lastPanel == chosen ? first : lastPanel;
    for (const auto &[ahead, behind] : {std::pair(other, qsizetype(0)), std::pair(qsizetype(0), other)}) {
        if (ahead == chosen || behind == chosen || ahead == behind)
            continue;
        QList<bool> kept(families.size(), false);
        kept[chosen] = kept[ahead] = true;
        QCOMPARE(
            FamiliesRoom::shown(families, chosenFamily, {families[ahead]->encoding, families[behind]->encoding}, 2),
            kept);
    }
    // A chosen family without a panel keeps none of its own: the first of each kind.
    for (const FamilySpec &family : Families::all()) {
        if (FamilyPanels::of(family.encoding))
            continue;
        QList<bool> firsts(families.size(), false);
        for (const QList<qsizetype> &list : ofKind)
            firsts[list.first()] = true;
        QCOMPARE(FamiliesRoom::shown(families, family.encoding, {}, kinds), firsts);
    }
    QCOMPARE(FamiliesRoom::shown(families, chosenFamily, {}, families.size()).count(true), families.size());
}

// A 14-pt slide of 8 x 4.5 inches, which holds fewer than every panel, draws a panel it would leave
// out once it is named (--keep, as the families lesson names the family its text introduces), and
// the title says how many of how many; a family without a panel cannot be named.
void TestFamiliesFigure::aNamedPanelIsDrawnAndTheTitleSaysHowManyOfHowMany()
{
    Params p = settings(2048);
    p.encoding = Encoding::Rope;
    const FigureSize slide = FigureSize::fromInches(QSizeF(8.0, 4.5), 150.0);
    FigureStyle style;
    style.fontPointSize = 14.0;
    const QList<const FamilySpec *> families = FamiliesModel::panelFamilies();
    const auto crowded = FigureBuilds::build(u"families"_s, p, slide, {}, style);
    QVERIFY2(!crowded->error(), qPrintable(FigureBuilds::errorOf(*crowded)));
    const qsizetype held = panelLabels(*crowded->plot()).size();
    QVERIFY2(held > 1 && held < families.size(), qPrintable(u"%1 panels drawn"_s.arg(held)));
    const QList<bool> unnamed = FamiliesRoom::shown(families, p.encoding, {}, held);
    const qsizetype left = unnamed.lastIndexOf(false);
    QVERIFY2(left >= 0, "a slide draws every panel");
    const FamilyPanel *kept = FamilyPanels::of(families[left]->encoding);
    FigureState state;
    state.options.insert(u"keep"_s, families[left]->word);
    const auto built = FigureBuilds::build(u"families"_s, p, slide, state, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QStringList labels = panelLabels(*built->plot());
    QCOMPARE(labels.size(), held);
    const auto drawn = [&labels](const FamilyPanel *panel) {
        return labels.contains(panel->label) || labels.contains(panel->terseLabel);
    };
    QVERIFY2(drawn(kept) && drawn(FamilyPanels::of(p.encoding)), qPrintable(labels.join(u"; ")));
    const QString title = FigureRoom::fullTitle(*built->plot());
    const QString count
        = u"%1 of %2 families"_s.arg(FamiliesModel::countWord(labels.size()), FamiliesModel::panelCount());
    QVERIFY2(title.contains(count), qPrintable(title));
    for (const FamilySpec &family : Families::all()) {
        if (FamilyPanels::of(family.encoding))
            continue;
        FigureState wrong;
        wrong.options.insert(u"keep"_s, family.word);
        QCOMPARE(FigureBuilds::figure(u"families"_s).model().check(p, wrong).size(), 1);
    }
}

// Whether a page is crowded is its room's, not a count of panels: a tall page short of room at
// 14 pt holds every panel in two columns and draws them all, its title a count alone.
void TestFamiliesFigure::aPageThatHoldsEveryPanelDrawsThemAll()
{
    const FigureSize tall = FigureSize::fromInches(QSizeF(25.4 / 2.54, 40.0 / 2.54), 150.0);
    FigureStyle style;
    style.fontPointSize = 14.0;
    const auto built = FigureBuilds::build(u"families"_s, settings(2048), tall, {}, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QVERIFY(FigureRoom::shortOfRoom(*built->plot(), 14.0));
    QCOMPARE(panelLabels(*built->plot()).size(), FamiliesModel::panelFamilies().size());
    const QString title = FigureRoom::fullTitle(*built->plot());
    QVERIFY2(title.contains(u"%1 families"_s.arg(FamiliesModel::panelCount()))
                 && !title.contains(u"of %1 families"_s.arg(FamiliesModel::panelCount())),
             qPrintable(title));
}

// The head-bias kit's words of a panel and of the value under the mouse (HeadBiasPanel), as each
// head-bias family's panel wrote them for itself before.
void TestFamiliesFigure::headBiasPanelsWordTheirHeadAndTheMaskedKeys()
{
    const FamilyPanel panel = HeadBiasPanel::named(u"ALiBi"_s, u"bias per head"_s, FamilyPanelStyle::Lines);
    QCOMPARE(panel.label, u"ALiBi bias"_s);
    QCOMPARE(panel.terseLabel, u"ALiBi"_s);
    QCOMPARE(panel.summaryOwner + u' ' + panel.summaryNoun, u"ALiBi's bias per head"_s);
    QCOMPARE(panel.style, FamilyPanelStyle::Lines);

    const FamilyPanelPoint far = HeadBiasPanel::point(-1.25, -3, 2, 3);
    QCOMPARE(far.value, std::optional<double>(-1.25));
    QCOMPARE(far.name, u"k = -3: head 2's bias, distance 3"_s);
    const FamilyPanelPoint masked = HeadBiasPanel::point(-std::numeric_limits<double>::infinity(), 4, 1);
    QVERIFY(!masked.value);
    QCOMPARE(masked.name, u"k = 4: head 1's bias −inf (masked)"_s);

    QCOMPARE(HeadBiasPanel::headsProblem(0, 64, 1), std::optional<QString>(u"heads out of range"_s));
    QCOMPARE(HeadBiasPanel::headsProblem(65, 64, 1), std::optional<QString>(u"heads out of range"_s));
    QCOMPARE(HeadBiasPanel::headsProblem(8, 64, 9), std::optional<QString>(u"head K not within 1..H"_s));
    QCOMPARE(HeadBiasPanel::headsProblem(8, 64, 0), std::optional<QString>(u"head K not within 1..H"_s));
    QCOMPARE(HeadBiasPanel::headsProblem(8, 64, 8), std::nullopt);
}

// A causal model's keys after the query (create_causal_mask, MistralModel.forward) are masked in every
// panel, under one legend entry, but an encoder's (T5's bidirectional buckets, DeBERTa's, which read
// both sides); a model that attends both ways masks none, each family drawn as it would run there.
void TestFamiliesFigure::aCausalModelsPanelsEachMaskTheKeysAfterTheQuery()
{
    Params p = settings(300);
    p.encoding = Encoding::Rope;
    p.batch.attention = Attention::Causal;
    const std::int64_t q = 120;
    for (const bool t5Causal : {false, true}) {
        p.t5.causal = t5Causal;
        const auto causal = FamiliesModel::compute(p, q, -q - 0.5, 300 - q - 0.5, 2000, nullptr);
        QVERIFY(causal);
        for (const FamilyPanelData &panel : causal->panels) {
            const bool encoder = panel.family == Encoding::Deberta || (panel.family == Encoding::T5 && !t5Causal);
            QVERIFY2(panel.maskedAfterQuery != encoder, qPrintable(Families::word(panel.family)));
            QVERIFY(encoder || panel.maskName == causal->panels.front().maskName);
        }
    }
    p.batch.attention = Attention::BothWays;
    const auto both = FamiliesModel::compute(p, q, -q - 0.5, 300 - q - 0.5, 2000, nullptr);
    QVERIFY(both);
    QVERIFY(std::none_of(both->panels.cbegin(), both->panels.cend(), [](const auto &x) { return x.maskedAfterQuery; }));
}

// Mistral 7B attends within its config's sliding_window of 4096 (masking_utils'
// sliding_window_overlay: kv_idx > q_idx - sliding_window over the causal mask): every panel masks
// the keys W or more before the query, offsets k <= -W, under the causal mask's one entry. A window
// the query does not reach yet, or a model that attends both ways, masks none before it.
void TestFamiliesFigure::aSlidingWindowMasksTheKeysItLeavesBehind()
{
    Params p = settings(300);
    p.encoding = Encoding::Rope;
    p.batch.attention = Attention::Causal;
    p.batch.window = 50;
    const std::int64_t q = 120;
    const auto windowed = FamiliesModel::compute(p, q, -q - 0.5, 300 - q - 0.5, 2000, nullptr);
    QVERIFY(windowed);
    QCOMPARE(windowed->window, std::optional<std::int64_t>(50));
    for (const FamilyPanelData &panel : windowed->panels) {
        const bool encoder = panel.family == Encoding::Deberta || panel.family == Encoding::T5;
        QVERIFY2(panel.maskedAfterQuery != encoder && (encoder || panel.maskName.contains(u"sliding window 50"_s)),
                 qPrintable(Families::word(panel.family) + panel.maskName));
    }
    const auto early = FamiliesModel::compute(p, 30, -30.5, 269.5, 2000, nullptr);
    QVERIFY(early);
    QVERIFY(!early->window); // every key before q = 30 is within 50 of it
    p.batch.attention = Attention::BothWays;
    const auto both = FamiliesModel::compute(p, q, -q - 0.5, 300 - q - 0.5, 2000, nullptr);
    QVERIFY(both);
    QVERIFY(!both->window);
}

// Every panel that words its value under the mouse names the offset k = j - q, and has a finite
// value or says why not, at the parameters its record draws it with.
void TestFamiliesFigure::everyPanelWordsTheOffsetUnderTheMouse()
{
    const Params p = settings(64);
    for (const FamilySpec *family : FamiliesModel::panelFamilies()) {
        const FamilyPanel *panel = FamilyPanels::of(family->encoding);
        QVERIFY(panel);
        if (!panel->valueAt)
            continue; // a band that reads its value from the band (bandValueName)
        for (const std::int64_t key : {std::int64_t(10), std::int64_t(20), std::int64_t(30)}) {
            const std::optional<FamilyPanelPoint> point = panel->valueAt(p, 20, key);
            QVERIFY2(point, qPrintable(panel->label));
            QVERIFY2(point->name.startsWith(u"k = %1"_s.arg(key - 20)), qPrintable(point->name));
            QVERIFY2(point->value ? std::isfinite(*point->value) : point->name.contains(u"masked"_s),
                     qPrintable(point->name));
        }
    }
}

POSENC_TEST_MAIN(TestFamiliesFigure)
} // namespace tst_familiesfigure
#include "tst_familiesfigure.moc"
