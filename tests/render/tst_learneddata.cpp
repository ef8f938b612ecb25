#include "render/data/learned/LearnedData.h"
#include "render/figures/learned/LearnedFigure.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>
#include <random>

namespace tst_learneddata {
using namespace posenc;

namespace {

// The sinusoidal table in float64, from the paper's formula (interleaved layout).
RowMatrixXf referencePe(std::int64_t rows, std::int64_t cols, double base)
{
    RowMatrixXf pe(rows, cols);
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t j = 0; j < cols; ++j) {
            const double w = std::exp(-2.0 * double(j / 2) * std::log(base) / double(cols));
            pe(p, j) = static_cast<float>(j % 2 == 0 ? std::sin(double(p) * w) : std::cos(double(p) * w));
        }
    return pe;
}

} // namespace

// The learned-vs-sinusoidal figure's data against closed forms and brute-force averages.
class TestLearnedData : public QObject
{
    Q_OBJECT

private slots:
    void sinusoidalSimilarityIsASumOfCosines();
    void aPeTableReadAsLearnedMatchesTheSinusoidalOne();
    void areaAveragesAreExactMeansOfTheCells();
    void neverMoreCellsThanPixels();
    void figureFillsEveryPanel();
};

// S[p, q] = sum_i cos((p - q) w_i) for an even d: the similarity depends only on p - q.
void TestLearnedData::sinusoidalSimilarityIsASumOfCosines()
{
    const std::int64_t rows = 24, cols = 16;
    Params params;
    params.dModel = cols;
    params.maxLen = rows;
    const auto data = LearnedCompute::compute(referencePe(rows, cols, 10000.0), 0, params, QSize(400, 400), 400);
    QVERIFY(data);
    QCOMPARE(data->sinusoidalSimilarity.rows, int(rows));
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t q = 0; q < rows; ++q) {
            double expected = 0.0;
            for (std::int64_t i = 0; i < cols / 2; ++i)
                expected += std::cos(double(p - q) * std::exp(-2.0 * double(i) * std::log(10000.0) / double(cols)));
            QVERIFY2(std::abs(data->sinusoidalSimilarity.at(int(p), int(q)) - expected) < 1e-4,
                     qPrintable(QStringLiteral("S[%1, %2]").arg(p).arg(q)));
        }
    for (const double norm : data->sinusoidalNorm)
        QVERIFY(std::abs(norm - std::sqrt(8.0)) < 1e-5);
    QCOMPARE(data->expectedPeNorm, std::sqrt(8.0));
}

void TestLearnedData::aPeTableReadAsLearnedMatchesTheSinusoidalOne()
{
    const std::int64_t rows = 300, cols = 64;
    Params params;
    params.dModel = cols;
    params.maxLen = rows;
    const auto data = LearnedCompute::compute(referencePe(rows, cols, 10000.0), 0, params, QSize(50, 120), 90);
    QVERIFY(data);
    QCOMPARE(data->learnedSimilarity.rows, 90);
    for (std::size_t i = 0; i < data->learnedSimilarity.values.size(); ++i)
        QVERIFY(std::abs(data->learnedSimilarity.values[i] - data->sinusoidalSimilarity.values[i]) < 1e-3);
    for (std::size_t i = 0; i < data->learned.values.size(); ++i)
        QVERIFY(std::abs(data->learned.values[i] - data->sinusoidal.values[i]) < 1e-5);
    for (std::int64_t p = 0; p < rows; ++p)
        QVERIFY(std::abs(data->learnedNorm[p] - data->sinusoidalNorm[p]) < 1e-5);
}

// Against the brute-force mean of the full table and of the full L x L product.
void TestLearnedData::areaAveragesAreExactMeansOfTheCells()
{
    std::mt19937 random(12345); // a fixed seed: replayable
    std::normal_distribution<float> normal;
    RowMatrixXf table(37, 11);
    for (Eigen::Index i = 0; i < table.size(); ++i)
        table.data()[i] = normal(random);
    const HeatmapGrid grid = LearnedCompute::areaAverage(table, 5, 3);
    QCOMPARE(grid.rows, 5);
    QCOMPARE(grid.cols, 3);
    const Eigen::MatrixXd full = table.cast<double>() * table.cast<double>().transpose();
    const HeatmapGrid sim = LearnedCompute::similarity(table, 6);
    QCOMPARE(sim.rows, 6);
    for (int a = 0; a < grid.rows; ++a)
        for (int b = 0; b < grid.cols; ++b) {
            const auto r0 = a * 37 / 5, r1 = (a + 1) * 37 / 5, c0 = b * 11 / 3, c1 = (b + 1) * 11 / 3;
            const double mean = table.block(r0, c0, r1 - r0, c1 - c0).cast<double>().mean();
            QVERIFY(std::abs(grid.at(a, b) - mean) < 1e-5);
        }
    for (int a = 0; a < 6; ++a)
        for (int b = 0; b < 6; ++b) {
            const auto p0 = a * 37 / 6, p1 = (a + 1) * 37 / 6, q0 = b * 37 / 6, q1 = (b + 1) * 37 / 6;
            const double mean = full.block(p0, q0, p1 - p0, q1 - q0).mean();
            QVERIFY2(std::abs(sim.at(a, b) - mean) < 1e-4,
                     qPrintable(QStringLiteral("%1 vs %2").arg(sim.at(a, b)).arg(mean)));
        }
}

void TestLearnedData::neverMoreCellsThanPixels()
{
    Params params;
    params.dModel = 768;
    params.maxLen = 1024;
    const RowMatrixXf table = RowMatrixXf::Constant(1024, 768, 0.5f);
    const auto data = LearnedCompute::compute(table, 0, params, QSize(300, 200), 150);
    QVERIFY(data);
    QVERIFY(data->learned.rows <= 200 && data->learned.rows > 100);
    QVERIFY(data->learned.cols <= 300 && data->learned.cols > 150);
    QCOMPARE(data->sinusoidal.rows, data->learned.rows);
    QCOMPARE(data->sinusoidalSimilarity.rows, 150);
    QCOMPARE(data->sinusoidalSimilarity.cols, 150);
    QCOMPARE(data->learnedNorm.size(), 1024);
}

void TestLearnedData::figureFillsEveryPanel()
{
    QCustomPlot plot;
    plot.resize(900, 700);
    LearnedFigure figure(&plot);
    Params params;
    params.dModel = 16;
    params.maxLen = 24;
    const auto data = LearnedCompute::compute(referencePe(24, 16, 10000.0), 0, params, QSize(100, 100), 100);
    QVERIFY(data);
    figure.setData(*data);
    plot.replot();
    for (HeatmapPanel *panel : {&figure.learnedPanel(), &figure.sinusoidalPanel(), &figure.learnedSimilarityPanel(),
                                &figure.sinusoidalSimilarityPanel()}) {
        QVERIFY(panel->colorMap()->data()->keySize() > 0);
        QVERIFY(panel->colorScale()->visible());
    }
    QCOMPARE(figure.normRect()->graphs().size(), 3);
}

POSENC_TEST_MAIN(TestLearnedData)
} // namespace tst_learneddata
#include "tst_learneddata.moc"
