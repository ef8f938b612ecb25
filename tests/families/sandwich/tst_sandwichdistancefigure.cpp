// The sandwich-distance figure: every head's bias against the distance, each point the float64
// bias written here (support/SandwichReference.h) where a pixel holds one distance, the least and
// the most of its distances where it holds many; at most 16 heads drawn, head K among them; the
// far mean of head K; NeMo's preset as a 14-pt slide.
#include "render/data/sandwich/SandwichDistanceModel.h"
#include "support/TestMain.h"

#include "figures/RelativeSlides.h"
#include "support/FigureBuilds.h"
#include "support/SandwichReference.h"

#include <QTest>

#include <cmath>

namespace tst_sandwichdistancefigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params sandwich(std::int64_t heads, std::int64_t head, std::int64_t d, std::int64_t maxLen)
{
    Params p;
    p.encoding = Encoding::Sandwich;
    p.maxLen = maxLen;
    p.sandwich = {heads, head, d, SandwichMask::Causal};
    return p;
}

} // namespace

class TestSandwichDistanceFigure : public QObject
{
    Q_OBJECT

private slots:
    void everyDistanceItsOwnPoint();
    void crowdedPixelsHoldTheirLeastAndMost();
    void manyHeadsDrawSixteenAndHeadK();
    void nemosPresetFitsASlide();
};

void TestSandwichDistanceFigure::everyDistanceItsOwnPoint()
{
    const auto d = SandwichDistanceModel::compute(sandwich(12, 5, 64, 300), -0.5, 299.5, 1000,
                                                  FamilyCurves::kMaxEvaluations, nullptr);
    QVERIFY(d);
    QCOMPARE(d->heads.size(), 12);
    QCOMPARE(d->sampled, 0);
    for (qsizetype n = 0; n < d->heads.size(); ++n) {
        const FamilyCurve &curve = d->curves[n];
        QCOMPARE(curve.offset.size(), 300);
        for (qsizetype i = 0; i < curve.offset.size(); ++i) {
            const auto r = std::int64_t(curve.offset[i]);
            QCOMPARE(curve.lo[i], curve.hi[i]);
            const double expected = sandwichref::bias(12, d->heads[n], 64, r, 0, true);
            QVERIFY2(std::abs(curve.lo[i] - expected) < 1e-9,
                     qPrintable(u"head %1, r %2: %3 vs %4"_s.arg(d->heads[n]).arg(r).arg(curve.lo[i]).arg(expected)));
        }
    }
    QCOMPARE(d->farMean, -32.0 / (5.0 * 8.0 / 12.0));
}

void TestSandwichDistanceFigure::crowdedPixelsHoldTheirLeastAndMost()
{
    // 20,000 distances on 100 pixels: each point the least and the most of its pixel's.
    const auto d = SandwichDistanceModel::compute(sandwich(8, 8, 32, 20000), -0.5, 19999.5, 100,
                                                  FamilyCurves::kMaxEvaluations, nullptr);
    QVERIFY(d);
    const FamilyCurve &curve = d->curves.back(); // head 8
    const OffsetPixels pixels = OffsetPixels::of(0, 20000, -0.5, 19999.5, 100);
    QCOMPARE(qsizetype(pixels.starts.size()), curve.offset.size());
    for (std::size_t g = 0; g < pixels.starts.size(); g += 7) {
        double lo = INFINITY, hi = -INFINITY;
        for (std::int64_t r = pixels.starts[g]; r <= pixels.end(g); ++r) {
            const double v = sandwichref::bias(8, 8, 32, r, 0, true);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        QVERIFY2(std::abs(curve.lo[qsizetype(g)] - lo) < 1e-9 && std::abs(curve.hi[qsizetype(g)] - hi) < 1e-9,
                 qPrintable(u"pixel %1"_s.arg(g)));
    }
}

void TestSandwichDistanceFigure::manyHeadsDrawSixteenAndHeadK()
{
    const auto d = SandwichDistanceModel::compute(sandwich(100, 37, 64, 50), -0.5, 49.5, 200,
                                                  FamilyCurves::kMaxEvaluations, nullptr);
    QVERIFY(d);
    QVERIFY(d->heads.size() <= 17);
    QVERIFY(d->heads.contains(37) && d->heads.contains(1) && d->heads.contains(100));
    const auto built = FigureBuilds::build(u"sandwich-distance"_s, sandwich(100, 37, 64, 50),
                                           FigureSize::fromPixels(QSize(1200, 700)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"of 100 heads drawn"_s) && texts.contains(u"head K = 37"_s), qPrintable(texts));
}

void TestSandwichDistanceFigure::nemosPresetFitsASlide()
{
    Params p = sandwich(12, 1, 64, 512);
    p.dModel = 768;
    RelativeSlides::check(u"sandwich-distance"_s, {{u"nemo-gpt-sandwich"_s, p}});
}

POSENC_TEST_MAIN(TestSandwichDistanceFigure)
} // namespace tst_sandwichdistancefigure
#include "tst_sandwichdistancefigure.moc"
