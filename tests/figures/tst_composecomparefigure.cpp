// Sum against concatenation: X both ways on one colour scale, and per column the mean and std
// over every position of the PE and of s*E, against float64 sums over positions written here
// from the definitions (the PE) and from the engine's own cells (s*E).
#include "render/FigureExporter.h"
#include "render/figures/sinusoidal/ComposeCompareFigure.h"
#include "support/TestMain.h"

#include "render/data/VisibleCells.h"

#include "../core/Reference.h"
#include "support/FigureBuilds.h"
#include "support/Sanitizer.h"

#include <QTest>

#include <cmath>

namespace tst_composecomparefigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params params(std::int64_t d, std::int64_t length, Layout layout = Layout::Interleaved)
{
    Params p;
    p.dModel = d;
    p.maxLen = length;
    p.sinusoidal.layout = layout;
    p.seed = 4;
    return p;
}

// The whole table on `pixels` x `pixels`, for both sides.
ComposeCompareCompute::Request wholeTable(const Params &p, int pixels)
{
    ComposeCompareCompute::Request request;
    for (HeatmapRequest &visible : request.visible) {
        visible.quantity = Quantity::Input;
        visible.block = {0, p.maxLen, 0, p.dModel};
        visible.pixelRows = visible.pixelCols = pixels;
    }
    return request;
}

struct Moments
{
    double mean = 0.0, std = 0.0;
};

// Mean and population std over the positions of `values(p)`, float64, in two passes.
template<typename Values> Moments moments(std::int64_t length, Values values)
{
    Moments m;
    for (std::int64_t q = 0; q < length; ++q)
        m.mean += values(q);
    m.mean /= double(length);
    for (std::int64_t q = 0; q < length; ++q)
        m.std += (values(q) - m.mean) * (values(q) - m.mean);
    m.std = std::sqrt(m.std / double(length));
    return m;
}

void compareMoments(const ColumnPart &part, qsizetype i, const Moments &expected, double tolerance, const char *what)
{
    QVERIFY2(std::abs(part.mean[i] - expected.mean) <= tolerance && std::abs(part.std[i] - expected.std) <= tolerance,
             qPrintable(u"%1 column %2: mean %3, std %4 against %5, %6"_s.arg(QString::fromLatin1(what))
                            .arg(part.columns[i])
                            .arg(part.mean[i])
                            .arg(part.std[i])
                            .arg(expected.mean)
                            .arg(expected.std)));
}

} // namespace

class TestComposeCompareFigure : public QObject
{
    Q_OBJECT

private slots:
    void columnStatisticsAreFloat64Sums_data();
    void columnStatisticsAreFloat64Sums();
    void slowColumnsAreAnOffsetAndFastOnesVary();
    void heatmapsShareOneColourScaleAndConcatHoldsThePeAlone();
    void aLoadedMatrixEntersConcatByItsFirstColumns();
    void panelsNameTheirCompositionAndMoveTogether();
    void figureIsRegisteredAndExports();
    void statisticsPastTheCapAreAnEstimate();
};

void TestComposeCompareFigure::columnStatisticsAreFloat64Sums_data()
{
    QTest::addColumn<Params>("p");
    QTest::newRow("interleaved, d 32, L 300") << params(32, 300);
    QTest::newRow("split, d 32, L 300") << params(32, 300, Layout::Split);
    Params k = params(40, 257);
    k.peDims = 10;
    QTest::newRow("k 10 of d 40, L 257") << k;
    Params odd = params(33, 100);
    odd.peDims = 7;
    QTest::newRow("odd d and k") << odd;
}

void TestComposeCompareFigure::columnStatisticsAreFloat64Sums()
{
    QFETCH(Params, p);
    const auto data = ComposeCompareCompute::compute(p, wholeTable(p, 50), {}, nullptr);
    QVERIFY(data);
    QVERIFY(data->statisticsExact());
    const std::int64_t d = p.dModel;
    const std::int64_t k = p.peDims.value_or(d / 2);
    const auto sides = ComposeCompareCompute::sides(p);
    for (std::size_t side = 0; side < 2; ++side) {
        const bool concat = side == 1;
        const ComposePanel &panel = data->panels[side];
        QCOMPARE(panel.params.compose, concat ? Compose::Concat : Compose::Sum);
        // The PE: all d columns in sum, X's last k in concat, where column d - k + i is PE_k[:, i].
        const std::int64_t first = concat ? d - k : 0;
        const std::int64_t columns = concat ? k : d;
        QCOMPARE(panel.pe.columns.size(), columns);
        for (std::int64_t i = 0; i < columns; ++i) {
            QCOMPARE(panel.pe.columns[i], double(first + i));
            const Moments expected = moments(p.maxLen, [&](std::int64_t q) {
                return reference::exactValue(q, i, columns, p.sinusoidal.base, p.sinusoidal.layout);
            });
            compareMoments(panel.pe, i, expected, 1e-9, "PE");
        }
        // s*E: the engine's cells of the side, summed here.
        const std::int64_t embedding = concat ? d - k : d;
        QCOMPARE(panel.embedding.columns.size(), embedding);
        const Engine engine(sides[side]);
        const auto table = engine.table(Quantity::Embedding, {0, p.maxLen, 0, embedding});
        QVERIFY(table);
        for (std::int64_t j = 0; j < embedding; ++j) {
            QCOMPARE(panel.embedding.columns[j], double(j));
            const Moments expected = moments(p.maxLen, [&](std::int64_t q) { return double((*table)(q, j)); });
            compareMoments(panel.embedding, j, expected, 1e-9 * std::max(1.0, expected.std), "s·E");
        }
    }
    // concat's s*E is sum's first d - k columns: the same cells.
    for (std::int64_t j = 0; j < d - k; ++j)
        QCOMPARE(data->panels[1].embedding.std[j], data->panels[0].embedding.std[j]);
}

void TestComposeCompareFigure::slowColumnsAreAnOffsetAndFastOnesVary()
{
    // The closed forms of the question: over L = 1024 positions the slowest cosine column of
    // d = 512 (w = 10000^(-510/512), ~1e-4) is cos(p w) ~ 1: mean ~1, std ~0, an offset; the
    // fastest (w = 1, a period of 6.3 positions) has mean ~0 and std ~1/sqrt(2).
    const Params p = params(512, 1024);
    const auto data = ComposeCompareCompute::compute(p, wholeTable(p, 64), {}, nullptr);
    QVERIFY(data);
    const ComposePanel &sum = data->panels[0];
    QCOMPARE(sum.fastestCos, 1);
    QCOMPARE(sum.slowestCos, 511);
    const qsizetype slow = sum.pe.columns.indexOf(511.0), fast = sum.pe.columns.indexOf(1.0);
    const double w = reference::omega(255, 512, 10000.0);
    const Moments slowExpected = moments(1024, [&](std::int64_t q) { return std::cos(double(q) * w); });
    const Moments fastExpected = moments(1024, [&](std::int64_t q) { return std::cos(double(q)); });
    compareMoments(sum.pe, slow, slowExpected, 1e-12, "slow cos");
    compareMoments(sum.pe, fast, fastExpected, 1e-12, "fast cos");
    QVERIFY(sum.pe.mean[slow] > 0.99 && sum.pe.std[slow] < 0.01);
    QVERIFY(std::abs(sum.pe.mean[fast]) < 0.01 && std::abs(sum.pe.std[fast] - std::sqrt(0.5)) < 0.01);
    // In concat the PE of k = 256 columns sits in X's 256..511: its fastest cosine at 257.
    QCOMPARE(data->panels[1].fastestCos, 257);
    QCOMPARE(data->panels[1].slowestCos, 511);
    // The caption says so in words and numbers.
    QCustomPlot plot;
    plot.setViewport(QRect(0, 0, 1400, 900)); // room for the captions
    ComposeCompareFigure figure(&plot);
    figure.setData(*data);
    const QString all = FigureBuilds::texts(plot).join(u'\n');
    QVERIFY2(all.contains(u"slowest cos j = 511: mean 1.00, std 0.0017 (an offset)"_s), qPrintable(all));
    QVERIFY2(all.contains(u"fastest cos j = 1: mean 0.00, std 0.71 (varies fully)"_s), qPrintable(all));
}

void TestComposeCompareFigure::heatmapsShareOneColourScaleAndConcatHoldsThePeAlone()
{
    // One grid cell per table cell: concat's last k columns are PE_k exactly, its first d - k
    // s*E; sum's cells are s*E + PE; both on one colour scale as wide as the larger of them.
    Params p = params(16, 40);
    p.init = InitKind::ScaledNormal;
    const auto data = ComposeCompareCompute::compute(p, wholeTable(p, 64), {}, nullptr);
    QVERIFY(data);
    const HeatmapGrid &sum = data->panels[0].grid;
    const HeatmapGrid &concat = data->panels[1].grid;
    QCOMPARE(sum.rows, 40);
    QCOMPARE(concat.cols, 16);
    const Engine engine(ComposeCompareCompute::sides(p)[0]);
    const auto embedding = engine.table(Quantity::Embedding, {0, 40, 0, 16});
    QVERIFY(embedding);
    double largest = 0.0;
    for (int q = 0; q < 40; ++q) {
        for (int j = 0; j < 16; ++j) {
            const double pe = reference::exactValue(q, j, 16, p.sinusoidal.base, p.sinusoidal.layout);
            QVERIFY(std::abs(sum.at(q, j) - (double((*embedding)(q, j)) + pe)) < 1e-5);
            const double expected = j < 8 ? double((*embedding)(q, j))
                                          : reference::exactValue(q, j - 8, 8, p.sinusoidal.base, p.sinusoidal.layout);
            QVERIFY(std::abs(concat.at(q, j) - expected) < 1e-6);
            largest = std::max({largest, std::abs(double(sum.at(q, j))), std::abs(double(concat.at(q, j)))});
        }
    }
    // The colour range comes from the parameters, not from the cells (QuantitySpec::bound): the PE's 1
    // plus three standard deviations of s·E, so that it is the same at any resolution.
    QVERIFY(largest > 0.0);
    QVERIFY(std::abs(data->colorLimit - (1.0 + 3.0 * p.scale() * p.sigma())) < 1e-9);
    QCustomPlot plot;
    ComposeCompareFigure figure(&plot);
    figure.setData(*data);
    QCOMPARE(figure.colorMap(0)->colorScale(), figure.colorScale());
    QCOMPARE(figure.colorMap(1)->colorScale(), figure.colorScale());
    QCOMPARE(figure.colorScale()->dataRange(), QCPRange(-data->colorLimit, data->colorLimit));
}

void TestComposeCompareFigure::aLoadedMatrixEntersConcatByItsFirstColumns()
{
    Params p = params(8, 30);
    auto matrix = std::make_shared<EmbeddingMatrix>();
    matrix->values = RowMatrixXf::Random(50, 8);
    matrix->source = u"model.npy"_s;
    p.embeddings = matrix;
    p.scaleKind = ScaleKind::One;
    const auto data = ComposeCompareCompute::compute(p, wholeTable(p, 30), {}, nullptr);
    QVERIFY(data);
    QVERIFY(data->embeddingsSliced);
    const ColumnPart &concat = data->panels[1].embedding;
    QCOMPARE(concat.columns.size(), 4);
    for (int j = 0; j < 4; ++j) {
        const Moments expected = moments(30, [&](std::int64_t q) { return double(matrix->values(q, j)); });
        compareMoments(concat, j, expected, 1e-9, "E");
    }
    // A matrix of d - k columns (made for concat) cannot be summed with the PE: refused, named.
    Params narrow = params(8, 30);
    narrow.compose = Compose::Concat;
    auto half = std::make_shared<EmbeddingMatrix>();
    half->values = RowMatrixXf::Random(30, 4);
    narrow.embeddings = half;
    QVERIFY(narrow.isValid());
    const auto problems = FigureRegistry::check(FigureBuilds::figure(u"compose-compare"_s), narrow, {});
    QCOMPARE(problems.size(), 1);
    QCOMPARE(problems.front().key, u"embeddings"_s);
}

void TestComposeCompareFigure::panelsNameTheirCompositionAndMoveTogether()
{
    Params p = params(64, 100);
    p.peDims = 16;
    const auto built = FigureBuilds::build(u"compose-compare"_s, p, FigureSize::fromPixels(QSize(1300, 850)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QStringList texts;
    for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(e))
            texts.append(text->text().replace(u'\n', u' '));
    const QString all = texts.join(u'\n');
    for (const QString &expected :
         {u"sum: X = s·E + PE"_s, u"concat: X = [s·E | PE]"_s, u"PE added to all 64 columns"_s,
          u"s·E in columns 0–47, PE (k = 16) in 48–63"_s, u"d = 64, L = 100"_s, u"s = √d = 8, σ = 1"_s,
          u"statistics over all 100 positions"_s})
        QVERIFY2(all.contains(expected), qPrintable(expected + u" not in\n"_s + all));
    // Zooming one heatmap moves the other and the statistics under both.
    auto *figure = qobject_cast<QCPColorMap *>(built->plot()->plottable(0));
    QVERIFY(figure);
    QCPAxisRect *heat = figure->keyAxis()->axisRect();
    heat->axis(QCPAxis::atBottom)->setRange(40.5, 60.5);
    heat->axis(QCPAxis::atLeft)->setRange(-0.5, 20.5);
    for (QCPAxisRect *rect : built->plot()->axisRects()) {
        QCOMPARE(rect->axis(QCPAxis::atBottom)->range(), QCPRange(40.5, 60.5));
        if (rect->axis(QCPAxis::atLeft)->scaleType() == QCPAxis::stLinear)
            QCOMPARE(rect->axis(QCPAxis::atLeft)->range(), QCPRange(-0.5, 20.5));
    }
}

void TestComposeCompareFigure::figureIsRegisteredAndExports()
{
    const FigureDescriptor &figure = FigureBuilds::figure(u"compose-compare"_s);
    QCOMPARE(figure.model().inputs({}), (QList<Quantity> {Quantity::Pe, Quantity::Embedding}));
    FigureState state;
    state.options.insert(u"dims"_s, u"0:65"_s);
    QCOMPARE(FigureRegistry::check(figure, params(64, 100), state).value(0).key, u"dims"_s);
    state.options.insert(u"dims"_s, u"0:16"_s);
    state.options.insert(u"positions"_s, u"10:42"_s);
    const auto built
        = FigureBuilds::build(u"compose-compare"_s, params(64, 100), FigureSize::fromPixels(QSize(1300, 850)), state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    auto *map = qobject_cast<QCPColorMap *>(built->plot()->plottable(0));
    QVERIFY(map);
    QCOMPARE(map->keyAxis()->range(), QCPRange(-0.5, 15.5));
    QCOMPARE(map->valueAxis()->range(), QCPRange(9.5, 41.5));
    const QImage image = FigureExporter::image(built->plot(), FigureSize::fromPixels(QSize(1300, 850)));
    QCOMPARE(image.size(), QSize(1300, 850));
}

// The audit: compose-compare at d 2^20 by L 2^24 took every position of s*E (hours). Past the cap
// of every figure, the statistics are an estimate from the positions within it, which the figure
// says; within it, every position as before.
void TestComposeCompareFigure::statisticsPastTheCapAreAnEstimate()
{
    QCOMPARE(ComposeCompareCompute::statisticsRows(params(8192, 1 << 20)), std::int64_t(1) << 20);
    const Params largest = params(1 << 20, std::int64_t(1) << 24);
    const std::int64_t rows = ComposeCompareCompute::statisticsRows(largest);
    QVERIFY(rows < largest.maxLen);
    QVERIFY(Budget::exactCost(rows, largest.embeddingColumns()) <= double(Budget::kMaxExactCells));
    // A short table of wide rows: 600 positions, 512 within the cap. The statistics then take 2^29
    // cells of s*E (nearly a minute under AddressSanitizer), which the release suite computes. They
    // are over the whole table whatever block the heatmaps draw: these draw a corner, and the
    // whole table drawn at full detail took twice the statistics' time again (13 s against 4.6).
    const Params wide = params(1 << 20, 600);
    QCOMPARE(ComposeCompareCompute::statisticsRows(wide), std::int64_t(512));
#if defined(POSENC_TEST_ASAN)
    QSKIP("2^29 cells of s*E: the release suite computes the figure");
#endif
    ComposeCompareCompute::Request request;
    for (HeatmapRequest &visible : request.visible) {
        visible.quantity = Quantity::Input;
        visible.block = {0, 32, 0, 32};
        visible.pixelRows = visible.pixelCols = 32;
    }
    request.detail = Detail::Full;
    const auto data = ComposeCompareCompute::compute(wide, request, {}, nullptr);
    QVERIFY(data);
    QCOMPARE(data->statisticsRows, std::int64_t(512));
}

POSENC_TEST_MAIN(TestComposeCompareFigure)
} // namespace tst_composecomparefigure
#include "tst_composecomparefigure.moc"
