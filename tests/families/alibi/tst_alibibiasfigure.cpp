// The alibi-bias figure: head K's bias under the causal mask and symmetric, cell by cell against
// the bias written here, and averaged: each pixel the exact mean over its cells, summed here cell
// by cell, at L = 1000 and at L = 65536 (per pixel in closed form, never L x L cells); masked
// pixels NaN, the colour scale from the parameters and the view.
#include "render/BiasMapPair.h"
#include "render/FigureExporter.h"
#include "render/data/DiagonalMeans.h"
#include "render/data/alibi/AlibiBiasMeans.h"
#include "render/data/alibi/AlibiBiasModel.h"
#include "support/TestMain.h"

#include "figures/RelativeSlides.h"
#include "support/AlibiReference.h"
#include "support/FigureBuilds.h"
#include "support/RelativeModels.h"

#include <QTest>

#include <cmath>

namespace tst_alibibiasfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params alibi(std::int64_t heads, std::int64_t head, std::int64_t maxLen)
{
    Params p;
    p.encoding = Encoding::Alibi;
    p.maxLen = maxLen;
    p.alibi.heads = heads;
    p.alibi.head = head;
    return p;
}

// A panel showing the whole table on `pixels` x `pixels` output pixels.
PanelExtent whole(std::int64_t maxLen, int pixels)
{
    const double end = double(maxLen) - 0.5;
    return {QSize(pixels, pixels), 1.0, {-0.5, end}, {-0.5, end}};
}

// The mean of the reference bias over a rectangle's cells, the masked ones left out; NaN where
// every cell is masked.
double referenceMean(double m, const Block &rect, AlibiMask mask)
{
    double sum = 0.0;
    std::int64_t count = 0;
    for (std::int64_t i = rect.row0; i < rect.rowEnd(); ++i)
        for (std::int64_t j = rect.col0; j < rect.colEnd(); ++j) {
            const double b = alibiref::bias(m, i, j, mask == AlibiMask::Causal);
            if (std::isfinite(b)) {
                sum += b;
                ++count;
            }
        }
    return count > 0 ? sum / double(count) : std::nan("");
}

// Every pixel of `grid`, or of its rows in `rows`, against the reference means.
void checkPixels(const HeatmapGrid &grid, double m, AlibiMask mask, int rowStep = 1)
{
    const Block &b = grid.block;
    for (int a = 0; a < grid.rows; a += rowStep)
        for (int c = 0; c < grid.cols; ++c) {
            const std::int64_t r0 = DiagonalMeans::bandStart(b.row0, b.rows, grid.rows, a);
            const std::int64_t r1 = DiagonalMeans::bandStart(b.row0, b.rows, grid.rows, a + 1);
            const std::int64_t c0 = DiagonalMeans::bandStart(b.col0, b.cols, grid.cols, c);
            const std::int64_t c1 = DiagonalMeans::bandStart(b.col0, b.cols, grid.cols, c + 1);
            const double expected = referenceMean(m, {r0, r1 - r0, c0, c1 - c0}, mask);
            const double got = grid.at(a, c);
            if (std::isnan(expected)) {
                QVERIFY2(std::isnan(got), qPrintable(u"pixel (%1, %2): %3, not masked"_s.arg(a).arg(c).arg(got)));
                continue;
            }
            QVERIFY2(std::abs(got - expected) <= 1e-6 * std::max(1.0, std::abs(expected)),
                     qPrintable(u"pixel (%1, %2) rows %3-%4 keys %5-%6: %7 vs %8"_s.arg(a)
                                    .arg(c)
                                    .arg(r0)
                                    .arg(r1 - 1)
                                    .arg(c0)
                                    .arg(c1 - 1)
                                    .arg(got)
                                    .arg(expected)));
        }
}

} // namespace

class TestAlibiBiasFigure : public QObject
{
    Q_OBJECT

private slots:
    void everyHeadOfTwelveCellByCell();
    void pixelsAreTheExactMeanOfTheirCells_data();
    void pixelsAreTheExactMeanOfTheirCells();
    void symmetricAndCausalAreEqualBelowTheDiagonal();
    void tableOf65536PositionsIsDrawnPerPixel();
    void colourScaleComesFromTheParametersAndTheView();
    void figureIsRegisteredAndExports();
    void bloomFitsASlide();
    void hoverWordsTheCellAndItsBias();
};

void TestAlibiBiasFigure::everyHeadOfTwelveCellByCell()
{
    // 12 heads, each head's 16 x 16 matrix on 64 pixels: one cell a pixel.
    const std::vector<double> slopes = alibiref::slopes(12);
    for (std::int64_t head = 1; head <= 12; ++head) {
        const auto data = AlibiBiasModel::compute(alibi(12, head, 16), whole(16, 64), whole(16, 64), nullptr);
        QVERIFY(data);
        QCOMPARE(data->slope, slopes[std::size_t(head - 1)]);
        for (const auto &[grid, mask] :
             {std::pair {&data->causal, AlibiMask::Causal}, std::pair {&data->symmetric, AlibiMask::Symmetric}}) {
            QVERIFY(grid->isCellByCell());
            for (int i = 0; i < 16; ++i)
                for (int j = 0; j < 16; ++j) {
                    const double expected = alibiref::bias(data->slope, i, j, mask == AlibiMask::Causal);
                    const float got = grid->at(i, j);
                    if (std::isinf(expected))
                        QVERIFY2(std::isnan(got), qPrintable(u"head %1 (%2, %3)"_s.arg(head).arg(i).arg(j)));
                    else
                        QCOMPARE(got, float(expected));
                }
        }
    }
}

void TestAlibiBiasFigure::pixelsAreTheExactMeanOfTheirCells_data()
{
    QTest::addColumn<qint64>("maxLen");
    QTest::addColumn<int>("pixels");
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::newRow("1000 on 37 pixels") << qint64(1000) << 37 << -0.5 << 999.5;
    QTest::newRow("1000 on 100 pixels, rows 100-899") << qint64(1000) << 100 << 99.5 << 899.5;
    QTest::newRow("300 on 299 pixels") << qint64(300) << 299 << -0.5 << 299.5;
}

void TestAlibiBiasFigure::pixelsAreTheExactMeanOfTheirCells()
{
    QFETCH(qint64, maxLen);
    QFETCH(int, pixels);
    QFETCH(double, lower);
    QFETCH(double, upper);
    const Params p = alibi(8, 3, maxLen);
    const PanelExtent panel {QSize(pixels, pixels), 1.0, {lower, upper}, {lower, upper}};
    const auto data = AlibiBiasModel::compute(p, panel, panel, nullptr);
    QVERIFY(data);
    QVERIFY(!data->causal.isCellByCell());
    checkPixels(data->causal, data->slope, AlibiMask::Causal);
    checkPixels(data->symmetric, data->slope, AlibiMask::Symmetric);
}

void TestAlibiBiasFigure::symmetricAndCausalAreEqualBelowTheDiagonal()
{
    const auto data = AlibiBiasModel::compute(alibi(12, 9, 500), whole(500, 64), whole(500, 64), nullptr);
    QVERIFY(data);
    const HeatmapGrid &c = data->causal, &s = data->symmetric;
    int below = 0;
    for (int a = 0; a < c.rows; ++a)
        for (int b = 0; b < c.cols; ++b) {
            const Block &blk = c.block;
            const std::int64_t r0 = DiagonalMeans::bandStart(blk.row0, blk.rows, c.rows, a);
            const std::int64_t c1 = DiagonalMeans::bandStart(blk.col0, blk.cols, c.cols, b + 1);
            if (c1 - 1 > r0)
                continue; // a key after a query in the pixel
            QCOMPARE(c.at(a, b), s.at(a, b));
            ++below;
        }
    QVERIFY(below > 64 * 63 / 2 - 64);
}

void TestAlibiBiasFigure::tableOf65536PositionsIsDrawnPerPixel()
{
    // L = 65536 on 512 pixels: 128 x 128 cells a pixel, never the 2^32 cells; every 37th row of
    // pixels checked against the mean summed cell by cell here.
    const Params p = alibi(8, 8, 65536);
    const auto data = AlibiBiasModel::compute(p, whole(65536, 512), whole(65536, 512), nullptr);
    QVERIFY(data);
    QCOMPARE(data->causal.rows, 512);
    QCOMPARE(data->causal.cols, 512);
    checkPixels(data->causal, data->slope, AlibiMask::Causal, 37);
    checkPixels(data->symmetric, data->slope, AlibiMask::Symmetric, 37);
    QCOMPARE(data->lowest, -data->slope * 65535.0);
}

void TestAlibiBiasFigure::colourScaleComesFromTheParametersAndTheView()
{
    const Params p = alibi(8, 1, 1000);
    // The whole table: -m (L - 1), at any resolution.
    for (const int pixels : {50, 300, 999}) {
        const auto data = AlibiBiasModel::compute(p, whole(1000, pixels), whole(1000, pixels), nullptr);
        QCOMPARE(data->lowest, -0.5 * 999.0);
    }
    // Queries and keys 100..199: the farthest |i - j| in view is 99.
    const PanelExtent part {QSize(200, 200), 1.0, {99.5, 199.5}, {99.5, 199.5}};
    QCOMPARE(AlibiBiasModel::compute(p, part, part, nullptr)->lowest, -0.5 * 99.0);
    QCOMPARE(AlibiBiasModel::lowest(0.25, {10, 5, 0, 3}), -0.25 * 14.0);
}

void TestAlibiBiasFigure::figureIsRegisteredAndExports()
{
    const FigureSize size = FigureSize::fromPixels(QSize(900, 500));
    const auto built = FigureBuilds::build(u"alibi-bias"_s, alibi(12, 5, 65536), size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QImage image = FigureExporter::image(built->plot(), size);
    QCOMPARE(image.size(), QSize(900, 500));
    // The masked grey is drawn: the causal panel's upper right holds it.
    bool grey = false;
    const QColor masked = BiasMapFigure::maskedColor();
    for (int y = 0; y < image.height() && !grey; ++y)
        for (int x = 0; x < image.width() / 2 && !grey; ++x)
            grey = image.pixelColor(x, y) == masked;
    QVERIFY(grey);
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"head K = 5"_s), qPrintable(texts));
    QVERIFY2(texts.contains(u"exact mean"_s), qPrintable(texts));
    // --positions within the table, named with its range when not.
    const auto &model = FigureBuilds::figure(u"alibi-bias"_s).model();
    QCOMPARE(model.inputs({}), QList<Quantity> {Quantity::AlibiBias});
    // Export data: the alibi-bias cells in view, whole cells of a zoomed view.
    FigureState zoomed;
    zoomed.view.insert(u"queries"_s, {99.5, 199.7});
    zoomed.view.insert(u"keys"_s, {-0.5, 49.5});
    const auto table = model.table(alibi(12, 5, 65536), zoomed);
    QVERIFY(table && table->quantity == Quantity::AlibiBias);
    QCOMPARE(table->block, (Block {100, 101, 0, 50}));
    FigureState state;
    state.options.insert(u"positions"_s, u"0:70000"_s);
    const auto problems = model.check(alibi(12, 5, 65536), state);
    QCOMPARE(problems.size(), 1);
    QVERIFY(problems[0].allowed.contains(u"65536"_s));
}

void TestAlibiBiasFigure::bloomFitsASlide()
{
    Params twelve = alibi(12, 12, 64);
    twelve.alibi.mask = AlibiMask::Symmetric;
    RelativeSlides::check(u"alibi-bias"_s,
                          {{u"bloom-560m"_s, relativemodels::bloom560m()}, {u"12-heads-64"_s, twelve}});
}

void TestAlibiBiasFigure::hoverWordsTheCellAndItsBias()
{
    // Cells of both panels under the mouse: the query as the position, the key in the words, the
    // reference's bias as the value, and no value but "masked" after the query in the causal panel.
    const Params p = alibi(12, 5, 64);
    const auto built = FigureBuilds::build(u"alibi-bias"_s, p, FigureSize::fromPixels(QSize(900, 500)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const Engine engine(p);
    const double m = alibiref::slopes(12)[4];
    for (const auto &[query, key] : {std::pair {10, 3}, std::pair {3, 10}, std::pair {40, 40}, std::pair {63, 0}})
        for (const int panel : {0, 1}) {
            const auto point = FigureBuilds::hoverCell(*built, panel, query, key, engine);
            QVERIFY(point);
            const QString where = u"panel %1, (%2, %3): %4"_s.arg(panel).arg(query).arg(key).arg(point->valueName);
            QCOMPARE(point->position, query);
            QVERIFY2(point->valueName.contains(u"key j = %1,"_s.arg(key)), qPrintable(where));
            const double bias = alibiref::bias(m, query, key, panel == 0);
            if (std::isfinite(bias)) {
                QVERIFY2(point->value && std::abs(*point->value - bias) <= 1e-12 * std::max(1.0, std::abs(bias)),
                         qPrintable(where));
            } else {
                QVERIFY2(!point->value && point->valueName.contains(u"masked"_s), qPrintable(where));
            }
        }
}

POSENC_TEST_MAIN(TestAlibiBiasFigure)
} // namespace tst_alibibiasfigure
#include "tst_alibibiasfigure.moc"
