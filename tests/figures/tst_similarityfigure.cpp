// The similarity figure: S = PE . PE^T shown at screen resolution, and S(k) against the offset
// k with its closed form, all against float64 sums written here from the definition of PE.
#include "render/FigureExporter.h"
#include "render/figures/sinusoidal/SimilarityFigure.h"
#include "support/TestMain.h"

#include "render/data/sinusoidal/SimilarityCompute.h"

#include "../core/Reference.h"
#include "../io/PeakMemory.h"
#include "render/FigureRegistry.h"
#include "support/FigureBuilds.h"
#include <QRegularExpression>

#include <QTest>

#include <cmath>

namespace tst_similarityfigure {
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

// The float64 row PE_p.
std::vector<double> row(const Params &p, std::int64_t position)
{
    std::vector<double> values(static_cast<std::size_t>(p.dModel));
    for (std::int64_t j = 0; j < p.dModel; ++j)
        values[static_cast<std::size_t>(j)]
            = reference::exactValue(position, j, p.dModel, p.sinusoidal.base, p.sinusoidal.layout);
    return values;
}

// The mean of PE rows [first, end), float64, summed directly.
std::vector<double> meanRow(const Params &p, std::int64_t first, std::int64_t end)
{
    std::vector<double> mean(static_cast<std::size_t>(p.dModel), 0.0);
    for (std::int64_t q = first; q < end; ++q) {
        const std::vector<double> r = row(p, q);
        for (std::size_t j = 0; j < mean.size(); ++j)
            mean[j] += r[j];
    }
    for (double &v : mean)
        v /= static_cast<double>(end - first);
    return mean;
}

double dot(const std::vector<double> &a, const std::vector<double> &b)
{
    double sum = 0.0;
    for (std::size_t j = 0; j < a.size(); ++j)
        sum += a[j] * b[j];
    return sum;
}

HeatmapRequest wholeTable(std::int64_t length, int pixels)
{
    HeatmapRequest request;
    request.quantity = Quantity::Similarity;
    request.block = {0, length, 0, length};
    request.pixelRows = request.pixelCols = pixels;
    return request;
}

} // namespace

class TestSimilarityFigure : public QObject
{
    Q_OBJECT

private slots:
    void onePositionDrawsItsCellAndItsPointQuietly();
    void cellsAreTheMeanOfSOverTheirPositions_data();
    void cellsAreTheMeanOfSOverTheirPositions();
    void cellsAtAMillionPositions();
    void oneCellPerPositionIsTheDotProduct();
    void closedFormIsTheSumOfCosines();
    void measuredOffsetsDependOnKOnly();
    void measuredMarkersDoNotTouch();
    void oddDModelDependsOnPositionToo();
    void figureIsRegisteredAndExports();
    void heatmapIsSquareBesideOrAboveTheOffsets_data();
    void heatmapIsSquareBesideOrAboveTheOffsets();
    void aSizeThatFitsFitsWhenLarger();
    void bandMeansStayWithinTheMemoryBudget();
    void aGridOverTheBudgetIsRefused();
    void aWideTableTakesACoarserGrid();
};

void TestSimilarityFigure::cellsAreTheMeanOfSOverTheirPositions_data()
{
    QTest::addColumn<Params>("p");
    QTest::addColumn<bool>("cosine");
    QTest::newRow("interleaved") << params(24, 300) << false;
    QTest::newRow("split") << params(24, 300, Layout::Split) << false;
    QTest::newRow("cosine") << params(24, 300) << true;
    Params float32 = params(24, 300);
    float32.sinusoidal.angles = Angles::Float32;
    QTest::newRow("float32 angles, from the table") << float32 << false;
    // More PE columns than are summed at once (1024): the chunks add up to the whole.
    QTest::newRow("2500 columns, in chunks") << params(2500, 300) << false;
    Params wide32 = params(2500, 300);
    wide32.sinusoidal.angles = Angles::Float32;
    QTest::newRow("2500 columns, float32 angles, cosine") << wide32 << true;
}

void TestSimilarityFigure::cellsAreTheMeanOfSOverTheirPositions()
{
    QFETCH(Params, p);
    QFETCH(bool, cosine);
    // 300 positions on 70 pixels: bands of 4 or 5 positions, and the mean of S over a cell's
    // positions is the dot product of the two bands' mean rows.
    const Engine engine(p);
    const auto data = SimilarityCompute::compute(engine, wholeTable(p.maxLen, 70), cosine, {0, 10}, 100, 100, 1, nullptr);
    QVERIFY(data);
    QCOMPARE(data->grid.rows, 70);
    const double norm = cosine ? 0.5 * double(p.dModel) : 1.0; // ||PE_p||^2 for even d (float32 angles: nearly)
    for (int a = 0; a < 70; a += 7) {
        for (int b = 0; b < 70; b += 9) {
            const std::int64_t r0 = 300 * a / 70, r1 = 300 * (a + 1) / 70;
            const std::int64_t c0 = 300 * b / 70, c1 = 300 * (b + 1) / 70;
            const double expected = dot(meanRow(p, r0, r1), meanRow(p, c0, c1)) / norm;
            // float32 angles: the table's rows, whose angles differ from the exact ones by 1e-5 here.
            const double tolerance = p.sinusoidal.angles == Angles::Exact ? 1e-5 : 1e-3;
            QVERIFY2(std::abs(data->grid.at(a, b) - expected) <= tolerance * std::max(1.0, std::abs(expected)),
                     qPrintable(u"cell (%1, %2): %3 vs %4"_s.arg(a).arg(b).arg(data->grid.at(a, b)).arg(expected)));
        }
    }
}

void TestSimilarityFigure::cellsAtAMillionPositions()
{
    // Bands of thousands of positions near 2^20, in closed form, against direct float64 sums.
    const Params p = params(16, 1 << 20);
    const Engine engine(p);
    HeatmapRequest request;
    request.quantity = Quantity::Similarity;
    request.block = {1000000, 48000, 1020000, 28000};
    request.pixelRows = 12;
    request.pixelCols = 7;
    const auto data = SimilarityCompute::compute(engine, request, false, {0, 10}, 100, 100, 1, nullptr);
    QVERIFY(data);
    for (const auto &[a, b] : {std::pair {0, 0}, std::pair {5, 3}, std::pair {11, 6}}) {
        const std::int64_t r0 = 1000000 + 48000 * a / 12, r1 = 1000000 + 48000 * (a + 1) / 12;
        const std::int64_t c0 = 1020000 + 28000 * b / 7, c1 = 1020000 + 28000 * (b + 1) / 7;
        const double expected = dot(meanRow(p, r0, r1), meanRow(p, c0, c1));
        QVERIFY2(std::abs(data->grid.at(a, b) - expected) <= 1e-6,
                 qPrintable(u"cell (%1, %2): %3 vs %4"_s.arg(a).arg(b).arg(data->grid.at(a, b)).arg(expected)));
    }
}

void TestSimilarityFigure::oneCellPerPositionIsTheDotProduct()
{
    const Params p = params(32, 40);
    const Engine engine(p);
    const auto plain = SimilarityCompute::compute(engine, wholeTable(40, 100), false, {0, 10}, 100, 100, 1, nullptr);
    const auto cosine = SimilarityCompute::compute(engine, wholeTable(40, 100), true, {0, 10}, 100, 100, 1, nullptr);
    QVERIFY(plain && cosine);
    QCOMPARE(plain->grid.rows, 40);
    for (int a = 0; a < 40; ++a) {
        QVERIFY(std::abs(plain->grid.at(a, a) - 16.0) < 1e-5); // ||PE_p||^2 = d/2
        QVERIFY(std::abs(cosine->grid.at(a, a) - 1.0) < 1e-6);
        for (int b = 0; b < 40; b += 3)
            QVERIFY(std::abs(plain->grid.at(a, b) - dot(row(p, a), row(p, b))) < 1e-5);
    }
}

void TestSimilarityFigure::closedFormIsTheSumOfCosines()
{
    for (const std::int64_t d : {2, 64, 512}) {
        const Params p = params(d, 1000);
        for (const double k : {0.0, 1.0, 7.5, 333.0}) {
            double sum = 0.0;
            for (std::int64_t i = 0; i < d / 2; ++i)
                sum += std::cos(k * reference::omega(i, d, p.sinusoidal.base));
            QVERIFY(std::abs(SimilarityCompute::closedForm(p, k, false) - sum) < 1e-9 * double(d));
            QVERIFY(std::abs(SimilarityCompute::closedForm(p, k, true) - sum / double(d / 2)) < 1e-12);
        }
    }
}

void TestSimilarityFigure::measuredOffsetsDependOnKOnly()
{
    // PE_p . PE_(p+k) at p = 0 and at a middle position both equal the closed form.
    const Params p = params(64, 2000);
    const Engine engine(p);
    // 600 pixels on 1600 layout units: every offset k = 0..150 is measured.
    const auto data
        = SimilarityCompute::compute(engine, wholeTable(2000, 50), false, {0, 150}, 600, 1600, 1, nullptr);
    QVERIFY(data);
    QVERIFY(data->translationInvariant);
    QVERIFY(data->middle > 0);
    QCOMPARE(data->measuredOffsets.size(), 150 + 1);
    for (qsizetype i = 0; i < data->measuredOffsets.size(); ++i) {
        const double k = data->measuredOffsets[i];
        const double expected = SimilarityCompute::closedForm(p, k, false);
        QVERIFY2(std::abs(data->measuredFirst[i] - expected) < 1e-4, qPrintable(QString::number(k)));
        QVERIFY2(std::abs(data->measuredMiddle[i] - expected) < 1e-4, qPrintable(QString::number(k)));
        // And it is the table's own dot product.
        QVERIFY(std::abs(data->measuredFirst[i] - dot(row(p, 0), row(p, std::int64_t(k)))) < 1e-4);
    }
}

void TestSimilarityFigure::measuredMarkersDoNotTouch()
{
    // 201 offsets on a panel 400 units wide (a slide's): markers every few offsets, evenly
    // spread and at least kMarkerPitch apart, the first and the last offset among them.
    const Params p = params(64, 512);
    const Engine engine(p);
    const int width = 400;
    const auto data = SimilarityCompute::compute(engine, wholeTable(512, 50), false, {0, 200}, 800, width, 1, nullptr);
    QVERIFY(data);
    QVERIFY(data->measuredOffsets.size() >= 8);
    QCOMPARE(data->measuredOffsets.front(), 0.0);
    QCOMPARE(data->measuredOffsets.back(), 200.0);
    for (qsizetype i = 1; i < data->measuredOffsets.size(); ++i) {
        const double apart = (data->measuredOffsets[i] - data->measuredOffsets[i - 1]) * width / 200.0;
        QVERIFY2(apart >= SimilarityCompute::kMarkerPitch - 1e-9, qPrintable(QString::number(apart)));
    }
}

void TestSimilarityFigure::oddDModelDependsOnPositionToo()
{
    // A lone sine column: sin(p w) sin((p + k) w) moves with p by up to 1/2 around its mean.
    const Params p = params(9, 2000);
    const Engine engine(p);
    const auto data = SimilarityCompute::compute(engine, wholeTable(2000, 50), false, {0, 60}, 180, 180, 1, nullptr);
    QVERIFY(data);
    QVERIFY(!data->translationInvariant);
    double largest = 0.0;
    for (qsizetype i = 0; i < data->measuredOffsets.size(); ++i) {
        const double k = data->measuredOffsets[i];
        const double expected = SimilarityCompute::closedForm(p, k, false);
        QVERIFY(std::abs(data->measuredFirst[i] - expected) <= 0.5 + 1e-5);
        largest = std::max(largest, std::abs(data->measuredMiddle[i] - data->measuredFirst[i]));
    }
    QVERIFY2(largest > 0.05, qPrintable(QString::number(largest)));
}

void TestSimilarityFigure::figureIsRegisteredAndExports()
{
    const FigureDescriptor &figure = FigureBuilds::figure(u"similarity"_s);
    QCOMPARE(figure.model().inputs({}), QList<Quantity> {Quantity::Similarity});
    QVERIFY(figure.model().option(u"cosine"_s));
    FigureState state;
    state.options.insert(u"cosine"_s, u"maybe"_s);
    QCOMPARE(FigureRegistry::check(figure, params(32, 100), state).value(0).key, u"cosine"_s);
    state.options.insert(u"cosine"_s, u"true"_s);
    state.options.insert(u"positions"_s, u"10:60"_s);
    const auto built
        = FigureBuilds::build(u"similarity"_s, params(32, 100), FigureSize::fromPixels(QSize(900, 500)), state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    // The heatmap shows positions 10..59 on both axes, the offsets from 0.
    QCPColorMap *map = nullptr;
    for (int i = 0; i < built->plot()->plottableCount() && !map; ++i)
        map = qobject_cast<QCPColorMap *>(built->plot()->plottable(i));
    QVERIFY(map);
    const QCPAxisRect *heat = map->keyAxis()->axisRect();
    QCOMPARE(heat->axis(QCPAxis::atBottom)->range(), QCPRange(9.5, 59.5));
    QCOMPARE(heat->axis(QCPAxis::atLeft)->range(), QCPRange(9.5, 59.5));
    const QImage image = FigureExporter::image(built->plot(), FigureSize::fromPixels(QSize(900, 500)));
    QCOMPARE(image.size(), QSize(900, 500));
}

void TestSimilarityFigure::heatmapIsSquareBesideOrAboveTheOffsets_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("stacked");
    QTest::newRow("export default") << QSize(1200, 800) << false;
    QTest::newRow("wide") << QSize(1600, 700) << false;
    QTest::newRow("very wide") << QSize(2400, 500) << false;
    QTest::newRow("square") << QSize(1000, 1000) << false;
    QTest::newRow("4:3") << QSize(1024, 768) << false;
    QTest::newRow("small 4:3") << QSize(800, 600) << false;
    QTest::newRow("a little tall") << QSize(720, 800) << true;
    QTest::newRow("tall") << QSize(600, 900) << true;
    QTest::newRow("small") << QSize(500, 380) << false;
}

// S[p, q] treats p and q alike: its heatmap is square, so that its diagonals run at 45 degrees,
// with the plot of S(k) beside it or, in a tall figure, under it, and that plot keeping a quarter
// of the width or 40% of the height, and at least 120 pixels of plot each way.
void TestSimilarityFigure::heatmapIsSquareBesideOrAboveTheOffsets()
{
    QFETCH(QSize, size);
    QFETCH(bool, stacked);
    const auto built = FigureBuilds::build(u"similarity"_s, params(64, 1024), FigureSize::fromPixels(size));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot *plot = built->plot();
    QCPColorMap *map = nullptr;
    for (int i = 0; i < plot->plottableCount() && !map; ++i)
        map = qobject_cast<QCPColorMap *>(plot->plottable(i));
    QVERIFY(map);
    const QRect heat = map->keyAxis()->axisRect()->rect();
    QCPAxisRect *offsets = nullptr;
    for (QCPAxisRect *rect : plot->axisRects())
        if (rect->axis(QCPAxis::atBottom)->label().startsWith(u"offset k"_s))
            offsets = rect;
    QVERIFY(offsets);
    const QRect plotOfS = offsets->rect();
    const QString sizes = u"heatmap %1 x %2, S(k) %3 x %4"_s.arg(heat.width())
                              .arg(heat.height())
                              .arg(plotOfS.width())
                              .arg(plotOfS.height());
    QVERIFY2(std::abs(heat.width() - heat.height()) <= 2, qPrintable(sizes));
    QVERIFY2(plotOfS.width() >= 120 && plotOfS.height() >= 120, qPrintable(sizes));
    if (stacked) {
        QVERIFY2(plotOfS.top() > heat.bottom(), qPrintable(sizes));
        QVERIFY2(plotOfS.height() > 0.2 * size.height(), qPrintable(sizes));
    } else {
        QVERIFY2(plotOfS.left() > heat.right(), qPrintable(sizes));
        QVERIFY2(plotOfS.width() > 0.15 * size.width(), qPrintable(sizes));
    }
    // As large as the plot of S(k) leaves it: the whole height beside it (the whole width, with
    // its colour scale, above it), or S(k) no larger than its share or its 120 pixels of plot.
    const QRect all = plot->plotLayout()->element(1, 0)->rect();
    const QRect heatOuter = map->keyAxis()->axisRect()->outerRect();
    QCPColorScale *scale = nullptr;
    for (QCPLayoutElement *e : plot->plotLayout()->elements(true))
        if (auto *s = qobject_cast<QCPColorScale *>(e))
            scale = s;
    QVERIFY(scale);
    if (stacked) {
        const bool wholeWidth = scale->outerRect().right() >= all.right() - 2;
        const int below = all.bottom() - heatOuter.bottom();
        QVERIFY2(wholeWidth || below <= 0.4 * all.height() + 12 || plotOfS.height() <= 122, qPrintable(sizes));
    } else {
        const bool wholeHeight = heatOuter.height() >= all.height() - 2;
        const int beside = offsets->outerRect().width();
        // Or its column no wider than its key needs (its y label along its tick labels, the key
        // sets the column's least width: 500 x 380).
        const int least = offsets->layout()->minimumOuterSizeHint().width();
        QVERIFY2(wholeHeight || beside <= 0.25 * all.width() + 4 || plotOfS.width() <= 122 || beside <= least + 2,
                 qPrintable(sizes + u", its column's least width %1"_s.arg(least)));
    }
    // The title gives the positions a cell averages down (p) and across (q), as the grid has them
    // (in the file's metadata where a page short of room shortens it, FigureRoom::kShortRoom).
    const QString title = FigureBuilds::saidOrSetAside(*plot);
    const QRegularExpressionMatch averages
        = QRegularExpression(u"averages ~([0-9.]+) × ([0-9.]+) positions\\s+\\(p × q\\)"_s).match(title);
    QVERIFY2(averages.hasMatch(), qPrintable(title));
    QVERIFY(std::abs(averages.captured(1).toDouble() - 1024.0 / map->data()->valueSize()) < 0.01);
    QVERIFY(std::abs(averages.captured(2).toDouble() - 1024.0 / map->data()->keySize()) < 0.01);
}

// Whether a size is large enough does not depend on which way the panels go: a figure that fits
// at some size fits at every size wider or taller (300 x 325 did not, 300 x 300 and 325 x 325 did).
void TestSimilarityFigure::aSizeThatFitsFitsWhenLarger()
{
    const auto fits = [](int width, int height) {
        return !FigureBuilds::build(u"similarity"_s, params(64, 1024), FigureSize::fromPixels(QSize(width, height)))
                    ->error();
    };
    // One side held at each of these, the other grown from 200 to 700: widths first, then heights.
    for (const bool growWidth : {true, false}) {
        for (const int held : {300, 325, 400, 600}) {
            bool fitted = false;
            for (int grown = 200; grown <= 700; grown += 25) {
                const QSize size = growWidth ? QSize(grown, held) : QSize(held, grown);
                const bool now = fits(size.width(), size.height());
                QVERIFY2(now || !fitted, qPrintable(u"%1 x %2"_s.arg(size.width()).arg(size.height())));
                fitted = fitted || now;
            }
            QVERIFY(fitted);
        }
    }
}

void TestSimilarityFigure::onePositionDrawsItsCellAndItsPointQuietly()
{
    // At L = 1 the only offset is 0, where S(0) = PE_0 . PE_0 = d/2, and no middle row exists to
    // be measured: no graph may be given more offsets than values (QCustomPlot warns of it).
    QTest::failOnWarning(QRegularExpression(u".*"_s));
    const auto built = FigureBuilds::build(u"similarity"_s, params(16, 1), FigureSize::fromPixels(QSize(900, 600)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot *plot = built->plot();
    int points = 0;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph *graph = plot->graph(i);
        if (graph->dataCount() == 0)
            continue;
        QCOMPARE(graph->dataCount(), 1);
        QCOMPARE(graph->data()->at(0)->key, 0.0);
        QCOMPARE(graph->data()->at(0)->value, 8.0);
        // A point alone is a marker: a line of one point draws nothing.
        QVERIFY(graph->scatterStyle().shape() != QCPScatterStyle::ssNone);
        QVERIFY(graph->keyAxis()->range().contains(0.0));
        ++points;
    }
    QCOMPARE(points, 2); // the closed form and the table at p = 0
    QString title;
    for (QCPLayoutElement *e : plot->plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(e))
            title += text->text();
    QVERIFY2(title.contains(u"1 position,"_s), qPrintable(title));
}

// The audit: at d 262144 by L 2^24 under a 0.5 GiB budget the figure peaked at 2.89 GiB (the band
// means of every column, for both sides at once); at d 2^20, 5.7 GiB under 2. Now a chunk of
// columns at a time: here 0.5 GiB of means before, about 1 MiB now.
void TestSimilarityFigure::bandMeansStayWithinTheMemoryBudget()
{
    Params p = params(262144, std::int64_t(1) << 24);
    p.memoryBudget = std::uint64_t(64) << 20;
    const Engine engine(p);
    const HeatmapRequest visible = wholeTable(p.maxLen, 128);
    QVERIFY(!SimilarityCompute::check(engine, visible, false));
    std::optional<SimilarityData> data;
    const qint64 grown = PeakMemory::growth([&] {
        data = SimilarityCompute::compute(engine, visible, false, {0, 100}, 50, 50, 0, nullptr);
    });
    QVERIFY(data);
    if (PeakMemory::kPeakIsOurs)
        QVERIFY2(grown < qint64(64) << 20, qPrintable(u"grew by %1 MiB"_s.arg(grown >> 20)));
    // The first cell, positions [0, n) on both sides: the mean of PE_p . PE_q over them is
    // sum_i |mean_p e^{i p w_i}|^2 = sum_i (sin(n w_i / 2) / (n sin(w_i / 2)))^2, a Fejer kernel.
    const double n = double(p.maxLen / 128);
    double expected = 0.0;
    for (std::int64_t i = 0; i < p.dModel / 2; ++i) {
        const double w = std::exp(-2.0 * double(i) * std::log(p.sinusoidal.base) / double(p.dModel));
        const double kernel = std::sin(n * w / 2.0) / (n * std::sin(w / 2.0));
        expected += kernel * kernel;
    }
    QVERIFY2(std::abs(data->grid.at(0, 0) - expected) <= 1e-5 * expected,
             qPrintable(u"%1 vs %2"_s.arg(data->grid.at(0, 0)).arg(expected)));
}

void TestSimilarityFigure::aGridOverTheBudgetIsRefused()
{
    Params p = params(262144, std::int64_t(1) << 24);
    p.memoryBudget = std::uint64_t(1) << 20;
    const Engine engine(p);
    const auto refused = SimilarityCompute::check(engine, wholeTable(p.maxLen, 128), false);
    QVERIFY(refused);
    QVERIFY2(refused->contains(u"over the memory budget"_s) && refused->contains(u"GiB"_s), qPrintable(*refused));
    // The figure's model refuses it so, before computing: its heatmap panel of 128 x 128 pixels
    // over every position, its offsets panel beside it.
    const double whole = double(p.maxLen) - 0.5;
    FigureRequest request;
    request.engine = std::make_shared<const Engine>(p);
    request.panels = {PanelExtent {QSize(128, 128), 1.0, {-0.5, whole}, {-0.5, whole}},
                      PanelExtent {QSize(100, 100), 1.0, {0.0, 100.0}, {-1.0, 1.0}}};
    const FigureResult result = FigureRegistry::find(u"similarity"_s)->model().compute(request, {});
    QVERIFY(result.refusal && result.refusal->contains(u"over the memory budget"_s));
}

// Before: at d 2^20 the grid of a 400 x 400 panel took 2^37 products of band means and S(k)'s
// curve 2^33 cosines: `posenc export similarity` at d 2^20 by L 2^24 ran 5 minutes. Now the grid
// is coarser past 2^33 products (each cell still the exact mean of its positions) and the curve
// takes at most 2^26 cosines.
void TestSimilarityFigure::aWideTableTakesACoarserGrid()
{
    Params p;
    p.dModel = std::int64_t(1) << 18;
    p.maxLen = std::int64_t(1) << 20;
    const Engine engine(p);
    const auto data
        = SimilarityCompute::compute(engine, wholeTable(p.maxLen, 256), false, {0, double(p.maxLen)}, 600, 600, 0, nullptr);
    QVERIFY(data);
    const double products = double(data->grid.rows) * double(data->grid.cols) * double(p.dModel);
    QVERIFY2(products <= double(std::int64_t(1) << 33), qPrintable(QString::number(products)));
    QVERIFY(data->grid.rows >= 128 && data->grid.cols >= 128);
    QCOMPARE(data->grid.values.size(), std::size_t(data->grid.rows) * std::size_t(data->grid.cols));
    QVERIFY(double(data->offsets.size()) * double(p.dModel / 2) <= double(std::int64_t(1) << 26));
    // A cell is the mean of S over its positions: the mean of a band's own cell against the
    // closed form's mean over its offsets is not checked here (cellsAreTheMeanOfSOverTheirPositions
    // does), only that each is a number within S's bounds, |S| <= d / 2.
    for (const float v : data->grid.values)
        QVERIFY(std::isfinite(v) && std::abs(v) <= p.dModel / 2 + 1);
}

POSENC_TEST_MAIN(TestSimilarityFigure)
} // namespace tst_similarityfigure
#include "tst_similarityfigure.moc"
