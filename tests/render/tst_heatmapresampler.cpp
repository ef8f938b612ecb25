#include "render/data/HeatmapResampler.h"

#include "../core/Reference.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;
using namespace posenc;

Q_DECLARE_METATYPE(posenc::Block)

namespace {

// The weight of table cell i (of `total`) in grid cell g (of n): one to one when they fit;
// else a Gaussian of 0.6 grid cells around the grid cell's centre, cut at 2 grid cells and
// shifted down to reach zero there, written from the definition in table coordinates.
double gaussian(std::int64_t i, std::int64_t total, std::int64_t n, std::int64_t g)
{
    if (n >= total)
        return i == g ? 1.0 : 0.0;
    const double width = double(total) / double(n); // table cells per grid cell
    const double centre = (double(g) + 0.5) * width; // of grid cell g
    const double distance = std::abs(double(i) + 0.5 - centre) / width;
    const auto g0 = [](double x) { return std::exp(-0.5 * (x / 0.6) * (x / 0.6)); };
    return std::max(0.0, g0(distance) - g0(2.0));
}

// The filtered PE of grid cell (a, b) from the float64 formula.
double referenceMean(const Params &p, const Block &block, int rows, int cols, int a, int b)
{
    double sum = 0.0, weight = 0.0;
    for (std::int64_t r = 0; r < block.rows; ++r) {
        const double wr = gaussian(r, block.rows, rows, a);
        if (wr == 0.0)
            continue;
        for (std::int64_t c = 0; c < block.cols; ++c) {
            const double w = wr * gaussian(c, block.cols, cols, b);
            sum += w * reference::exactValue(block.row0 + r, block.col0 + c, p.dModel, p.base, p.layout);
            weight += w;
        }
    }
    return sum / weight;
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
    void gridCellsAreFilteredMeans_data();
    void gridCellsAreFilteredMeans();
    void neverMoreCellsThanPixels();
    void fastColumnsAverageOutInsteadOfAliasing();
    void midFrequencyColumnsLeaveNoFringes();
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

void TestHeatmapResampler::gridCellsAreFilteredMeans_data()
{
    QTest::addColumn<Block>("block");
    QTest::addColumn<int>("pixelRows");
    QTest::addColumn<int>("pixelCols");
    QTest::newRow("whole table, non-integer ratios") << Block {0, 1000, 0, 96} << 77 << 41;
    QTest::newRow("integer ratios") << Block {0, 1000, 0, 96} << 100 << 48;
    QTest::newRow("zoomed block") << Block {333, 257, 17, 61} << 50 << 13;
    QTest::newRow("one pixel") << Block {0, 50, 0, 10} << 1 << 1;
}

void TestHeatmapResampler::gridCellsAreFilteredMeans()
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
    // means over ~82 positions are all close to 0.
    const Engine engine(sized(512, 8192));
    const auto grid = HeatmapResampler::resample(engine, {Quantity::Pe, {0, 8192, 0, 2}, 100, 2});
    QVERIFY(grid);
    for (int a = 0; a < grid->rows; ++a)
        for (int b = 0; b < grid->cols; ++b)
            QVERIFY2(std::abs(grid->at(a, b)) < 2.0 / 81.0, qPrintable(u"row %1: %2"_s.arg(a).arg(grid->at(a, b))));
}

void TestHeatmapResampler::midFrequencyColumnsLeaveNoFringes()
{
    // The fringes a box average left (seen at L = 8192 on 350 pixel rows): a column whose
    // wavelength is ~1.4 grid rows kept ~0.37 of its amplitude and aliased into arcs.
    const Params p = sized(1024, 8192);
    const Engine engine(p);
    const int gridRows = 350;
    const double rowsPerCell = 8192.0 / gridRows;
    // The pair whose wavelength is closest to 1.43 grid cells.
    std::int64_t pair = 0;
    for (std::int64_t i = 0; i < 512; ++i)
        if (std::abs(2 * M_PI / reference::omega(i, 1024, p.base) - 1.43 * rowsPerCell)
            < std::abs(2 * M_PI / reference::omega(pair, 1024, p.base) - 1.43 * rowsPerCell))
            pair = i;
    const auto grid = HeatmapResampler::resample(engine, {Quantity::Pe, {0, 8192, 2 * pair, 1}, gridRows, 1});
    QVERIFY(grid);
    double worst = 0.0;
    for (int a = 2; a < grid->rows - 2; ++a)
        worst = std::max(worst, double(std::abs(grid->at(a, 0))));
    QVERIFY2(worst < 0.06, qPrintable(u"pair %1: fringes up to %2"_s.arg(pair).arg(worst)));
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
