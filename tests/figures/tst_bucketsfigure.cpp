// The buckets figure: the staircases of T5 (bidirectional both sides, causal) and DeBERTa against
// the buckets written here in float64 at every distance, the issue's distances among them, T5's
// cap and DeBERTa's growth past max_position; the L x L map, each pixel the exact mean bucket of
// its cells, summed here cell by cell, at L = 1000 and at L = 65536.
#include "core/deberta/DebertaBuckets.h"
#include "core/t5/T5Buckets.h"
#include "render/FigureExporter.h"
#include "render/data/DiagonalMeans.h"
#include "render/figures/buckets/BucketsFigure.h"
#include "support/TestMain.h"

#include "RelativeSlides.h"
#include "support/DebertaReference.h"
#include "support/FigureBuilds.h"
#include "support/RelativeModels.h"
#include "support/T5Reference.h"

#include <QTest>

#include <cmath>
#include <functional>

namespace tst_bucketsfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// The value a staircase holds at distance d: the bucket of the last step starting at or before d.
double stepAt(const BucketSteps &steps, std::int64_t d)
{
    const auto it = std::upper_bound(steps.distance.cbegin(), steps.distance.cend(), double(d));
    return steps.bucket[it - steps.distance.cbegin() - 1];
}

void checkSteps(const BucketSteps &steps, std::int64_t farthest,
                const std::function<buckettie::Bucket(std::int64_t)> &reference, const QString &what)
{
    QCOMPARE(steps.distance.front(), 1.0);
    QCOMPARE(steps.distance.back(), double(farthest));
    for (std::int64_t d = 1; d <= farthest; ++d) {
        const buckettie::Bucket expected = reference(d);
        const auto got = std::int64_t(stepAt(steps, d));
        QVERIFY2(buckettie::matches(got, expected),
                 qPrintable(u"%1 at distance %2: %3 vs %4"_s.arg(what).arg(d).arg(got).arg(expected.value)));
    }
}

PanelExtent whole(std::int64_t maxLen, int pixels)
{
    const double end = double(maxLen) - 0.5;
    return {QSize(pixels, pixels), 1.0, {-0.5, end}, {-0.5, end}};
}

// The mean bucket over a rectangle of queries i x keys j, summed cell by cell. The cells are the
// core's buckets, float32 as torch computes them (the staircases above check them against the
// float64 ones): this checks the closed form of a pixel's mean, not the buckets again.
double referenceMean(const Params &p, const Block &rect)
{
    double sum = 0.0;
    for (std::int64_t i = rect.row0; i < rect.rowEnd(); ++i)
        for (std::int64_t j = rect.col0; j < rect.colEnd(); ++j)
            sum += double(p.encoding == Encoding::T5
                              ? T5Buckets::bucket(j - i, p.t5.buckets, p.t5.maxDistance, !p.t5.causal)
                              : DebertaBuckets::bucket(i - j, p.deberta.buckets, p.deberta.maxPosition));
    return sum / double(rect.cells());
}

void checkMap(const Params &p, const HeatmapGrid &grid, int rowStep)
{
    const Block &b = grid.block;
    for (int a = 0; a < grid.rows; a += rowStep)
        for (int c = 0; c < grid.cols; ++c) {
            const std::int64_t r0 = DiagonalMeans::bandStart(b.row0, b.rows, grid.rows, a);
            const std::int64_t r1 = DiagonalMeans::bandStart(b.row0, b.rows, grid.rows, a + 1);
            const std::int64_t c0 = DiagonalMeans::bandStart(b.col0, b.cols, grid.cols, c);
            const std::int64_t c1 = DiagonalMeans::bandStart(b.col0, b.cols, grid.cols, c + 1);
            const double expected = referenceMean(p, {r0, r1 - r0, c0, c1 - c0});
            QVERIFY2(std::abs(grid.at(a, c) - expected) <= 2e-6 * std::max(1.0, std::abs(expected)),
                     qPrintable(u"pixel (%1, %2): %3 vs %4"_s.arg(a).arg(c).arg(grid.at(a, c)).arg(expected)));
        }
}

} // namespace

class TestBucketsFigure : public QObject
{
    Q_OBJECT

private slots:
    void t5StepsAreTheReference_data();
    void t5StepsAreTheReference();
    void t5AtTheIssuesDistances();
    void debertaStepsAreTheReference();
    void debertaAtTheIssuesDistances();
    void mapCellByCell_data();
    void mapCellByCell();
    void mapPixelsAreTheExactMeanOfTheirCells_data();
    void mapPixelsAreTheExactMeanOfTheirCells();
    void figureIsRegisteredAndExports();
    void t5AndDebertaFitASlide();
    void bothZerosAndTheFirstDistanceAreNumbered_data();
    void bothZerosAndTheFirstDistanceAreNumbered();
    void eachDashedLineIsNamedByItsParameter();
    void debertaCaptionSaysWhereItsTopBucketHolds();
};

void TestBucketsFigure::t5StepsAreTheReference_data()
{
    QTest::addColumn<qint64>("buckets");
    QTest::addColumn<qint64>("maxDistance");
    QTest::newRow("32 buckets, 128") << qint64(32) << qint64(128);
    QTest::newRow("16 buckets, 128") << qint64(16) << qint64(128);
    QTest::newRow("64 buckets, 256") << qint64(64) << qint64(256);
}

void TestBucketsFigure::t5StepsAreTheReference()
{
    QFETCH(qint64, buckets);
    QFETCH(qint64, maxDistance);
    Params p = relativemodels::t5Base();
    p.t5.buckets = buckets;
    p.t5.maxDistance = maxDistance;
    p.maxLen = 2000;
    const BucketsData d = BucketsModel::curves(p);
    QVERIFY(!d.t5Problem);
    QCOMPARE(d.farthest, 1999);
    checkSteps(
        d.t5After, d.farthest, [&](std::int64_t x) { return t5ref::t5(x, buckets, maxDistance, true); }, u"after"_s);
    checkSteps(
        d.t5Before, d.farthest, [&](std::int64_t x) { return t5ref::t5(-x, buckets, maxDistance, true); }, u"before"_s);
    checkSteps(
        d.t5Causal, d.farthest, [&](std::int64_t x) { return t5ref::t5(-x, buckets, maxDistance, false); },
        u"causal"_s);
    QCOMPARE(d.t5ExactBidirectional, buckets / 4);
    QCOMPARE(d.t5ExactCausal, buckets / 2);
    // The cap: every distance from max_distance on shares the last bucket of its side.
    QCOMPARE(stepAt(d.t5After, maxDistance), double(buckets - 1));
    QCOMPARE(stepAt(d.t5Before, 1999), double(buckets / 2 - 1));
    QCOMPARE(stepAt(d.t5Causal, 1999), double(buckets - 1));
}

void TestBucketsFigure::t5AtTheIssuesDistances()
{
    // +-1..+-8, 16, 32, 64, 127, 128 and 1000, bidirectional and causal, 32 buckets and 128.
    const BucketsData d = BucketsModel::curves(relativemodels::t5Base());
    QVERIFY(d.farthest >= 1000);
    for (const std::int64_t x : {1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64, 127, 128, 1000}) {
        QVERIFY(buckettie::matches(std::int64_t(stepAt(d.t5After, x)), t5ref::t5(x, 32, 128, true)));
        QVERIFY(buckettie::matches(std::int64_t(stepAt(d.t5Before, x)), t5ref::t5(-x, 32, 128, true)));
        QVERIFY(buckettie::matches(std::int64_t(stepAt(d.t5Causal, x)), t5ref::t5(-x, 32, 128, false)));
    }
    // Exact below 8 (bidirectional), keys after the query offset by 16; 127 and 128 share 31.
    QCOMPARE(stepAt(d.t5After, 7), 23.0);
    QCOMPARE(stepAt(d.t5Before, 7), 7.0);
    QCOMPARE(stepAt(d.t5After, 127), 31.0);
    QCOMPARE(stepAt(d.t5After, 1000), 31.0);
    QCOMPARE(stepAt(d.t5Causal, 15), 15.0);
}

void TestBucketsFigure::debertaStepsAreTheReference()
{
    Params p = relativemodels::debertaV3Base();
    p.maxLen = 4000;
    const BucketsData d = BucketsModel::curves(p);
    QVERIFY(!d.debertaProblem);
    checkSteps(
        d.deberta, d.farthest, [](std::int64_t x) { return debertaref::deberta(x, 256, 512); }, u"DeBERTa"_s);
    QCOMPARE(d.debertaMid, 128);
}

void TestBucketsFigure::debertaAtTheIssuesDistances()
{
    // +-128, 129, 256 and 1000 with 256 buckets and 512 positions; uncapped past 511.
    const BucketsData d = BucketsModel::curves(relativemodels::debertaV3Base());
    QCOMPARE(d.farthest, 1024);
    for (const std::int64_t x : {128, 129, 256, 511, 512, 1000})
        QVERIFY2(buckettie::matches(std::int64_t(stepAt(d.deberta, x)), debertaref::deberta(x, 256, 512)),
                 qPrintable(u"%1: %2"_s.arg(x).arg(stepAt(d.deberta, x))));
    QCOMPARE(stepAt(d.deberta, 128), 128.0);
    QCOMPARE(stepAt(d.deberta, 511), 255.0);
    QVERIFY(stepAt(d.deberta, 1000) > 255.0);
}

void TestBucketsFigure::mapCellByCell_data()
{
    QTest::addColumn<Params>("p");
    Params t5 = relativemodels::t5Base();
    t5.maxLen = 40;
    QTest::newRow("T5 bidirectional") << t5;
    t5.t5.causal = true;
    QTest::newRow("T5 causal") << t5;
    Params deberta = relativemodels::debertaV3Base();
    deberta.maxLen = 40;
    deberta.deberta.buckets = 16;
    deberta.deberta.maxPosition = 24;
    QTest::newRow("DeBERTa 16 buckets, 24 positions") << deberta;
}

void TestBucketsFigure::mapCellByCell()
{
    QFETCH(Params, p);
    const auto d = BucketsModel::compute(p, whole(p.maxLen, 100), nullptr);
    QVERIFY(d);
    QVERIFY(d->map.isCellByCell());
    for (std::int64_t i = 0; i < p.maxLen; ++i)
        for (std::int64_t j = 0; j < p.maxLen; ++j) {
            const buckettie::Bucket expected = p.encoding == Encoding::T5
                ? t5ref::t5(j - i, p.t5.buckets, p.t5.maxDistance, !p.t5.causal)
                : debertaref::deberta(i - j, p.deberta.buckets, p.deberta.maxPosition);
            QVERIFY2(
                buckettie::matches(std::int64_t(d->map.at(int(i), int(j))), expected),
                qPrintable(u"(%1, %2): %3 vs %4"_s.arg(i).arg(j).arg(d->map.at(int(i), int(j))).arg(expected.value)));
        }
    if (p.encoding == Encoding::T5) {
        QCOMPARE(d->mapLow, 0.0);
        QCOMPARE(d->mapHigh, 31.0);
    } else {
        QCOMPARE(d->mapHigh, -d->mapLow);
        QCOMPARE(d->mapHigh, double(std::abs(debertaref::deberta(39, 16, 24).value)));
    }
}

void TestBucketsFigure::mapPixelsAreTheExactMeanOfTheirCells_data()
{
    QTest::addColumn<Params>("p");
    QTest::addColumn<int>("pixels");
    QTest::addColumn<int>("rowStep");
    Params t5 = relativemodels::t5Base();
    t5.maxLen = 1000;
    QTest::newRow("T5 1000 on 61 pixels") << t5 << 61 << 1;
    Params deberta = relativemodels::debertaV3Base();
    deberta.maxLen = 1000;
    QTest::newRow("DeBERTa 1000 on 61 pixels") << deberta << 61 << 1;
    t5.maxLen = 65536;
    t5.t5.causal = true;
    QTest::newRow("T5 causal 65536 on 256 pixels") << t5 << 256 << 51;
    deberta.maxLen = 65536;
    QTest::newRow("DeBERTa 65536 on 256 pixels") << deberta << 256 << 51;
}

void TestBucketsFigure::mapPixelsAreTheExactMeanOfTheirCells()
{
    QFETCH(Params, p);
    QFETCH(int, pixels);
    QFETCH(int, rowStep);
    const auto d = BucketsModel::compute(p, whole(p.maxLen, pixels), nullptr);
    QVERIFY(d);
    QCOMPARE(d->map.rows, pixels);
    checkMap(p, d->map, rowStep);
}

void TestBucketsFigure::figureIsRegisteredAndExports()
{
    const FigureSize size = FigureSize::fromPixels(QSize(1000, 560));
    for (const Params &p : {relativemodels::t5Base(), relativemodels::debertaV3Base()}) {
        const auto built = FigureBuilds::build(u"buckets"_s, p, size);
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(1000, 560));
        const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
        QVERIFY2(texts.contains(p.encoding == Encoding::T5 ? u"T5 bidirectional map"_s : u"DeBERTa map"_s),
                 qPrintable(texts));
        QVERIFY2(texts.contains(u"every key farther shares its side's last bucket (15 before, 31 after)"_s),
                 qPrintable(texts));
    }
    // Export data: the chosen family's table over the map's cells in view.
    const auto &model = FigureBuilds::figure(u"buckets"_s).model();
    QCOMPARE(model.inputs({}), (QList<Quantity> {Quantity::T5Bucket, Quantity::DebertaBucket}));
    QCOMPARE(model.table(relativemodels::t5Base(), {})->quantity, Quantity::T5Bucket);
    QCOMPARE(model.table(relativemodels::debertaV3Base(), {})->quantity, Quantity::DebertaBucket);
    QCOMPARE(model.table(relativemodels::debertaV3Base(), {})->block, (Block {0, 512, 0, 512}));
    // ALiBi is refused, naming the two families.
    Params alibi;
    alibi.encoding = Encoding::Alibi;
    const auto problems = FigureBuilds::figure(u"buckets"_s).model().check(alibi, {});
    QCOMPARE(problems.size(), 1);
    QVERIFY(problems[0].allowed.contains(u"t5"_s) && problems[0].allowed.contains(u"deberta"_s));
}

void TestBucketsFigure::t5AndDebertaFitASlide()
{
    Params long5 = relativemodels::t5Base();
    long5.maxLen = 65536;
    RelativeSlides::check(u"buckets"_s,
                          {{u"t5-base"_s, relativemodels::t5Base()},
                           {u"deberta-v3-base"_s, relativemodels::debertaV3Base()},
                           {u"t5-65536"_s, long5}});
}

void TestBucketsFigure::bothZerosAndTheFirstDistanceAreNumbered_data()
{
    QTest::addColumn<bool>("deberta");
    QTest::addColumn<QSizeF>("inches");
    QTest::newRow("DeBERTa, 16:9") << true << QSizeF(10.0, 5.626);
    QTest::newRow("DeBERTa, 4:3") << true << QSizeF(10.0, 7.5);
    QTest::newRow("T5, 16:9") << false << QSizeF(10.0, 5.626);
}

// The buckets slide for DeBERTa lost the "0" of its |bucket| axis: its distances' axis began at 1,
// and the two first numbers met in the panel's corner, where one gives way. Every panel's bucket
// axis numbers its 0 and the distances their 1.
void TestBucketsFigure::bothZerosAndTheFirstDistanceAreNumbered()
{
    QFETCH(bool, deberta);
    QFETCH(QSizeF, inches);
    const Params p = deberta ? relativemodels::debertaV3Base() : relativemodels::t5Base();
    FigureStyle style;
    style.fontPointSize = 14.0;
    const FigureSize size = FigureSize::fromInches(inches, 300.0);
    const auto built = FigureBuilds::build(u"buckets"_s, p, size, FigureState(), style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    FigureExporter::image(built->plot(), size);
    int curves = 0;
    for (QCPAxisRect *rect : built->plot()->axisRects()) {
        if (!rect->realVisibility() || rect->graphs().isEmpty() || rect->axis(QCPAxis::atLeft)->range().lower >= 0.0)
            continue; // the map's queries run down from 0
        ++curves;
        QCPAxis *y = rect->axis(QCPAxis::atLeft);
        const QVector<double> ticks = y->tickVector();
        const qsizetype zero = ticks.indexOf(0.0);
        QVERIFY2(zero >= 0, qPrintable(y->label()));
        QCOMPARE(y->tickVectorLabels().value(zero), u"0"_s);
        QCPAxis *x = rect->axis(QCPAxis::atBottom);
        if (!x->tickLabels() || !x->visible())
            continue;
        const qsizetype one = x->tickVector().indexOf(1.0);
        QVERIFY2(one >= 0 && x->tickVectorLabels().value(one) == u"1"_s, qPrintable(x->tickVectorLabels().join(u' ')));
    }
    QCOMPARE(curves, 2);
}

// The buckets slide's key named both dashed lines "max_distance", but DeBERTa's, at 511, is its
// max_position − 1: each is named by its own parameter, on a slide and in the window's view.
void TestBucketsFigure::eachDashedLineIsNamedByItsParameter()
{
    FigureStyle slideStyle;
    slideStyle.fontPointSize = 14.0;
    const FigureSize slide = FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.29 / 2.54), 150.0);
    const FigureSize view = FigureSize::fromPixels(QSize(1000, 560));
    for (const auto &[size, style] : {std::pair {slide, slideStyle}, std::pair {view, FigureStyle()}}) {
        const auto built = FigureBuilds::build(u"buckets"_s, relativemodels::t5Base(), size, FigureState(), style);
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        FigureExporter::image(built->plot(), size);
        // The key's entries: the names of the lines its legends hold.
        QStringList texts;
        for (QCPLayoutElement *element : built->plot()->plotLayout()->elements(true))
            if (auto *legend = qobject_cast<QCPLegend *>(element))
                for (int i = 0; i < legend->itemCount(); ++i)
                    if (auto *entry = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)))
                        texts.append(entry->plottable()->name());
        const QString all = texts.join(u" | "_s);
        QVERIFY2(all.contains(u"T5 max_distance"_s), qPrintable(all));
        QVERIFY2(all.contains(u"DeBERTa max_position − 1"_s), qPrintable(all));
        for (const QString &text : texts)
            QVERIFY2(!(text.contains(u"max_distance"_s) && text.contains(u"max_position"_s)), qPrintable(text));
    }
}

// The caption said DeBERTa's buckets were "logarithmic to 255 at distance 511": rounded up, the
// bucket is 255 from distance 506 (to 511, then past it). It names the distances the float64
// reference gives, at four settings.
void TestBucketsFigure::debertaCaptionSaysWhereItsTopBucketHolds()
{
    const auto grouped = [](std::int64_t n) {
        return n < 1000 ? QString::number(n) : u"%1,%2"_s.arg(n / 1000).arg(n % 1000, 3, 10, QChar(u'0'));
    };
    for (const auto &[buckets, maxPosition] :
         {std::pair<std::int64_t, std::int64_t> {256, 512}, {256, 1024}, {128, 512}, {64, 128}}) {
        Params p = relativemodels::debertaV3Base();
        p.deberta.buckets = buckets;
        p.deberta.maxPosition = maxPosition;
        std::int64_t from = 1, past = 1;
        while (debertaref::deberta(from, buckets, maxPosition).value < buckets - 1)
            ++from;
        while (debertaref::deberta(past, buckets, maxPosition).value < buckets)
            ++past;
        const auto built = FigureBuilds::build(u"buckets"_s, p, FigureSize::fromPixels(QSize(1600, 900)));
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
        const QString said = u"%1 from distance %2 to %3"_s.arg(buckets - 1).arg(grouped(from), grouped(past - 1));
        QVERIFY2(
            texts.contains(
                said + u", past it uncapped (the attention reads buckets −%1 … %2)"_s.arg(buckets).arg(buckets - 1)),
            qPrintable(said + u" in: "_s + texts));
        QVERIFY2(!texts.contains(u"at distance %1"_s.arg(grouped(maxPosition - 1))), qPrintable(texts));
    }
    // At 2 buckets (mid 1) the bucket is 1 from distance 1 on and never grows: no last distance.
    Params two = relativemodels::debertaV3Base();
    two.deberta.buckets = 2;
    two.deberta.maxPosition = 3;
    for (const std::int64_t d : {1, 10, 1000000})
        QCOMPARE(debertaref::deberta(d, 2, 3).value, 1);
    const auto built = FigureBuilds::build(u"buckets"_s, two, FigureSize::fromPixels(QSize(1600, 900)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"then 1 from distance 1 on (the attention reads buckets −2 … 1)"_s)
                 && !texts.contains(u"uncapped"_s),
             qPrintable(texts));
}

POSENC_TEST_MAIN(TestBucketsFigure)
} // namespace tst_bucketsfigure
#include "tst_bucketsfigure.moc"
