// The precision figure: the float32-angle error taken by its maximum (never averaged), against
// the error computed here cell by cell from the float32 recipe and float64 sines, and against
// the bound rounding the angle predicts.
#include "render/FigureExporter.h"
#include "support/TestMain.h"

#include "render/data/sinusoidal/PrecisionCompute.h"
#include "render/figures/sinusoidal/PrecisionFigure.h"

#include "../core/Reference.h"
#include "support/FigureBuilds.h"

#include <QTest>

#include <cmath>

namespace tst_precisionfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params params(std::int64_t d, std::int64_t length, Layout layout = Layout::Interleaved)
{
    Params p;
    p.dModel = d;
    p.maxLen = length;
    p.sinusoidal.layout = layout;
    return p;
}

// |float32-angle PE - PE| of one cell, from the reference's float32 recipe and float64 sine.
double error(const Params &p, std::int64_t position, std::int64_t column)
{
    return std::abs(double(reference::float32AngleValue(position, column, p.dModel, p.sinusoidal.base, p.sinusoidal.layout))
                    - reference::preciseValue(position, column, p.dModel, p.sinusoidal.base, p.sinusoidal.layout));
}

double bruteMaximum(const Params &p, std::int64_t first, std::int64_t end, std::int64_t col0 = 0,
                    std::int64_t col1 = -1)
{
    double largest = 0.0;
    for (std::int64_t q = first; q < end; ++q)
        for (std::int64_t j = col0; j < (col1 < 0 ? p.dModel : col1); ++j)
            largest = std::max(largest, error(p, q, j));
    return largest;
}

PanelExtent panel(QSize size, double x0, double x1, double y0 = 0, double y1 = 1)
{
    return {size, 1.0, {x0, x1}, {y0, y1}};
}

} // namespace

class TestPrecisionFigure : public QObject
{
    Q_OBJECT

private slots:
    void onePositionHasADistinctColorbarAndASingularTitle();
    void bandMaximumIsTheLargestOfEveryCell_data();
    void bandMaximumIsTheLargestOfEveryCell();
    void errorsStayWithinTheBoundAndReachIt();
    void pixelsHoldTheirLargestError();
    void previewTakesEveryStrideThPosition();
    void bandsStopAtTheirShareOfTheCap();
    void fullDetailPastTheCapTakesTheLastPositions();
    void wideRowsTakeTheFastestColumnsOfEachPixel();
    void figureIsRegisteredAndExports();
    void ropesErrorIsItsSinesThenCosinesFromFloat32Angles();
};

void TestPrecisionFigure::bandMaximumIsTheLargestOfEveryCell_data()
{
    QTest::addColumn<Params>("p");
    QTest::addColumn<qint64>("first");
    QTest::addColumn<qint64>("end");
    QTest::newRow("near the start") << params(32, 5000) << 0ll << 300ll;
    QTest::newRow("long positions") << params(32, 1 << 20) << 900000ll << 901500ll;
    QTest::newRow("split, odd d") << params(33, 1 << 20, Layout::Split) << 500000ll << 501000ll;
}

void TestPrecisionFigure::bandMaximumIsTheLargestOfEveryCell()
{
    QFETCH(Params, p);
    QFETCH(qint64, first);
    QFETCH(qint64, end);
    // The columns the maximum skips cannot change it: every cell is taken here.
    const double expected = bruteMaximum(p, first, end);
    const double got = PrecisionCompute::bandMaximum(Engine(p), first, end).largest;
    QVERIFY2(std::abs(got - expected) <= 1e-9 + 1e-6 * expected,
             qPrintable(u"%1 vs %2"_s.arg(got, 0, 'g', 12).arg(expected, 0, 'g', 12)));
}

void TestPrecisionFigure::errorsStayWithinTheBoundAndReachIt()
{
    // Every cell of bands spread over 2^20 positions is within the bound of its column, and the
    // bound is not idle: far out, the largest error is a good part of it.
    const Params p = params(16, 1 << 20);
    for (const std::int64_t first : {1000ll, 300000ll, 1000000ll}) {
        double worstShare = 0.0;
        for (std::int64_t q = first; q < first + 2000; ++q) {
            for (std::int64_t j = 0; j < p.dModel; ++j) {
                const double w = reference::omega(reference::role(j, p.dModel, p.sinusoidal.layout).pair, p.dModel, p.sinusoidal.base);
                const double e = error(p, q, j);
                QVERIFY2(e <= PrecisionModel::bound(q, w),
                         qPrintable(u"p %1, j %2: %3 > %4"_s.arg(q).arg(j).arg(e).arg(PrecisionModel::bound(q, w))));
                worstShare = std::max(worstShare, e / PrecisionModel::bound(q, w));
            }
        }
        if (first >= 300000)
            QVERIFY2(worstShare > 0.3, qPrintable(QString::number(worstShare)));
    }
}

void TestPrecisionFigure::pixelsHoldTheirLargestError()
{
    // 3000 positions on 60 pixels and 24 columns on 8: each pixel the largest |error| of its
    // 50 x 3 cells, not their mean.
    const Params p = params(24, 3000);
    const Engine engine(p);
    const auto data
        = PrecisionCompute::compute(engine, panel(QSize(100, 50), -0.5, 2999.5),
                                    panel(QSize(60, 8), -0.5, 2999.5, -0.5, 23.5), Detail::Full, 1, nullptr);
    QVERIFY(data);
    QCOMPARE(data->stride, 1);
    QCOMPARE(data->cols, 60);
    QCOMPARE(data->rows, 8);
    double largest = 0.0;
    for (int x = 0; x < 60; ++x) {
        for (int y = 0; y < 8; ++y) {
            const double expected = bruteMaximum(p, 50 * x, 50 * (x + 1), 3 * y, 3 * (y + 1));
            QVERIFY2(std::abs(data->at(y, x) - expected) <= 1e-9 + 1e-6 * expected,
                     qPrintable(u"pixel (%1, %2): %3 vs %4"_s.arg(x).arg(y).arg(data->at(y, x)).arg(expected)));
            largest = std::max(largest, expected);
        }
    }
    QVERIFY(std::abs(data->largest - largest) <= 1e-9 + 1e-6 * largest);
    // The upper panel's bands of 30 positions against every cell too.
    QCOMPARE(data->bandMax.size(), 100);
    QVERIFY(std::abs(data->bandMax[99] - bruteMaximum(p, 2970, 3000)) <= 1e-9);
    QCOMPARE(data->bandPositions, 30.0);
    // The legend says how many positions a point spans, not "a pixel".
    QCustomPlot plot;
    PrecisionFigure figure(&plot);
    figure.fill(std::make_shared<PrecisionData>(*data), {});
    QCOMPARE(plot.graph(0)->name(), u"max |error| over each ~30 positions, every column"_s);
}

void TestPrecisionFigure::previewTakesEveryStrideThPosition()
{
    const Params p = params(64, 1 << 16);
    const auto data
        = PrecisionCompute::compute(Engine(p), panel(QSize(200, 50), -0.5, 65535.5),
                                    panel(QSize(200, 64), -0.5, 65535.5, -0.5, 63.5), Detail::Preview, 1, nullptr);
    QVERIFY(data);
    QVERIFY(data->stride > 1); // 2^22 cells against a preview budget of 2^19
    QVERIFY(data->stride * Budget::cells(Detail::Preview) >= (std::int64_t(1) << 22));
}

// The audit: the precision figure at d 2^20 by L 2^24 ran for hours. At d 2^20 every pair's bound
// stays above the errors found, so a band took all 2^19 pairs; now it takes its share of the cap.
void TestPrecisionFigure::bandsStopAtTheirShareOfTheCap()
{
    const Params p = params(1 << 20, 4096);
    const Engine engine(p);
    const auto capped = PrecisionCompute::bandMaximum(engine, 3000, 4000, 20000);
    QVERIFY(!capped.complete);
    QCOMPARE(capped.pairs, std::int64_t(10)); // 2 columns of 1000 positions a pair
    // Those pairs' largest error, as every cell of their columns gives it.
    RowMatrixXf column(1000, 1);
    double largest = 0.0;
    for (std::int64_t j = 0; j < 20; ++j) {
        engine.computeBlock(Quantity::Error, {3000, 1000, j, 1}, column);
        largest = std::max(largest, double(column.array().abs().maxCoeff()));
    }
    QCOMPARE(capped.largest, largest);
    // Without a cap, at a small d, the bound ends the search: complete.
    const auto whole = PrecisionCompute::bandMaximum(Engine(params(64, 4096)), 3000, 4000);
    QVERIFY(whole.complete);
}

void TestPrecisionFigure::fullDetailPastTheCapTakesTheLastPositions()
{
    // 2^20 positions of 64 columns: within the cap, every position.
    QCOMPARE(PrecisionCompute::fullDetailShare({0, 1 << 20, 0, 64}), std::int64_t(1));
    // 2^24 by 2^20: a share of each pixel's positions, within the cap at what error cells cost.
    const Block largest {0, std::int64_t(1) << 24, 0, 1 << 20};
    const std::int64_t share = PrecisionCompute::fullDetailShare(largest);
    QVERIFY(share > 1);
    QVERIFY(Budget::exactCost(largest.rows / share, largest.cols) * 8.0
            <= double(Budget::kMaxExactCells) / 2.0 * 1.001);
    // Drawn: the last 1/s of each pixel's positions, and the title says so.
    Params p = params(64, 1 << 20);
    const auto data
        = PrecisionCompute::compute(Engine(p), panel(QSize(200, 50), -0.5, 1048575.5),
                                    panel(QSize(200, 64), -0.5, 1048575.5, -0.5, 63.5), Detail::Full, 0, nullptr);
    QVERIFY(data);
    QCOMPARE(data->share, std::int64_t(1));
    QVERIFY(data->bandPairsComplete);
}

// The audit's largest precision export took minutes past the cap: at d 2^20 even one position of
// each pixel costs more (a lone row sets up every one of its columns). Then each pixel takes its
// last position and the fastest columns of its pixel row, within the cap, and the title says so.
void TestPrecisionFigure::wideRowsTakeTheFastestColumnsOfEachPixel()
{
    const Params p = params(1 << 20, 4096);
    // 64 pixels of positions, one position each: 64 x 2^20 columns at 16 times their cells, 2^30,
    // past the panel's 2^29; 8 pixel rows of 2^17 columns share the cap.
    const std::int64_t columns = PrecisionCompute::fastestColumns({0, 4096, 0, 1 << 20}, 64, 8);
    QCOMPARE(columns, std::int64_t(65536));
    QCOMPARE(PrecisionCompute::fastestColumns({0, 4096, 0, 8192}, 64, 8), std::int64_t(0));
    // No position under the upper panel: only the lower one is computed.
    const auto data
        = PrecisionCompute::compute(Engine(p), panel(QSize(10, 10), -20.5, -10.5),
                                    panel(QSize(64, 8), -0.5, 4095.5, -0.5, 1048575.5), Detail::Full, 0, nullptr);
    QVERIFY(data);
    QCOMPARE(data->columnsTaken, columns);
    for (const int b : {0, 37, 63}) {
        const std::int64_t last = 4096 * (b + 1) / 64 - 1;
        for (const int y : {0, 5}) {
            const std::int64_t c0 = std::int64_t(y) << 17;
            const double expected = bruteMaximum(p, last, last + 1, c0, c0 + columns);
            QVERIFY2(std::abs(data->at(y, b) - expected) <= 1e-7 + 1e-6 * expected,
                     qPrintable(u"pixel (%1, %2): %3 vs %4"_s.arg(y).arg(b).arg(data->at(y, b)).arg(expected)));
        }
    }
}

void TestPrecisionFigure::figureIsRegisteredAndExports()
{
    const FigureDescriptor &figure = FigureBuilds::figure(u"precision"_s);
    QCOMPARE(figure.model().inputs({}), QList<Quantity> {Quantity::Error});
    FigureState state;
    state.options.insert(u"positions"_s, u"100:2000"_s);
    const FigureSize size = FigureSize::fromPixels(QSize(800, 600));
    const auto built = FigureBuilds::build(u"precision"_s, params(32, 4000), size, state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(800, 600));
}

void TestPrecisionFigure::onePositionHasADistinctColorbarAndASingularTitle()
{
    // At L = 1 every error is 0 and the bound 2^-25: a colorbar of fewer than 1.6 decades is ticked
    // in linear steps that one-digit labels round alike.
    const auto built = FigureBuilds::build(u"precision"_s, params(16, 1), FigureSize::fromPixels(QSize(900, 600)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot *plot = built->plot();
    plot->replot();
    QString title;
    for (QCPLayoutElement *e : plot->plotLayout()->elements(true)) {
        if (auto *text = qobject_cast<QCPTextElement *>(e))
            title += text->text();
        if (auto *scale = qobject_cast<QCPColorScale *>(e)) {
            const QVector<QString> labels = scale->axis()->tickVectorLabels();
            const QSet<QString> unique(labels.begin(), labels.end());
            QVERIFY2(labels.size() >= 2 && unique.size() == labels.size(),
                     qPrintable(QStringList(labels.begin(), labels.end()).join(u", "_s)));
        }
    }
    QVERIFY2(title.contains(u"1 position,"_s), qPrintable(title));
    // The bound at p = 0, 2^-25, one point: drawn as a marker.
    bool bound = false;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph *graph = plot->graph(i);
        if (graph->dataCount() == 1 && std::abs(graph->data()->at(0)->value - std::ldexp(1.0, -25)) < 1e-15) {
            bound = true;
            QVERIFY(graph->scatterStyle().shape() != QCPScatterStyle::ssNone);
        }
    }
    QVERIFY(bound);
}

// RoPE's angles are rounded as the sinusoid's: transformers' LlamaRotaryEmbedding.forward
// (models/llama/modeling_llama.py) forms inv_freq_expanded.float() @ position_ids_expanded.float()
// with autocast disabled, then cos and sin times attention_scaling. The error table holds the h
// pairs' sines, then their cosines, each fl(a·f(fl(fl(p)·fl(θ_i)))) − a·f(p·θ_i), computed here in
// float64 from θ_i = θ^(−2i/r) and YaRN's a = 0.1·ln f + 1 (modeling_rope_utils' get_mscale); the
// figure's largest error over the last positions is theirs, within the bound a·p·θ_0·2⁻²³ + 2⁻²⁴.
void TestPrecisionFigure::ropesErrorIsItsSinesThenCosinesFromFloat32Angles()
{
    for (const bool yarn : {false, true}) {
        Params p;
        p.encoding = Encoding::Rope;
        p.dModel = 512;
        p.rope.headDim = 64;
        p.rope.theta = 10000.0;
        p.maxLen = 40000;
        if (yarn) {
            p.rope.type = RopeType::Yarn;
            p.rope.factor = 4.0;
            p.rope.originalMaxLen = 10000;
        }
        QVERIFY(p.isValid());
        const Engine engine(p);
        const std::int64_t h = 32, last = p.maxLen - 1;
        RowMatrixXf row(1, 2 * h);
        engine.computeBlock(Quantity::Error, {last, 1, 0, 2 * h}, row);
        const double a = yarn ? 0.1 * std::log(4.0) + 1.0 : 1.0;
        double largest = 0.0;
        for (std::int64_t i = 0; i < h; ++i) {
            const double theta = std::pow(10000.0, -2.0 * double(i) / 64.0);
            // YaRN keeps the fastest pairs: pair 0 is θ_0 = 1 under both.
            if (i > 0 && yarn)
                continue;
            const double angle32 = double(static_cast<float>(last) * static_cast<float>(theta));
            for (const bool isCos : {false, true}) {
                const double exact = a * (isCos ? std::cos(double(last) * theta) : std::sin(double(last) * theta));
                const double rounded = double(static_cast<float>(a * (isCos ? std::cos(angle32) : std::sin(angle32))));
                const double got = row(0, isCos ? h + i : i);
                QVERIFY2(std::abs(got - (rounded - exact)) < 1e-7,
                         qPrintable(u"pair %1 %2: %3 vs %4"_s.arg(i).arg(isCos ? u"cos"_s : u"sin"_s).arg(got).arg(rounded - exact)));
            }
        }
        for (Eigen::Index j = 0; j < row.cols(); ++j)
            largest = std::max(largest, double(std::abs(row(0, j))));
        QVERIFY(largest <= PrecisionModel::bound(last, 1.0, a));
        QVERIFY(largest > 0.1 * PrecisionModel::bound(last, 1.0, a));
        const auto band = PrecisionCompute::bandMaximum(engine, last, last + 1);
        QVERIFY2(std::abs(band.largest - largest) < 1e-12, qPrintable(u"%1 vs %2"_s.arg(band.largest).arg(largest)));
        const auto built = FigureBuilds::build(u"precision"_s, p, FigureSize::fromPixels(QSize(900, 600)));
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    }
}

POSENC_TEST_MAIN(TestPrecisionFigure)
} // namespace tst_precisionfigure
#include "tst_precisionfigure.moc"
