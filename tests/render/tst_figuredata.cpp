#include "render/data/Detail.h"
#include "render/data/DropoutData.h"
#include "render/data/MagnitudesData.h"
#include "render/data/sinusoidal/CurvesData.h"
#include "render/data/sinusoidal/CurvesModel.h"
#include "support/TestMain.h"

#include "../core/Reference.h"
#include "support/TestParams.h"

#include <QTest>

#include <cmath>
#include <complex>
#include <numbers>

namespace tst_figuredata {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

using TestParams::sized;

} // namespace

// The data of the curves, magnitudes and dropout figures against closed forms.
class TestFigureData : public QObject
{
    Q_OBJECT

private slots:
    void defaultColumnsAreLowMiddleAndHigh();
    void theDefaultViewKeepsTheFastestCurveReadable_data();
    void theDefaultViewKeepsTheFastestCurveReadable();
    void curvesFollowTheFormulaAndMarkTheTable_data();
    void curvesFollowTheFormulaAndMarkTheTable();
    void curvesSkipColumnsOutsideTheTable();
    void magnitudesMatchTheClosedForms_data();
    void magnitudesMatchTheClosedForms();
    void magnitudesWithoutAPeAreThoseOfEveryRow_data();
    void magnitudesWithoutAPeAreThoseOfEveryRow();
    void previewSamplesEvenlySpacedPositions();
    void columnStatisticsAreExactAtLargeL();
    void longStatisticsComeInPassesEachLabelled();
    void theLargestStatisticsStayWithinTheCap();
    void dropFractionIsNearP_data();
    void dropFractionIsNearP();
    void concatEmbeddingModeCountsTheEmbeddingColumns();
    void summaryStatesTheFactor();
    void cancelledGivesNothing();
};

void TestFigureData::defaultColumnsAreLowMiddleAndHigh()
{
    QCOMPARE(CurvesCompute::defaultColumns(512), (std::vector<std::int64_t> {0, 1, 256, 257, 510, 511}));
    QCOMPARE(CurvesCompute::defaultColumns(3), (std::vector<std::int64_t> {0, 1, 2}));
    QCOMPARE(CurvesCompute::defaultColumns(1), (std::vector<std::int64_t> {0}));
}

void TestFigureData::theDefaultViewKeepsTheFastestCurveReadable_data()
{
    // The last position shown: the table's, unless the fastest curve drawn, w = exp(-2i ln b / d)
    // for its pair i, would turn more than 32 times: then ceil(32 · 2π / w), 64 at least.
    QTest::addColumn<int>("L");
    QTest::addColumn<QString>("dims");
    QTest::addColumn<int>("last");
    const auto turns = [](double w) { return int(std::ceil(32.0 * 2.0 * std::numbers::pi / w)); };
    QTest::newRow("L 1024, column 0 (w 1): 32 turns") << 1024 << QString() << turns(1.0);
    QTest::newRow("L 150: the whole table") << 150 << QString() << 149;
    const double w8 = std::exp(-2.0 * 8.0 * std::log(10000.0) / 512.0);
    QTest::newRow("L 100000, pair 8 the fastest") << 100000 << u"16,17,300"_s << turns(w8);
    QTest::newRow("L 1024, pair 255: the whole table") << 1024 << u"510,511"_s << 1023;
}

// At L 1024 the fastest pair (column 0, wavelength 2π) turned 163 times across a view: drawn as
// bands, the curves were one solid block.
void TestFigureData::theDefaultViewKeepsTheFastestCurveReadable()
{
    QFETCH(int, L);
    QFETCH(QString, dims);
    QFETCH(int, last);
    const Params p = sized(512, L);
    FigureState state;
    if (!dims.isEmpty())
        state.options.insert(u"dims"_s, dims);
    QCOMPARE(CurvesCompute::defaultLastPosition(p, CurvesModel::columns(p, state)), std::int64_t(last));
}

void TestFigureData::curvesFollowTheFormulaAndMarkTheTable_data()
{
    QTest::addColumn<Layout>("layout");
    QTest::newRow("interleaved") << Layout::Interleaved;
    QTest::newRow("split") << Layout::Split;
}

void TestFigureData::curvesFollowTheFormulaAndMarkTheTable()
{
    QFETCH(Layout, layout);
    Params p = sized(64, 500);
    p.sinusoidal.layout = layout;
    const Engine engine(p);
    const auto data = CurvesCompute::compute(engine, {{0, 5, 33, 63}, 10.0, 60.0, 800}, {});
    QVERIFY(data);
    QCOMPARE(data->curves.size(), 4);
    for (const Curve &curve : data->curves) {
        const reference::Role role = reference::role(curve.column, 64, layout);
        QCOMPARE(curve.pair, role.pair);
        QCOMPARE(curve.isCos, role.isCos);
        const double w = reference::omega(role.pair, 64, p.sinusoidal.base);
        QVERIFY(std::abs(curve.frequency - w) <= 1e-15 * w);
        QVERIFY(std::abs(curve.wavelength - 2.0 * M_PI / w) <= 1e-12 * curve.wavelength);
        QVERIFY(curve.denseX.size() >= 800); // a sample per pixel at least
        QCOMPARE(curve.denseX.front(), 10.0);
        QCOMPARE(curve.denseX.back(), 60.0);
        for (qsizetype i = 0; i < curve.denseX.size(); i += 97) {
            const double x = curve.denseX[i];
            QCOMPARE(curve.denseY[i], role.isCos ? std::cos(x * w) : std::sin(x * w));
        }
        // Integer positions 10..60, from the engine's table: within 1e-6 of float64.
        QCOMPARE(curve.pointX.size(), 51);
        for (qsizetype i = 0; i < curve.pointX.size(); ++i) {
            QCOMPARE(curve.pointX[i], 10.0 + double(i));
            const double exact = reference::exactValue(10 + i, curve.column, 64, p.sinusoidal.base, layout);
            QVERIFY(std::abs(curve.pointY[i] - exact) < 1e-6);
        }
        QVERIFY(CurvesCompute::legendText(curve).contains(u"j=%1"_s.arg(curve.column)));
    }
}

void TestFigureData::curvesSkipColumnsOutsideTheTable()
{
    const Engine engine(sized(8, 4096));
    const auto data = CurvesCompute::compute(engine, {{-1, 3, 8, 99}, 0.0, 4095.0, 600}, {});
    QVERIFY(data);
    QCOMPARE(data->curves.size(), 1);
    QCOMPARE(data->curves.front().column, 3);
    // 4096 positions on 600 pixels: too dense to mark.
    QVERIFY(data->curves.front().pointX.isEmpty());
}

void TestFigureData::magnitudesMatchTheClosedForms_data()
{
    QTest::addColumn<ScaleKind>("scale");
    QTest::addColumn<InitKind>("init");
    QTest::newRow("paper: sqrt(d), sigma 1") << ScaleKind::Sqrt << InitKind::Normal;
    QTest::newRow("s 1, sigma d^-1/2") << ScaleKind::One << InitKind::ScaledNormal;
}

void TestFigureData::magnitudesMatchTheClosedForms()
{
    QFETCH(ScaleKind, scale);
    QFETCH(InitKind, init);
    Params p = sized(256, 600);
    p.scaleKind = scale;
    p.init = init;
    const Engine engine(p);
    const auto data = MagnitudesCompute::compute(engine, 500, Detail::Full, {});
    QVERIFY(data);
    QCOMPARE(data->positions.size(), 600);
    QCOMPARE(data->positionStride, 1);
    // ||PE_p||^2 = d/2 exactly for an even d: sin^2 + cos^2 = 1 per pair.
    QVERIFY(data->expectedPeNorm);
    QCOMPARE(*data->expectedPeNorm, std::sqrt(128.0));
    for (const double norm : data->peNorm)
        QVERIFY(std::abs(norm - std::sqrt(128.0)) < 1e-4);
    const double s = scale == ScaleKind::Sqrt ? 16.0 : 1.0;
    const double sigma = init == InitKind::Normal ? 1.0 : 1.0 / 16.0;
    const double expectedE = s * sigma * 16.0;
    QCOMPARE(data->expectedEmbeddingNorm, expectedE);
    // Over 600 rows the mean squared norm is within a few standard errors (chi^2, 256 dof).
    double meanSquare = 0.0;
    for (qsizetype i = 0; i < data->embeddingNorm.size(); ++i) {
        meanSquare += data->embeddingNorm[i] * data->embeddingNorm[i];
        QCOMPARE(data->ratio[i], data->embeddingNorm[i] / data->peNorm[i]);
    }
    meanSquare /= 600.0;
    QVERIFY2(std::abs(meanSquare / (expectedE * expectedE) - 1.0) < 0.03, qPrintable(QString::number(meanSquare)));
    // Per column: a sine column of a fast pair has RMS ~ 1/sqrt(2); the last cosine (w ~ 1e-4)
    // stays near 1 over 600 positions, the last sine near 0: the near-constant offset.
    QCOMPARE(data->peRms.size(), 256);
    QVERIFY(std::abs(data->peRms[0] - std::sqrt(0.5)) < 0.02);
    QVERIFY(std::abs(data->peRms[255] - 1.0) < 0.01);
    QVERIFY(data->peRms[254] < 0.05);
    // ... read as mean and std: the last cosine an offset (mean ~1, std ~0), the first sine
    // a variation (mean ~0, std ~0.707).
    QVERIFY(data->peMean[255] > 0.99 && data->peStd[255] < 0.01);
    QVERIFY(std::abs(data->peMean[0]) < 0.01 && std::abs(data->peStd[0] - std::sqrt(0.5)) < 0.02);
    QVERIFY(data->columnStatsExact());
    for (const double rms : data->embeddingRms)
        QVERIFY(std::abs(rms / (s * sigma) - 1.0) < 0.2);
}

void TestFigureData::magnitudesWithoutAPeAreThoseOfEveryRow_data()
{
    QTest::addColumn<Encoding>("encoding");
    QTest::newRow("t5") << Encoding::T5;
    QTest::newRow("rope") << Encoding::Rope;
    QTest::newRow("alibi") << Encoding::Alibi;
}

// Without a PE (X = s*E) the per-column statistics come from s*E's kept moments
// (EmbeddingMoments), not from its cells generated again: they are those of every row of s*E,
// summed here in float64 from its float32 cells, and the PE's are zero.
void TestFigureData::magnitudesWithoutAPeAreThoseOfEveryRow()
{
    QFETCH(Encoding, encoding);
    Params p = sized(96, 700);
    p.encoding = encoding;
    p.scaleKind = ScaleKind::Sqrt;
    const Engine engine(p);
    QCOMPARE(p.peColumns(), 0);
    const auto data = MagnitudesCompute::compute(engine, 500, Detail::Full, {});
    QVERIFY(data);
    QVERIFY(data->columnStatsExact());
    RowMatrixXf cells(p.maxLen, p.dModel);
    QVERIFY(engine.compute(Quantity::Embedding, {0, p.maxLen, 0, p.dModel}, cells));
    // The cells are s*E rounded to float32; the kept moments are E's in float64, times s.
    const double tolerance = 1e-6 * std::sqrt(double(p.dModel));
    for (std::int64_t j = 0; j < p.dModel; ++j) {
        double sum = 0.0, squares = 0.0;
        for (std::int64_t r = 0; r < p.maxLen; ++r) {
            const double x = cells(r, j);
            sum += x;
            squares += x * x;
        }
        const double mean = sum / double(p.maxLen);
        const double std = std::sqrt(std::max(0.0, squares / double(p.maxLen) - mean * mean));
        const auto at = static_cast<qsizetype>(j);
        QVERIFY2(std::abs(data->embeddingMean[at] - mean) < tolerance,
                 qPrintable(u"column %1: %2, every row %3"_s.arg(j).arg(data->embeddingMean[at]).arg(mean)));
        QVERIFY2(std::abs(data->embeddingStd[at] - std) < tolerance,
                 qPrintable(u"column %1: std %2, every row %3"_s.arg(j).arg(data->embeddingStd[at]).arg(std)));
        QCOMPARE(data->peMean[at], 0.0);
        QCOMPARE(data->peStd[at], 0.0);
    }
}

void TestFigureData::previewSamplesEvenlySpacedPositions()
{
    const Engine engine(sized(1024, 8192));
    const auto data = MagnitudesCompute::compute(engine, 300, Detail::Preview, {});
    QVERIFY(data);
    QVERIFY(data->positionStride > 1);
    QVERIFY(data->positions.size() <= 600);
    for (qsizetype i = 0; i < data->positions.size(); ++i) {
        QCOMPARE(data->positions[i], double(i * data->positionStride));
        QVERIFY(std::abs(data->peNorm[i] - std::sqrt(512.0)) < 1e-3);
    }
}

void TestFigureData::columnStatisticsAreExactAtLargeL()
{
    // At L = 2^20 the figure once estimated each column from every ~1000th position, which
    // resonates with the fast columns (0.07 or 1.0 where 1/sqrt(2) is right). Now every PE
    // column's mean and RMS are the geometric series, computed here in long double.
    const Params p = sized(256, std::int64_t(1) << 20);
    const Engine engine(p);
    const auto data = MagnitudesCompute::compute(engine, 500, Detail::Full, {});
    QVERIFY(data);
    QVERIFY(data->columnStatsExact());
    for (std::int64_t j = 0; j < 256; ++j) {
        using C = std::complex<long double>;
        const long double w = reference::omega(j / 2, 256, p.sinusoidal.base);
        const auto mean = [&](long double angle) {
            const C z = std::polar(1.0L, angle);
            return (C(1.0L) - std::pow(z, static_cast<long double>(p.maxLen))) / (C(1.0L) - z)
                / static_cast<long double>(p.maxLen);
        };
        const bool isCos = j % 2 == 1;
        const double first = static_cast<double>(isCos ? mean(w).real() : mean(w).imag());
        const double square = static_cast<double>(isCos ? 0.5L * (1.0L + mean(2.0L * w).real())
                                                        : 0.5L * (1.0L - mean(2.0L * w).real()));
        QVERIFY2(std::abs(data->peMean[j] - first) < 1e-6 && std::abs(data->peRms[j] - std::sqrt(square)) < 1e-6,
                 qPrintable(u"column %1: mean %2, RMS %3"_s.arg(j).arg(data->peMean[j]).arg(data->peRms[j])));
    }
}

void TestFigureData::longStatisticsComeInPassesEachLabelled()
{
    // 2^28 cells of s*E: a first pass over the first eighth of the positions, an estimate that
    // says so, then every position.
    const Params p = sized(256, std::int64_t(1) << 20);
    const Engine engine(p);
    QCOMPARE(MagnitudesCompute::passCount(engine), 2);
    QCOMPARE(MagnitudesCompute::passCount(Engine(sized(256, 1 << 17))), 1);
    const auto first = MagnitudesCompute::compute(engine, 500, Detail::Full, {}, 0);
    const auto last = MagnitudesCompute::compute(engine, 500, Detail::Full, {}, 1);
    QVERIFY(first && last);
    QCOMPARE(first->rmsRows, p.maxLen / 8);
    QVERIFY(!first->columnStatsExact());
    QVERIFY(last->columnStatsExact());
    // The PE's statistics are in closed form in every pass; s*E's differ between the two.
    QCOMPARE(first->peMean, last->peMean);
    QCOMPARE(first->peStd, last->peStd);
    QVERIFY(first->embeddingMean != last->embeddingMean);
    for (qsizetype j = 0; j < last->embeddingStd.size(); ++j)
        QVERIFY(std::abs(last->embeddingStd[j] / (p.scale() * p.sigma()) - 1.0) < 0.01);
}

// The audit: magnitudes at d 2^20 by L 2^24 ran past 600 s (every position of s*E, 2^44 cells),
// where the README promises a capped preview. Its last pass takes the positions within the cap of
// every figure, an estimate; within the cap (X at L 2^20, d 8192) every position, as before.
void TestFigureData::theLargestStatisticsStayWithinTheCap()
{
    const Engine largest(sized(1 << 20, std::int64_t(1) << 24));
    const std::int64_t rows = MagnitudesCompute::exactRows(largest);
    QVERIFY(rows < largest.params().maxLen);
    QVERIFY(Budget::exactCost(rows, largest.params().dModel) <= double(Budget::kMaxExactCells));
    QVERIFY(Budget::exactCost(2 * rows, largest.params().dModel) > double(Budget::kMaxExactCells));
    QVERIFY(MagnitudesCompute::passCount(largest) >= 1);
    const Engine atTheCap(sized(8192, std::int64_t(1) << 20));
    QCOMPARE(MagnitudesCompute::exactRows(atTheCap), atTheCap.params().maxLen);
    // A short table past the cap: its last pass is the estimate from the first rows, labelled so.
    const Params wide = sized(1 << 20, 600);
    const auto data = MagnitudesCompute::compute(Engine(wide), 300, Detail::Full, {}, -1);
    QVERIFY(data);
    QCOMPARE(data->rmsRows, std::int64_t(512));
    QVERIFY(!data->columnStatsExact());
}

void TestFigureData::dropFractionIsNearP_data()
{
    QTest::addColumn<double>("p");
    QTest::addColumn<bool>("training");
    QTest::newRow("p 0.1") << 0.1 << true;
    QTest::newRow("p 0.5") << 0.5 << true;
    QTest::newRow("p 0") << 0.0 << true;
    QTest::newRow("p 1") << 1.0 << true;
    QTest::newRow("evaluation") << 0.3 << false;
}

// Concat in embedding mode: dropout acts on s·E's columns only. Its PE columns were counted as
// under dropout and shown with random mask bits, though Y = PE there whatever the dice.
void TestFigureData::concatEmbeddingModeCountsTheEmbeddingColumns()
{
    Params params = sized(128, 800);
    params.compose = Compose::Concat;
    params.peDims = 48;
    params.dropout = 0.5;
    params.dropoutMode = DropoutMode::Embedding;
    const Engine engine(params);
    const auto data = DropoutCompute::compute(engine, {{0, 48, 0, 128}, 128, 128}, Detail::Full, {});
    QVERIFY(data);
    QCOMPARE(data->count.cells, 800 * (128 - 48));
    const double tolerance = 5.0 * std::sqrt(0.25 / (800.0 * 80.0));
    QVERIFY2(std::abs(data->count.fraction() - 0.5) <= tolerance, qPrintable(QString::number(data->count.fraction())));
    // The mask shown reads kept in every PE column.
    QCOMPARE(data->mask.cols, 128);
    for (int r = 0; r < data->mask.rows; ++r)
        for (int c = 80; c < 128; ++c)
            QCOMPARE(data->mask.values[static_cast<std::size_t>(r * data->mask.cols + c)], 1.0f);
}

void TestFigureData::dropFractionIsNearP()
{
    QFETCH(double, p);
    QFETCH(bool, training);
    Params params = sized(128, 800);
    params.dropout = p;
    params.training = training;
    const Engine engine(params);
    const auto data = DropoutCompute::compute(engine, {{0, 48, 0, 48}, 200, 200}, Detail::Full, {});
    QVERIFY(data);
    // In evaluation no cell is under dropout: none is counted.
    QCOMPARE(data->count.cells, training ? 800 * 128 : 0);
    const double expected = training ? p : 0.0;
    // Binomial: 5 standard deviations over 102,400 cells.
    const double tolerance = 5.0 * std::sqrt(expected * (1.0 - expected) / 102400.0) + 1e-12;
    QVERIFY2(std::abs(data->count.fraction() - expected) <= tolerance,
             qPrintable(QString::number(data->count.fraction())));
    // The mask shown one cell per cell: only 0 and 1; Y is 0 exactly where the mask is.
    QCOMPARE(data->mask.rows, 48);
    for (std::size_t i = 0; i < data->mask.values.size(); ++i) {
        const float m = data->mask.values[i];
        QVERIFY(m == 0.0f || m == 1.0f);
        if (m == 0.0f)
            QCOMPARE(data->output.values[i], 0.0f);
    }
}

void TestFigureData::summaryStatesTheFactor()
{
    DropoutData data;
    data.params.dropout = 0.2;
    data.count.dropped = 190;
    data.count.cells = 1000;
    QVERIFY2(DropoutCompute::summary(data).contains(u"1.25"_s), qPrintable(DropoutCompute::summary(data)));
    // The count first, its share beside p: never a fraction where a count of cells is expected.
    QVERIFY2(DropoutCompute::summary(data).contains(u"dropped 190 of 1,000 cells under dropout (19\u00a0%, p = 0.2)"_s),
             qPrintable(DropoutCompute::summary(data)));
    // Nothing under dropout (every row passed through): no share of nothing.
    DropoutData none = data;
    none.count = DropCount {};
    QVERIFY2(DropoutCompute::summary(none).contains(u"no cell under dropout (p = 0.2)"_s),
             qPrintable(DropoutCompute::summary(none)));
    data.params.training = false;
    QVERIFY(DropoutCompute::summary(data).contains(u"evaluation"_s));
}

void TestFigureData::cancelledGivesNothing()
{
    const Engine engine(sized(512, 4096));
    const std::atomic<bool> cancel {true};
    QVERIFY(!MagnitudesCompute::compute(engine, 300, Detail::Full, {0, &cancel}));
    QVERIFY(!DropoutCompute::compute(engine, {{0, 48, 0, 48}, 100, 100}, Detail::Full, {0, &cancel}));
    QVERIFY(!CurvesCompute::compute(engine, {{0, 1}, 0.0, 10.0, 100}, {0, &cancel}));
}

POSENC_TEST_MAIN(TestFigureData)
} // namespace tst_figuredata
#include "tst_figuredata.moc"
