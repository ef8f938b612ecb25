#include "render/HeatmapResampler.h"

#include "../core/Reference.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;
using namespace posenc;

Q_DECLARE_METATYPE(posenc::Block)

namespace {

// Overlap of [a0, a1) and [b0, b1).
double overlap(double a0, double a1, double b0, double b1)
{
    return std::max(0.0, std::min(a1, b1) - std::max(a0, b0));
}

// The area mean of PE over grid cell (a, b), from the float64 formula: every table cell
// weighted by the area of it under the cell's rectangle, written from the definition.
double referenceMean(const Params &p, const Block &block, int rows, int cols, int a, int b)
{
    const double rh = double(block.rows) / rows, cw = double(block.cols) / cols;
    const double y0 = block.row0 + a * rh, y1 = y0 + rh;
    const double x0 = block.col0 + b * cw, x1 = x0 + cw;
    double sum = 0.0, area = 0.0;
    for (auto r = std::int64_t(std::floor(y0)); r < std::int64_t(std::ceil(y1)); ++r)
        for (auto c = std::int64_t(std::floor(x0)); c < std::int64_t(std::ceil(x1)); ++c) {
            const double w = overlap(y0, y1, double(r), r + 1.0) * overlap(x0, x1, double(c), c + 1.0);
            sum += w * reference::exactValue(r, c, p.dModel, p.base, p.layout);
            area += w;
        }
    return sum / area;
}

Params sized(std::int64_t d, std::int64_t L)
{
    Params p;
    p.dModel = d;
    p.maxLen = L;
    return p;
}

} // namespace

class TestHeatmapResampler : public QObject
{
    Q_OBJECT

private slots:
    void fewCellsAreShownOneToOne();
    void gridCellsAreAreaMeans_data();
    void gridCellsAreAreaMeans();
    void neverMoreCellsThanPixels();
    void fastColumnsAverageOutInsteadOfAliasing();
    void overBudgetSamplesRowsWithinTheBudget();
    void cancelledGivesNothing();
    void refusedBlockGivesNothing();
    void visibleBlockCoversWholeCellsInsideTheTable_data();
    void visibleBlockCoversWholeCellsInsideTheTable();
};

void TestHeatmapResampler::fewCellsAreShownOneToOne()
{
    const Params p = sized(64, 100);
    const Engine engine(p);
    const Block block {10, 30, 5, 20};
    const auto grid = HeatmapResampler::resample(engine, {Quantity::Pe, block, 400, 300});
    QVERIFY(grid);
    QCOMPARE(grid->rows, 30);
    QCOMPARE(grid->cols, 20);
    QCOMPARE(grid->rowCoverage, 1.0);
    for (int a = 0; a < grid->rows; ++a)
        for (int b = 0; b < grid->cols; ++b) {
            const double expected = reference::exactValue(block.row0 + a, block.col0 + b, p.dModel, p.base, p.layout);
            QVERIFY2(std::abs(grid->at(a, b) - expected) < 1e-6, qPrintable(u"cell %1, %2"_s.arg(a).arg(b)));
        }
}

void TestHeatmapResampler::gridCellsAreAreaMeans_data()
{
    QTest::addColumn<Block>("block");
    QTest::addColumn<int>("pixelRows");
    QTest::addColumn<int>("pixelCols");
    QTest::newRow("whole table, non-integer ratios") << Block {0, 1000, 0, 96} << 77 << 41;
    QTest::newRow("integer ratios") << Block {0, 1000, 0, 96} << 100 << 48;
    QTest::newRow("zoomed block") << Block {333, 257, 17, 61} << 50 << 13;
    QTest::newRow("one pixel") << Block {0, 50, 0, 10} << 1 << 1;
}

void TestHeatmapResampler::gridCellsAreAreaMeans()
{
    QFETCH(Block, block);
    QFETCH(int, pixelRows);
    QFETCH(int, pixelCols);
    const Params p = sized(96, 1000);
    const Engine engine(p);
    const auto grid = HeatmapResampler::resample(engine, {Quantity::Pe, block, pixelRows, pixelCols});
    QVERIFY(grid);
    QCOMPARE(grid->rows, pixelRows);
    QCOMPARE(grid->cols, pixelCols);
    QCOMPARE(grid->rowCoverage, 1.0);
    for (int a = 0; a < grid->rows; ++a)
        for (int b = 0; b < grid->cols; ++b) {
            const double expected = referenceMean(p, block, grid->rows, grid->cols, a, b);
            QVERIFY2(std::abs(grid->at(a, b) - expected) < 2e-6,
                     qPrintable(u"cell %1, %2: %3 vs %4"_s.arg(a).arg(b).arg(grid->at(a, b)).arg(expected)));
        }
}

void TestHeatmapResampler::neverMoreCellsThanPixels()
{
    const Engine engine(sized(1024, 8192));
    const auto grid = HeatmapResampler::resample(engine, {Quantity::Output, {0, 8192, 0, 1024}, 311, 173});
    QVERIFY(grid);
    QCOMPARE(grid->rows, 311);
    QCOMPARE(grid->cols, 173);
    QCOMPARE(grid->values.size(), std::size_t(311 * 173));
}

void TestHeatmapResampler::fastColumnsAverageOutInsteadOfAliasing()
{
    // Column 0 is sin(p): a period of 6.28 positions. Shown on 100 pixel rows for 8192
    // positions, point sampling would alias it into a false pattern with values up to 1;
    // area means over ~82 positions are all close to 0 (at most 2 / 82 for a sine).
    const Engine engine(sized(512, 8192));
    const auto grid = HeatmapResampler::resample(engine, {Quantity::Pe, {0, 8192, 0, 2}, 100, 2});
    QVERIFY(grid);
    for (int a = 0; a < grid->rows; ++a)
        for (int b = 0; b < grid->cols; ++b)
            QVERIFY2(std::abs(grid->at(a, b)) < 2.0 / 81.0, qPrintable(u"row %1: %2"_s.arg(a).arg(grid->at(a, b))));
}

void TestHeatmapResampler::overBudgetSamplesRowsWithinTheBudget()
{
    // A slowly varying column (the last cosine, w ~ 1e-4) is nearly 1 everywhere: its sampled
    // means must be too, and no more rows than the budget allows are computed.
    const Params p = sized(512, 100000);
    const Engine engine(p);
    HeatmapRequest request {Quantity::Pe, {0, 100000, 0, 512}, 200, 512};
    request.cellBudget = 200 * 4 * 512;
    const auto grid = HeatmapResampler::resample(engine, request);
    QVERIFY(grid);
    QCOMPARE(grid->rows, 200);
    QVERIFY(grid->rowCoverage <= double(request.cellBudget / 512) / 100000.0 + 1e-12);
    QVERIFY(grid->rowCoverage > 0.0);
    for (int a = 0; a < grid->rows; ++a) {
        QVERIFY(std::abs(grid->at(a, 511)) <= 1.0);
        // Its four samples sit symmetrically about the stratum's centre.
        const double expected = std::cos((a * 500.0 + 250.0) * reference::omega(255, 512, p.base));
        QVERIFY2(std::abs(grid->at(a, 511) - expected) < 0.003, qPrintable(u"row %1"_s.arg(a)));
    }
}

void TestHeatmapResampler::cancelledGivesNothing()
{
    const Engine engine(sized(256, 4096));
    const std::atomic<bool> cancel {true};
    QVERIFY(!HeatmapResampler::resample(engine, {Quantity::Pe, {0, 4096, 0, 256}, 100, 100}, {0, &cancel}));
}

void TestHeatmapResampler::refusedBlockGivesNothing()
{
    const Engine engine(sized(16, 16));
    QVERIFY(!HeatmapResampler::resample(engine, {Quantity::Pe, {0, 17, 0, 16}, 10, 10}));
    QVERIFY(!HeatmapResampler::resample(engine, {Quantity::Pe, {0, 0, 0, 16}, 10, 10}));
}

void TestHeatmapResampler::visibleBlockCoversWholeCellsInsideTheTable_data()
{
    QTest::addColumn<double>("colLo");
    QTest::addColumn<double>("colHi");
    QTest::addColumn<double>("rowLo");
    QTest::addColumn<double>("rowHi");
    QTest::addColumn<Block>("expected");
    QTest::newRow("whole table") << -0.5 << 99.5 << -0.5 << 49.5 << Block {0, 50, 0, 100};
    QTest::newRow("zoomed out past the edges") << -40.0 << 300.0 << -10.0 << 90.0 << Block {0, 50, 0, 100};
    QTest::newRow("part of two cells") << 10.2 << 11.1 << 3.7 << 3.9 << Block {4, 1, 10, 2};
    QTest::newRow("outside") << 200.0 << 300.0 << 0.0 << 10.0 << Block {0, 11, 100, 0};
}

void TestHeatmapResampler::visibleBlockCoversWholeCellsInsideTheTable()
{
    QFETCH(double, colLo);
    QFETCH(double, colHi);
    QFETCH(double, rowLo);
    QFETCH(double, rowHi);
    QFETCH(Block, expected);
    const Block got = HeatmapResampler::visibleBlock({50, 100}, colLo, colHi, rowLo, rowHi);
    QVERIFY2(got == expected, qPrintable(u"%1 %2 %3 %4"_s.arg(got.row0).arg(got.rows).arg(got.col0).arg(got.cols)));
}

QTEST_MAIN(TestHeatmapResampler)
#include "tst_heatmapresampler.moc"
