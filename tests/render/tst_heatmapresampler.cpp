#include "render/Colormaps.h"
#include "render/HeatmapPanel.h"
#include "render/data/Detail.h"
#include "render/data/HeatmapResampler.h"
#include "support/TestMain.h"

#include "HeatmapReference.h"
#include "support/TestParams.h"

#include "core/learned/LearnedParams.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

namespace tst_heatmapresampler {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

using TestParams::sized;

} // namespace

using namespace heatmapReference;

class TestHeatmapResampler : public QObject
{
    Q_OBJECT

private slots:
    void fewCellsAreShownOneToOne();
    void gridCellsAreFilteredMeans_data();
    void gridCellsAreFilteredMeans();
    void largeTablesMatchTheFilterDirectly_data();
    void largeTablesMatchTheFilterDirectly();
    void cellsAtTheLargestLengthMatchDirectSums();
    void neverMoreCellsThanPixels();
    void fastColumnsAverageOutInsteadOfAliasing();
    void midFrequencyColumnsLeaveNoFringes();
    void fastColumnsAreTheColormapsZeroAtLargeL();
    void peIsExactInOnePass();
    void aLoadedTablesColoursSpanItsValues();
    void lastPassIsTheExactAreaAverage_data();
    void lastPassIsTheExactAreaAverage();
    void previewsHoldThePeExactly();
    void lastPassWithinABoundOfCells();
    void wideRowsCountAtWhatTheyCost();
    void sameCellsWhateverTheThreads_data();
    void sameCellsWhateverTheThreads();
    void cancelledGivesNothing();
    void refusedBlockGivesNothing();
    void visibleBlockCoversWholeCellsInsideTheTable_data();
    void visibleBlockCoversWholeCellsInsideTheTable();
    void spreadIsTheWeightedSpreadOfThePe_data();
    void spreadIsTheWeightedSpreadOfThePe();
    void fastColumnsSpreadAsAFullSwing();
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
            const double expected = reference::exactValue(block.row0 + a, block.col0 + b, p.dModel, p.sinusoidal.base, p.sinusoidal.layout);
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
    const QString off = worstDifference(*grid, referenceGrid(peCell(p), block, pixelRows, pixelCols), 2e-6);
    QVERIFY2(off.isEmpty(), qPrintable(off));
}

void TestHeatmapResampler::largeTablesMatchTheFilterDirectly_data()
{
    QTest::addColumn<Layout>("layout");
    QTest::addColumn<std::int64_t>("dModel");
    QTest::addColumn<Block>("block");
    QTest::addColumn<int>("pixelRows");
    QTest::addColumn<int>("pixelCols");
    // Thousands of rows a pixel: the PE through its closed forms, edges and all.
    QTest::newRow("interleaved, whole") << Layout::Interleaved << std::int64_t(48) << Block {0, 200000, 0, 48} << 61
                                        << 20;
    QTest::newRow("split, odd d, zoomed")
        << Layout::Split << std::int64_t(37) << Block {123457, 65432, 3, 30} << 47 << 11;
}

void TestHeatmapResampler::largeTablesMatchTheFilterDirectly()
{
    QFETCH(Layout, layout);
    QFETCH(std::int64_t, dModel);
    QFETCH(Block, block);
    QFETCH(int, pixelRows);
    QFETCH(int, pixelCols);
    Params p = sized(dModel, 200000 + 65432);
    p.sinusoidal.layout = layout;
    const Engine engine(p);
    const auto grid = HeatmapResampler::resample(engine, {Quantity::Pe, block, pixelRows, pixelCols});
    QVERIFY(grid);
    QVERIFY(!grid->isPreview());
    QCOMPARE(grid->passes, 1);
    const QString off = worstDifference(*grid, referenceGrid(peCell(p), block, pixelRows, pixelCols), 1e-6);
    QVERIFY2(off.isEmpty(), qPrintable(off));
}

void TestHeatmapResampler::cellsAtTheLargestLengthMatchDirectSums()
{
    // L = 2^24 on 400 rows: sigma ~ 25,000 rows. A few cells, at the edges and inside, summed
    // directly over every row within 9 sigma of them.
    const Params p = sized(64, std::int64_t(1) << 24);
    const Engine engine(p);
    const Block block {0, p.maxLen, 0, 64};
    const auto grid = HeatmapResampler::resample(engine, {Quantity::Pe, block, 400, 16});
    QVERIFY(grid);
    QVERIFY(!grid->isPreview());
    const double width = double(p.maxLen) / 400.0;
    for (const auto &[a, b] : {std::pair {0, 15}, std::pair {2, 14}, std::pair {203, 15}, std::pair {399, 13}}) {
        const double centre = (a + 0.5) * width;
        const auto lo = std::max<std::int64_t>(0, std::int64_t(centre - 9.0 * 0.6 * width));
        const auto hi = std::min<std::int64_t>(p.maxLen, std::int64_t(centre + 9.0 * 0.6 * width));
        std::vector<double> filtered(64, 0.0);
        double rowTotal = 0.0;
        for (std::int64_t r = lo; r < hi; ++r) {
            const double w = gaussian(r, p.maxLen, 400, a);
            rowTotal += w;
            for (std::int64_t c = 44; c < 64; ++c) // the columns within reach of b >= 13
                filtered[std::size_t(c)] += w * reference::preciseValue(r, c, 64, p.sinusoidal.base, p.sinusoidal.layout);
        }
        double sum = 0.0, total = 0.0;
        for (std::int64_t c = 0; c < 64; ++c) {
            const double w = gaussian(c, 64, 16, b);
            sum += w * filtered[std::size_t(c)];
            total += w;
        }
        const double expected = sum / (rowTotal * total);
        QVERIFY2(std::abs(grid->at(a, b) - expected) < 1e-6,
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
        if (std::abs(2 * M_PI / reference::omega(i, 1024, p.sinusoidal.base) - 1.43 * rowsPerCell)
            < std::abs(2 * M_PI / reference::omega(pair, 1024, p.sinusoidal.base) - 1.43 * rowsPerCell))
            pair = i;
    const auto grid = HeatmapResampler::resample(engine, {Quantity::Pe, {0, 8192, 2 * pair, 1}, gridRows, 1});
    QVERIFY(grid);
    double worst = 0.0;
    for (int a = 2; a < grid->rows - 2; ++a)
        worst = std::max(worst, double(std::abs(grid->at(a, 0))));
    QVERIFY2(worst < 0.06, qPrintable(u"pair %1: fringes up to %2"_s.arg(pair).arg(worst)));
}

void TestHeatmapResampler::fastColumnsAreTheColormapsZeroAtLargeL()
{
    // The streaks of issue 13: at L = 2^20 the rows were sampled, and columns whose wavelength
    // resonated with the stride came out saturated. Columns 0-31 (wavelengths 6 to 11
    // positions) average to zero over any pixel: every shown cell must get zero's colour, the
    // white of one of the map's two middle entries (matplotlib's 256 entries meet at zero: a
    // mean of -6e-12 takes entry 127, zero itself entry 128).
    const Params p = sized(512, std::int64_t(1) << 20);
    const Engine engine(p);
    const auto grid = HeatmapResampler::resample(engine, {Quantity::Pe, {0, p.maxLen, 0, 512}, 600, 300});
    QVERIFY(grid);
    const QCPColorGradient gradient = Colormaps::gradient(Colormap::Diverging);
    const QCPRange range = HeatmapStyle::forQuantity(Quantity::Pe, *grid).dataRange;
    const QRgb zero = QCPColorGradient(gradient).color(0.0, range);
    const QRgb belowZero = QCPColorGradient(gradient).color(-1e-9, range);
    QVERIFY(QColor(zero).lightness() > 240 && QColor(belowZero).lightness() > 240);
    int coloured = 0;
    QString first;
    for (int a = 0; a < grid->rows; ++a)
        for (int b = 0; b < 16; ++b) // grid columns 0-15 reach table columns 0-33
            if (const QRgb rgb = QCPColorGradient(gradient).color(grid->at(a, b), range);
                rgb != zero && rgb != belowZero) {
                if (coloured++ == 0)
                    first = u"cell %1, %2: %3"_s.arg(a).arg(b).arg(grid->at(a, b));
            }
    QVERIFY2(coloured == 0, qPrintable(u"%1 coloured cells, first %2"_s.arg(coloured).arg(first)));
}

// A learned table of a few tenths (RoBERTa's, docs/examples' wpe) on the formula's ±1 came out
// all white: its colours span its own largest |value| of the rows in view, 0.3 here.
void TestHeatmapResampler::aLoadedTablesColoursSpanItsValues()
{
    Params p;
    p.encoding = Encoding::Learned;
    p.dModel = 3;
    p.maxLen = 2;
    RowMatrixXf values(3, 3);
    values << 5.0f, 5.0f, 5.0f, 0.1f, -0.3f, 0.2f, 0.05f, 0.25f, -0.15f;
    p.learned.table = std::make_shared<const PositionMatrix>(PositionMatrix {values, u"three rows"_s});
    p.learned.offset = 1; // row 0 (5, 5, 5) is padding, out of view
    const Engine engine(p);
    const auto grid = HeatmapResampler::resample(engine, {Quantity::Pe, {0, 2, 0, 3}, 2, 3});
    QVERIFY(grid);
    const QCPRange range = HeatmapStyle::forQuantity(Quantity::Pe, *grid).dataRange;
    QCOMPARE(range.upper, double(0.3f));
    QCOMPARE(range.lower, -double(0.3f));
}

void TestHeatmapResampler::peIsExactInOnePass()
{
    const Engine engine(sized(512, 100000));
    HeatmapRequest request {Quantity::Pe, {0, 100000, 0, 512}, 200, 512};
    request.cellBudget = 1;
    QCOMPARE(HeatmapResampler::passCount(engine, request), 1);
    const auto grid = HeatmapResampler::resample(engine, request, {}, 0);
    QVERIFY(grid);
    QVERIFY(!grid->isPreview());
    QCOMPARE(grid->passes, 1);
}

void TestHeatmapResampler::lastPassIsTheExactAreaAverage_data()
{
    QTest::addColumn<Quantity>("quantity");
    QTest::addColumn<Params>("params");
    Params input = sized(32, 40000);
    input.seed = 7;
    Params concat = input;
    concat.compose = Compose::Concat;
    concat.peDims = 12;
    Params masked = input;
    masked.dropout = 0.3;
    masked.dropoutMode = DropoutMode::MaskedFill;
    masked.seqLen = 29000;
    Params float32 = input;
    float32.sinusoidal.angles = Angles::Float32;
    float32.sinusoidal.layout = Layout::Split;
    QTest::newRow("X") << Quantity::Input << input;
    QTest::newRow("X, concat") << Quantity::Input << concat;
    QTest::newRow("Y, masked-fill") << Quantity::Output << masked;
    QTest::newRow("s*E") << Quantity::Embedding << input;
    QTest::newRow("mask") << Quantity::Mask << masked;
    QTest::newRow("PE, float32 angles") << Quantity::Pe << float32;
}

void TestHeatmapResampler::lastPassIsTheExactAreaAverage()
{
    QFETCH(Quantity, quantity);
    QFETCH(Params, params);
    const Engine engine(params);
    const Block block {0, params.maxLen, 0, engine.shape(quantity).cols};
    HeatmapRequest request {quantity, block, 40, 16};
    request.cellBudget = 40 * 2 * block.cols; // the first pass: a row or two per grid row
    const int passes = HeatmapResampler::passCount(engine, request);
    QVERIFY2(passes >= 3, qPrintable(QString::number(passes)));
    const auto first = HeatmapResampler::resample(engine, request, {}, 0);
    QVERIFY(first);
    QVERIFY(first->isPreview());
    QVERIFY(first->rowCoverage < 0.01);
    QCOMPARE(first->pass, 0);
    const auto last = HeatmapResampler::resample(engine, request, {}, passes - 1);
    QVERIFY(last);
    QVERIFY(!last->isPreview());
    QCOMPARE(last->rowCoverage, 1.0);
    QCOMPARE(last->pass, passes - 1);
    // The float64 area average of the engine's own float32 cells.
    const RowMatrixXf table = *engine.table(quantity, block);
    const double scale = std::max(1.0, double(table.cwiseAbs().maxCoeff()));
    const QString off = worstDifference(*last, referenceGrid(tableCell(table, block), block, 40, 16), 1e-6 * scale);
    QVERIFY2(off.isEmpty(), qPrintable(off));
    // Past the last pass is the last pass.
    const auto beyond = HeatmapResampler::resample(engine, request);
    QVERIFY(beyond && beyond->values == last->values);
}

void TestHeatmapResampler::previewsHoldThePeExactly()
{
    // With E = 0, X = PE: a preview of X, whose sampled part is s*E, is already exact.
    Params p = sized(64, 50000);
    p.embeddings = std::make_shared<const EmbeddingMatrix>(EmbeddingMatrix {RowMatrixXf::Zero(50000, 64), {}, {}});
    const Engine engine(p);
    HeatmapRequest request {Quantity::Input, {0, 50000, 0, 64}, 50, 32};
    request.cellBudget = 1;
    const auto preview = HeatmapResampler::resample(engine, request, {}, 0);
    const auto pe = HeatmapResampler::resample(engine, {Quantity::Pe, request.block, 50, 32});
    QVERIFY(preview && pe);
    QVERIFY(preview->isPreview());
    for (std::size_t i = 0; i < pe->values.size(); ++i)
        QVERIFY2(std::abs(preview->values[i] - pe->values[i]) < 1e-7, qPrintable(QString::number(i)));
}

void TestHeatmapResampler::lastPassWithinABoundOfCells()
{
    const Engine engine(sized(64, 100000));
    HeatmapRequest request {Quantity::Embedding, {0, 100000, 0, 64}, 100, 32};
    request.cellBudget = 100 * 64;
    const int passes = HeatmapResampler::passCount(engine, request);
    QVERIFY(passes >= 3);
    QCOMPARE(HeatmapResampler::lastPassWithin(engine, request, 100000 * 64), passes - 1);
    QCOMPARE(HeatmapResampler::lastPassWithin(engine, request, 1), 0);
    const int within = HeatmapResampler::lastPassWithin(engine, request, 100000 * 64 / 4);
    QVERIFY(within > 0 && within < passes - 1);
    const auto grid = HeatmapResampler::resample(engine, request, {}, within);
    QVERIFY(grid && grid->isPreview() && grid->rowCoverage <= 0.25);
    // The PE needs no cell computed one by one: its only pass is within any bound.
    QCOMPARE(HeatmapResampler::lastPassWithin(engine, {Quantity::Pe, {0, 100000, 0, 64}, 100, 32}, 1), 0);
}

// The audit: Y's heatmap at d 2^20 by L 2^24 ran for hours: the pass within 2^33 cells counted
// its cells alone, where a row of 2^20 columns costs about 10 times its cells. Now each wide row
// counts d / 2^16 times, and the pass chosen costs at most the cap at that rate.
void TestHeatmapResampler::wideRowsCountAtWhatTheyCost()
{
    QCOMPARE(Budget::exactCost(10, 1 << 16), 10.0 * (1 << 16));
    QCOMPARE(Budget::exactCost(10, 1 << 20), 10.0 * (1 << 20) * 16.0);
    QCOMPARE(Budget::exactRowsWithin(8192), std::int64_t(1) << 20); // X at L 2^20, d 8192 exact, as before
    QCOMPARE(Budget::exactRowsWithin(1 << 20), std::int64_t(512));
    const Params wide = sized(1 << 20, std::int64_t(1) << 24);
    const Engine engine(wide);
    HeatmapRequest request {Quantity::Output, {0, wide.maxLen, 0, wide.dModel}, 1000, 1200};
    request.cellBudget = Budget::cells(Detail::Full);
    const int pass = HeatmapResampler::lastPassWithin(engine, request, Budget::kMaxExactCells);
    const int passes = HeatmapResampler::passCount(engine, request);
    QVERIFY(passes > 1);
    QVERIFY(pass < passes - 1);
    // The chosen pass within the cap (the first pass is taken whatever it costs: a row for each
    // row of the grid), the next beyond it, both counted at the cost of their wide rows.
    if (pass > 0)
        QVERIFY(Budget::exactCost(HeatmapResampler::rowsOfPass(engine, request, pass), wide.dModel)
                <= double(Budget::kMaxExactCells));
    QVERIFY(Budget::exactCost(HeatmapResampler::rowsOfPass(engine, request, pass + 1), wide.dModel)
            > double(Budget::kMaxExactCells));
}

void TestHeatmapResampler::sameCellsWhateverTheThreads_data()
{
    QTest::addColumn<Quantity>("quantity");
    QTest::addColumn<std::int64_t>("maxLen");
    QTest::addColumn<int>("pass");
    QTest::newRow("PE at 2^20") << Quantity::Pe << (std::int64_t(1) << 20) << HeatmapResampler::kLastPass;
    QTest::newRow("X, exact") << Quantity::Input << std::int64_t(30000) << HeatmapResampler::kLastPass;
    QTest::newRow("Y, preview") << Quantity::Output << std::int64_t(30000) << 0;
}

void TestHeatmapResampler::sameCellsWhateverTheThreads()
{
    QFETCH(Quantity, quantity);
    QFETCH(std::int64_t, maxLen);
    QFETCH(int, pass);
    const Engine engine(sized(96, maxLen));
    HeatmapRequest request {quantity, {0, maxLen, 0, 96}, 300, 40};
    request.cellBudget = 300 * 96;
    const auto serial = HeatmapResampler::resample(engine, request, {1, nullptr}, pass);
    QVERIFY(serial);
    for (const int threads : {2, 3, 0}) {
        const auto threaded = HeatmapResampler::resample(engine, request, {threads, nullptr}, pass);
        QVERIFY(threaded);
        QVERIFY2(threaded->values == serial->values, qPrintable(u"%1 threads"_s.arg(threads)));
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

void TestHeatmapResampler::spreadIsTheWeightedSpreadOfThePe_data()
{
    QTest::addColumn<Quantity>("quantity");
    QTest::addColumn<qint64>("dModel");
    QTest::addColumn<qint64>("maxLen");
    QTest::addColumn<bool>("concat");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::addColumn<Layout>("layout");
    // Closed forms (rows averaged), cell by cell (2.25 rows a grid row), and the PE part of X in
    // concat's last columns. With windows of ~50 rows the fastest pairs average to 0 (their
    // variance 1/2 is taken whole), in either layout.
    QTest::newRow("PE, rows in closed form")
        << Quantity::Pe << qint64(16) << qint64(3000) << false << 60 << 16 << Layout::Interleaved;
    QTest::newRow("PE split, rows in closed form")
        << Quantity::Pe << qint64(16) << qint64(3000) << false << 60 << 16 << Layout::Split;
    QTest::newRow("PE, rows too few for the closed forms")
        << Quantity::Pe << qint64(64) << qint64(90) << false << 40 << 16 << Layout::Interleaved;
    QTest::newRow("X in concat, both averaged")
        << Quantity::Input << qint64(32) << qint64(2000) << true << 50 << 10 << Layout::Interleaved;
    QTest::newRow("X split in concat, both averaged")
        << Quantity::Input << qint64(32) << qint64(2000) << true << 50 << 10 << Layout::Split;
}

void TestHeatmapResampler::spreadIsTheWeightedSpreadOfThePe()
{
    // The spread of a grid cell is that of the PE's part along its positions: each column's
    // variance over the cell's rows, E[PE^2] - E[PE]^2 under the row weights, then the column
    // filter's mean of those variances, written from the definition in float64.
    QFETCH(Quantity, quantity);
    QFETCH(qint64, dModel);
    QFETCH(qint64, maxLen);
    QFETCH(bool, concat);
    QFETCH(int, rows);
    QFETCH(int, cols);
    QFETCH(Layout, layout);
    Params p = sized(dModel, maxLen);
    p.sinusoidal.layout = layout;
    if (concat)
        p.compose = Compose::Concat;
    const Engine engine(p);
    const std::int64_t pe0 = concat ? p.embeddingColumns() : 0;
    const auto grid = HeatmapResampler::resample(engine, {quantity, {0, maxLen, 0, dModel}, rows, cols});
    QVERIFY(grid);
    QCOMPARE(grid->spread.size(), std::size_t(rows) * cols);
    const auto pe = [&](std::int64_t r, std::int64_t c) {
        return c < pe0 ? 0.0 : reference::preciseValue(r, c - pe0, p.peColumns(), p.sinusoidal.base, p.sinusoidal.layout);
    };
    double worst = 0.0;
    for (int a = 0; a < rows; ++a) {
        std::vector<double> variance(std::size_t(dModel), 0.0);
        for (std::int64_t c = 0; c < dModel; ++c) {
            double w = 0.0, m1 = 0.0, m2 = 0.0;
            for (std::int64_t r = 0; r < maxLen; ++r) {
                const double g = gaussian(r, maxLen, rows, a);
                w += g;
                m1 += g * pe(r, c);
                m2 += g * pe(r, c) * pe(r, c);
            }
            variance[std::size_t(c)] = m2 / w - (m1 / w) * (m1 / w);
        }
        for (int b = 0; b < cols; ++b) {
            double sum = 0.0, total = 0.0;
            for (std::int64_t c = 0; c < dModel; ++c) {
                const double g = gaussian(c, dModel, cols, b);
                sum += g * variance[std::size_t(c)];
                total += g;
            }
            const double spread = grid->spread[std::size_t(a) * cols + b];
            worst = std::max(worst, std::abs(spread * spread - sum / total));
        }
    }
    QVERIFY2(worst < 1e-6, qPrintable(u"variance off by %1"_s.arg(worst)));
}

void TestHeatmapResampler::fastColumnsSpreadAsAFullSwing()
{
    // At d 1024, L 8192 on 400 rows a pixel spans ~20 positions: column 0 (wavelength 2 pi) averages
    // to ~0 and spreads by 1/sqrt(2), a sinusoid over whole turns; the last, slowest, barely moves.
    const Engine engine(sized(1024, 8192));
    const auto grid = HeatmapResampler::resample(engine, {Quantity::Pe, {0, 8192, 0, 1024}, 400, 1024});
    QVERIFY(grid);
    for (int a = 10; a < 390; a += 37) {
        const std::size_t row = std::size_t(a) * grid->cols;
        QVERIFY(std::abs(grid->values[row]) < 0.05);
        QVERIFY2(std::abs(grid->spread[row] - std::sqrt(0.5)) < 0.02, qPrintable(QString::number(grid->spread[row])));
        QVERIFY(grid->spread[row + 1023] < 0.01);
    }
}

POSENC_TEST_MAIN(TestHeatmapResampler)
} // namespace tst_heatmapresampler
#include "tst_heatmapresampler.moc"
