// The sandwich-bias figure: head K's bias as NeMo's causal table holds it and bidirectional, cell
// by cell against the float64 bias written here (support/SandwichReference.h), and averaged: each
// pixel the exact mean over its cells, summed here by offset, at L = 700 (pixels across the
// diagonal in partial rows) and at L = 65536 and 2^24 (per pixel in closed form, never L x L cells,
// checked on rows of pixels); NeMo's preset as a 14-pt slide.
#include "render/data/DiagonalMeans.h"
#include "render/data/sandwich/SandwichBiasMeans.h"
#include "render/data/sandwich/SandwichBiasModel.h"
#include "support/TestMain.h"

#include "figures/RelativeSlides.h"
#include "support/FigureBuilds.h"
#include "support/SandwichReference.h"

#include <QTest>

#include <cmath>

namespace tst_sandwichbiasfigure {
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

PanelExtent whole(std::int64_t maxLen, int pixels)
{
    const double end = double(maxLen) - 0.5;
    return {QSize(pixels, pixels), 1.0, {-0.5, end}, {-0.5, end}};
}

// The mean of the reference bias over a rectangle's cells, in long double, summed by the key's
// offset t = j - i: each offset's bias times the cells of the rectangle that have it.
double referenceMean(const Params &p, const Block &rect, bool bidirectional)
{
    const SandwichParams &s = p.sandwich;
    long double sum = 0.0L;
    for (std::int64_t t = rect.col0 - (rect.rowEnd() - 1); t <= rect.colEnd() - 1 - rect.row0; ++t) {
        const std::int64_t cells = std::max<std::int64_t>(
            0, std::min(rect.rowEnd(), rect.colEnd() - t) - std::max(rect.row0, rect.col0 - t));
        const double bias = sandwichref::bias(s.heads, s.head, s.headDim, std::max<std::int64_t>(0, -t),
                                              std::max<std::int64_t>(0, t), bidirectional);
        sum += static_cast<long double>(cells) * bias;
    }
    return double(sum / static_cast<long double>(rect.rows * rect.cols));
}

void checkPixels(const Params &p, const HeatmapGrid &grid, bool bidirectional, int rowStep, int colStep)
{
    const Block &b = grid.block;
    for (int a = 0; a < grid.rows; a += rowStep)
        for (int c = 0; c < grid.cols; c += colStep) {
            const std::int64_t r0 = DiagonalMeans::bandStart(b.row0, b.rows, grid.rows, a);
            const std::int64_t r1 = DiagonalMeans::bandStart(b.row0, b.rows, grid.rows, a + 1);
            const std::int64_t c0 = DiagonalMeans::bandStart(b.col0, b.cols, grid.cols, c);
            const std::int64_t c1 = DiagonalMeans::bandStart(b.col0, b.cols, grid.cols, c + 1);
            const double expected = referenceMean(p, {r0, r1 - r0, c0, c1 - c0}, bidirectional);
            const double got = grid.at(a, c);
            QVERIFY2(std::abs(got - expected) <= 2e-6 * std::max(1.0, std::abs(expected)),
                     qPrintable(u"pixel (%1, %2) rows %3-%4 keys %5-%6: %7 vs %8"_s.arg(a)
                                    .arg(c)
                                    .arg(r0)
                                    .arg(r1 - 1)
                                    .arg(c0)
                                    .arg(c1 - 1)
                                    .arg(got, 0, 'g', 9)
                                    .arg(expected, 0, 'g', 9)));
        }
}

} // namespace

class TestSandwichBiasFigure : public QObject
{
    Q_OBJECT

private slots:
    void cellByCellIsTheBias();
    void pixelsAreExactMeans_data();
    void pixelsAreExactMeans();
    void farPixelsAreExactMeans();
    void theCausalPanelSaysWhatItHoldsAfterTheQuery();
    void nemosPresetFitsASlide();
    void hoverWordsTheCellAndItsBias();
};

void TestSandwichBiasFigure::cellByCellIsTheBias()
{
    const Params p = sandwich(12, 5, 33, 60);
    const auto data = SandwichBiasModel::compute(p, whole(60, 200), whole(60, 200), nullptr);
    QVERIFY(data);
    for (const auto &[grid, bidirectional] :
         {std::pair {&data->causal, false}, std::pair {&data->bidirectional, true}}) {
        QVERIFY(grid->isCellByCell());
        for (int i = 0; i < 60; ++i)
            for (int j = 0; j < 60; ++j) {
                const double expected = sandwichref::bias(12, 5, 33, i, j, bidirectional);
                QVERIFY2(std::abs(grid->at(i, j) - expected) <= 1e-6 * std::max(1.0, std::abs(expected)),
                         qPrintable(u"(%1, %2): %3 vs %4"_s.arg(i).arg(j).arg(grid->at(i, j)).arg(expected)));
            }
    }
    // Odd d: the causal keys after the query hold 1/2 / (8K/H), the highest value in view.
    QCOMPARE(data->afterQuery, 0.5 / (5.0 * 8.0 / 12.0));
    QCOMPARE(float(data->highest), data->causal.at(0, 59));
}

void TestSandwichBiasFigure::pixelsAreExactMeans_data()
{
    QTest::addColumn<qint64>("headDim");
    QTest::addColumn<int>("pixels");
    QTest::newRow("d 64, 700 on 97 pixels") << qint64(64) << 97;
    QTest::newRow("d 7, 700 on 300 pixels") << qint64(7) << 300;
    QTest::newRow("d 2, 700 on 64 pixels") << qint64(2) << 64;
}

void TestSandwichBiasFigure::pixelsAreExactMeans()
{
    QFETCH(qint64, headDim);
    QFETCH(int, pixels);
    const Params p = sandwich(16, 3, headDim, 700);
    const auto data = SandwichBiasModel::compute(p, whole(700, pixels), whole(700, pixels), nullptr);
    QVERIFY(data);
    QVERIFY(!data->causal.isCellByCell());
    checkPixels(p, data->causal, false, 1, 1);
    checkPixels(p, data->bidirectional, true, 1, 1);
}

void TestSandwichBiasFigure::farPixelsAreExactMeans()
{
    // 65536 and 2^24 positions on 64 pixels: closed form per pixel; a few pixels' cells summed here
    // (each 1024 x 1024 cells at 65536) against them, on and off the diagonal.
    for (const std::int64_t length : {std::int64_t(65536), std::int64_t(1) << 24}) {
        const Params p = sandwich(12, 1, 64, length);
        const auto data = SandwichBiasModel::compute(p, whole(length, 64), whole(length, 64), nullptr);
        QVERIFY(data);
        QCOMPARE(data->causal.rows, 64);
        if (length == 65536) {
            checkPixels(p, data->causal, false, 21, 13);
            checkPixels(p, data->bidirectional, true, 29, 17);
        }
        // Far below the diagonal, where a pixel's 2^18 x 2^18 cells turn every term many times,
        // it averages the bias's far mean, -d/2 / (8/12) = -48.
        if (length > 65536)
            QVERIFY2(std::abs(data->bidirectional.at(63, 0) + 48.0) < 0.05,
                     qPrintable(QString::number(data->bidirectional.at(63, 0))));
        for (const float v : data->causal.values)
            QVERIFY(std::isfinite(v));
    }
}

void TestSandwichBiasFigure::theCausalPanelSaysWhatItHoldsAfterTheQuery()
{
    const auto built
        = FigureBuilds::build(u"sandwich-bias"_s, sandwich(12, 1, 64, 512), FigureSize::fromPixels(QSize(1200, 700)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"not −inf"_s) && texts.contains(u"distance 0"_s), qPrintable(texts));
    QVERIFY2(texts.contains(u"head K = 1 of 12"_s), qPrintable(texts));
}

void TestSandwichBiasFigure::nemosPresetFitsASlide()
{
    Params p = sandwich(12, 1, 64, 512);
    p.dModel = 768;
    RelativeSlides::check(u"sandwich-bias"_s, {{u"nemo-gpt-sandwich"_s, p}});
}

void TestSandwichBiasFigure::hoverWordsTheCellAndItsBias()
{
    // Cells of both panels under the mouse: the query as the position, the key in the words, the
    // reference's bias as the value (NeMo's distance 0 after the query in the causal panel).
    const Params p = sandwich(8, 3, 64, 48);
    const auto built = FigureBuilds::build(u"sandwich-bias"_s, p, FigureSize::fromPixels(QSize(900, 500)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const Engine engine(p);
    for (const auto &[query, key] : {std::pair {10, 3}, std::pair {3, 10}, std::pair {20, 20}, std::pair {47, 0}})
        for (const int panel : {0, 1}) {
            const auto point = FigureBuilds::hoverCell(*built, panel, query, key, engine);
            QVERIFY(point);
            const QString where = u"panel %1, (%2, %3): %4"_s.arg(panel).arg(query).arg(key).arg(point->valueName);
            QCOMPARE(point->position, query);
            QVERIFY2(point->valueName.contains(u"key j = %1,"_s.arg(key)), qPrintable(where));
            const double bias = sandwichref::bias(8, 3, 64, query, key, panel == 1);
            QVERIFY2(point->value && std::abs(*point->value - bias) <= 1e-9 * std::max(1.0, std::abs(bias)),
                     qPrintable(where + u" vs %1"_s.arg(bias)));
        }
}

POSENC_TEST_MAIN(TestSandwichBiasFigure)
} // namespace tst_sandwichbiasfigure
#include "tst_sandwichbiasfigure.moc"
