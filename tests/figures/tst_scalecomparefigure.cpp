// The scale comparison: ||s*E_p|| against ||PE_p|| for sigma in {1, d^-1/2} x s in {1, sqrt(d)},
// its ratios against sqrt(s^2 sigma^2 d / (d/2)) within a tolerance derived below, and its
// norms against float64 sums written here from the definitions.
//
// The tolerance. Over n = rows x d_E cells, E = sigma z with z ~ N(0, 1) independent, so
// sum ||s E_p||^2 = s^2 sigma^2 sum z^2, and sum z^2 has mean n and variance 2n. The PE's
// squared norms sum to rows x k/2 exactly (sin^2 + cos^2 = 1 per pair). The measured ratio over
// the expected one is sqrt(sum z^2 / n) = 1 + delta with delta ~ (sum z^2 / n - 1) / 2, whose
// standard deviation is sqrt(2/n) / 2 = sqrt(1 / (2n)). Five of them: a correct figure fails
// with probability 6e-7 for a seed; the float32 rounding of the cells (1e-7) adds nothing
// visible.
#include "render/FigureExporter.h"
#include "render/figures/sinusoidal/ScaleCompareFigure.h"
#include "support/TestMain.h"

#include "render/data/FigureText.h"

#include "../core/Reference.h"
#include "support/FigureBuilds.h"

#include <QSet>
#include <QTest>

#include <cmath>
#include <functional>

namespace tst_scalecomparefigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params params(std::int64_t d, std::int64_t length, std::uint64_t seed = 0)
{
    Params p;
    p.dModel = d;
    p.maxLen = length;
    p.seed = seed;
    return p;
}

Params sizedCopy(Params p, std::int64_t d)
{
    p.dModel = d;
    return p;
}

// The four panels as the figure promises them, written from the definitions: sigma 1 then
// d^-1/2, each with s 1 then sqrt(d).
struct Panel
{
    double sigma, s;
};

std::array<Panel, 4> panelsOf(std::int64_t d)
{
    const double root = std::sqrt(double(d));
    return {Panel {1.0, 1.0}, Panel {1.0, root}, Panel {1.0 / root, 1.0}, Panel {1.0 / root, root}};
}

// sum_j PE[p, j]^2 of a table with k columns, float64.
double peSquared(std::int64_t position, std::int64_t k, const Params &p)
{
    double sum = 0.0;
    for (std::int64_t j = 0; j < k; ++j) {
        const double v = reference::exactValue(position, j, k, p.sinusoidal.base, p.sinusoidal.layout);
        sum += v * v;
    }
    return sum;
}

} // namespace

class TestScaleCompareFigure : public QObject
{
    Q_OBJECT

private slots:
    void onePositionDrawsItsNormsAsMarkers();
    void ratiosAreTheClosedFormWithinStatistics_data();
    void ratiosAreTheClosedFormWithinStatistics();
    void normsAreFloat64Sums();
    void oddDModelTakesTheMeanSquaredNorm();
    void longTablesAreMeasuredAtEvenlySpacedPositions();
    void panelsNameTheirSigmaAndScaleAndShareTheirAxes();
    void figureIsRegisteredAndExports();
    void ratioAgainstDModelIsTheClosedForm();
    void aLoadedMatrixHasNoOwnRatioAndConcatSkipsDWithoutE();
    void theRatioGoesWhereThereIsRoom();
    void theRatioKeyCoversNoLine_data();
    void theRatioKeyCoversNoLine();
};

void TestScaleCompareFigure::ratiosAreTheClosedFormWithinStatistics_data()
{
    QTest::addColumn<Params>("p");
    QTest::newRow("d 16, L 64") << params(16, 64);
    QTest::newRow("d 16, L 64, seed 7") << params(16, 64, 7);
    QTest::newRow("d 512, L 1024 (the defaults)") << params(512, 1024);
    QTest::newRow("d 512, L 1024, seed 3") << params(512, 1024, 3);
    QTest::newRow("d 100, L 3000, seed 11") << params(100, 3000, 11);
    Params concat = params(64, 500, 5);
    concat.compose = Compose::Concat;
    concat.peDims = 16;
    QTest::newRow("concat, k 16 of d 64") << concat;
    Params loaded = params(32, 200);
    auto matrix = std::make_shared<EmbeddingMatrix>();
    matrix->values = RowMatrixXf::Constant(200, 32, 5.0f);
    matrix->source = u"fives.npy"_s;
    loaded.embeddings = matrix;
    QTest::newRow("a loaded matrix is set aside") << loaded;
}

void TestScaleCompareFigure::ratiosAreTheClosedFormWithinStatistics()
{
    QFETCH(Params, p);
    const auto data = ScaleCompareCompute::compute(p, Detail::Full, {});
    QVERIFY(data);
    QVERIFY(data->isExact());
    QCOMPARE(data->variants.size(), 4);
    const bool concat = p.compose == Compose::Concat;
    const std::int64_t k = concat ? *p.peDims : p.dModel;
    const std::int64_t dE = p.dModel - (concat ? k : 0);
    const double n = double(p.maxLen) * double(dE);
    const double tolerance = 5.0 * std::sqrt(1.0 / (2.0 * n));
    const std::array<Panel, 4> panels = panelsOf(p.dModel);
    for (int v = 0; v < 4; ++v) {
        const Panel &panel = panels[std::size_t(v)];
        // sqrt(s^2 sigma^2 d_E / (k/2)): sqrt(s^2 sigma^2 d / (d/2)) in sum.
        const double expected = std::sqrt(panel.s * panel.s * panel.sigma * panel.sigma * double(dE) / (double(k) / 2));
        const ScaleVariant &variant = data->variants[v];
        QVERIFY2(std::abs(variant.expectedRatio - expected) <= 1e-12 * expected,
                 qPrintable(u"panel %1: expected %2, figure %3"_s.arg(v).arg(expected).arg(variant.expectedRatio)));
        const double deviation = variant.measuredRatio / expected - 1.0;
        QVERIFY2(std::abs(deviation) <= tolerance,
                 qPrintable(u"panel %1: measured %2 against %3 (%4 off, tolerance %5)"_s.arg(v)
                                .arg(variant.measuredRatio)
                                .arg(expected)
                                .arg(deviation)
                                .arg(tolerance)));
    }
    // sigma d^-1/2 with s sqrt(d) is sigma 1 with s 1: the same cells, the same ratio sqrt(2)
    // in sum, the PE and s*E on the same footing.
    QVERIFY(std::abs(data->variants[3].measuredRatio - data->variants[0].measuredRatio)
            <= 1e-6 * data->variants[0].measuredRatio);
    if (!concat)
        QVERIFY(std::abs(data->variants[3].expectedRatio - std::sqrt(2.0)) < 1e-12);
}

void TestScaleCompareFigure::normsAreFloat64Sums()
{
    // Per position, ||s E_p|| from the engine's own cells summed in float64 here, ||PE_p|| from
    // the float64 definition; the ratio from the sums over positions.
    const Params p = params(24, 150, 9);
    const auto data = ScaleCompareCompute::compute(p, Detail::Full, {});
    QVERIFY(data);
    QCOMPARE(data->positions.size(), 150);
    const QList<Params> variants = ScaleCompareCompute::variants(p);
    double peSum = 0.0;
    for (std::int64_t q = 0; q < 150; ++q) {
        const double pe = peSquared(q, 24, p);
        peSum += pe;
        QVERIFY(std::abs(data->peNorm[q] - std::sqrt(pe)) < 1e-6);
    }
    for (int v = 0; v < 4; ++v) {
        const Panel panel = panelsOf(24)[std::size_t(v)];
        QCOMPARE(variants[v].sigma(), panel.sigma);
        QCOMPARE(variants[v].scale(), panel.s);
        const Engine engine(variants[v]);
        const auto table = engine.table(Quantity::Embedding, {0, 150, 0, 24});
        QVERIFY(table);
        double sum = 0.0;
        for (std::int64_t q = 0; q < 150; ++q) {
            double row = 0.0;
            for (std::int64_t j = 0; j < 24; ++j)
                row += double((*table)(q, j)) * double((*table)(q, j));
            sum += row;
            QVERIFY(std::abs(data->variants[v].embeddingNorm[q] - std::sqrt(row)) <= 1e-12 * std::sqrt(row));
        }
        QVERIFY(std::abs(data->variants[v].measuredRatio - std::sqrt(sum / peSum)) <= 1e-7 * std::sqrt(sum / peSum));
        QVERIFY(std::abs(data->variants[v].expectedEmbeddingNorm - panel.s * panel.sigma * std::sqrt(24.0)) < 1e-12);
    }
}

void TestScaleCompareFigure::oddDModelTakesTheMeanSquaredNorm()
{
    // A lone sine column: ||PE_p||^2 = (d-1)/2 + sin^2(p w), its mean over the positions summed here.
    const Params p = params(9, 400);
    const auto data = ScaleCompareCompute::compute(p, Detail::Full, {});
    QVERIFY(data);
    double mean = 0.0;
    for (std::int64_t q = 0; q < 400; ++q)
        mean += peSquared(q, 9, p) / 400.0;
    QVERIFY2(std::abs(data->meanSquaredPeNorm - mean) < 1e-9,
             qPrintable(u"%1 against %2"_s.arg(data->meanSquaredPeNorm).arg(mean)));
    QVERIFY(std::abs(data->variants[0].expectedRatio - std::sqrt(9.0 / mean)) < 1e-12);
    QVERIFY(data->ratioFormula.contains(u"mean‖PEₚ‖²"_s));
}

void TestScaleCompareFigure::longTablesAreMeasuredAtEvenlySpacedPositions()
{
    // 2^20 positions of 64 columns: five tables of that many cells are over the full budget, so
    // every few positions are measured, within the statistics of the cells that were.
    const Params p = params(64, 1 << 20);
    const auto data = ScaleCompareCompute::compute(p, Detail::Full, {});
    QVERIFY(data);
    QVERIFY(!data->isExact());
    const std::int64_t stride = data->positionStride;
    QVERIFY(stride > 1);
    QVERIFY(5 * 64 * ((p.maxLen + stride - 1) / stride) <= Budget::cells(Detail::Full));
    QCOMPARE(data->positions.size(), (p.maxLen + stride - 1) / stride);
    QCOMPARE(data->positions[1] - data->positions[0], double(stride));
    const double n = double(data->positions.size()) * 64.0;
    for (int v = 0; v < 4; ++v)
        QVERIFY(std::abs(data->variants[v].measuredRatio / data->variants[v].expectedRatio - 1.0)
                <= 5.0 * std::sqrt(1.0 / (2.0 * n)));
    const auto built = FigureBuilds::build(u"scale-compare"_s, p, FigureSize::fromPixels(QSize(1200, 800)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    auto *title = qobject_cast<QCPTextElement *>(built->plot()->plotLayout()->element(0, 0));
    QVERIFY(title);
    QVERIFY2(title->text().contains(u"norms at one position in %1"_s.arg(FigureText::formatCount(stride))),
             qPrintable(title->text()));
}

void TestScaleCompareFigure::panelsNameTheirSigmaAndScaleAndShareTheirAxes()
{
    const Params p = params(64, 100);
    const auto data = ScaleCompareCompute::compute(p, Detail::Full, {});
    QVERIFY(data);
    QCustomPlot plot;
    plot.resize(1200, 800);
    ScaleCompareFigure figure(&plot);
    figure.setData(*data);
    const QStringList sigmas {u"σ = 1"_s, u"σ = 1"_s, u"σ = d^-1/2 = 0.125"_s, u"σ = d^-1/2 = 0.125"_s};
    const QStringList scales {u"s = 1"_s, u"s = √d = 8"_s, u"s = 1"_s, u"s = √d = 8"_s};
    for (int v = 0; v < 4; ++v) {
        const QString header = figure.panelHeader(v)->text();
        QVERIFY2(header.contains(sigmas[v]) && header.contains(scales[v]), qPrintable(header));
        // The ratio as a number, measured and expected: sqrt(2) = 1.4142, sqrt(2d) = 11.314, ...
        const QString ratio = figure.panelRatio(v)->text();
        QVERIFY2(ratio.contains(u"‖s·E‖ / ‖PE‖ = "_s + NumberText::compact(data->variants[v].measuredRatio, 5)),
                 qPrintable(ratio));
        QVERIFY2(ratio.contains(u"√(s²σ²d / (d/2)) = "_s + NumberText::compact(data->variants[v].expectedRatio, 5)),
                 qPrintable(ratio));
        QCOMPARE(figure.panelRect(v)->axis(QCPAxis::atLeft)->range(),
                 figure.panelRect(0)->axis(QCPAxis::atLeft)->range());
        QCOMPARE(figure.panelRect(v)->axis(QCPAxis::atLeft)->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(figure.panelRect(v)->axis(QCPAxis::atBottom)->range(),
                 figure.panelRect(0)->axis(QCPAxis::atBottom)->range());
    }
    QVERIFY(figure.panelRatio(1)->text().contains(u"= 11.314"_s)); // sqrt(2 d): the PE drowned
    QVERIFY(figure.panelRatio(2)->text().contains(u"= 0.17678"_s)); // sqrt(2 / d): the embedding drowned
    // Every level drawn lies within the shared range.
    const QCPRange range = figure.panelRect(0)->axis(QCPAxis::atLeft)->range();
    for (const ScaleVariant &variant : data->variants)
        for (const double norm : variant.embeddingNorm)
            QVERIFY(range.contains(norm));
}

void TestScaleCompareFigure::figureIsRegisteredAndExports()
{
    const FigureDescriptor &figure = FigureBuilds::figure(u"scale-compare"_s);
    QCOMPARE(figure.model().inputs({}), (QList<Quantity> {Quantity::Pe, Quantity::Embedding}));
    FigureState state;
    state.options.insert(u"quantity"_s, u"input"_s);
    QCOMPARE(FigureRegistry::check(figure, params(32, 100), state).value(0).key, u"quantity"_s);
    for (const QSize size : {QSize(1200, 800), QSize(640, 420)}) {
        const auto built = FigureBuilds::build(u"scale-compare"_s, params(32, 100), FigureSize::fromPixels(size));
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        const QImage image = FigureExporter::image(built->plot(), FigureSize::fromPixels(size));
        QCOMPARE(image.size(), size);
    }
}

// The ratio against d_model, sqrt(s^2 sigma^2 d_E / (k/2)), written from the definition for the
// four conventions and for the parameters' own: Keras' U(-0.05, 0.05) has sigma 0.05 / sqrt(3),
// which with s = sqrt(d) gives 0.9238 at d 512 and 0.4619 at d 128 (the TensorFlow tutorial's
// asker: the PE is the larger).
void TestScaleCompareFigure::ratioAgainstDModelIsTheClosedForm()
{
    const double keras = 0.05 / std::sqrt(3.0);
    Params p = params(512, 64);
    p.init = InitKind::Custom;
    p.customSigma = keras;
    const auto data = ScaleCompareCompute::compute(p, Detail::Full, {});
    QVERIFY(data);
    QCOMPARE(data->ratios.size(), 5);
    const std::array<std::function<double(double)>, 5> expected {
        [](double) { return std::sqrt(2.0); },
        [](double d) { return std::sqrt(2.0 * d); },
        [](double d) { return std::sqrt(2.0 / d); },
        [](double) { return std::sqrt(2.0); },
        [keras](double d) { return keras * std::sqrt(2.0 * d); },
    };
    for (qsizetype c = 0; c < 5; ++c) {
        const RatioAgainstD &curve = data->ratios[c];
        QCOMPARE(curve.yours, c == 4);
        QCOMPARE(curve.d.front(), 16.0);
        QCOMPARE(curve.d.back(), 16384.0);
        QCOMPARE(curve.d.size(), 41); // 4 a factor of 2 over 10 octaves
        for (qsizetype i = 0; i < curve.d.size(); ++i) {
            const double want = expected[static_cast<std::size_t>(c)](curve.d[i]);
            QVERIFY2(
                std::abs(curve.ratio[i] / want - 1.0) < 1e-12,
                qPrintable(u"%1 at d %2: %3, not %4"_s.arg(curve.label).arg(curve.d[i]).arg(curve.ratio[i]).arg(want)));
        }
    }
    QCOMPARE(data->ratios[4].label, u"yours: σ = 0.02887, s = √d"_s);
    QCOMPARE(data->d, 512.0);
    QVERIFY(std::abs(data->ownRatio - 0.92376) < 1e-5);
    QVERIFY(std::abs(ScaleCompareCompute::expectedRatio(sizedCopy(p, 128)) - 0.46188) < 1e-5);
    // Drawn: the header's number, a dot at the parameters' d, and every line in the legend.
    QCustomPlot plot;
    plot.setViewport(QRect(0, 0, 1200, 800)); // wide: the ratio beside the panels
    ScaleCompareFigure figure(&plot);
    figure.setData(*data);
    const QString texts = FigureBuilds::texts(plot).join(u'\n');
    QVERIFY2(texts.contains(u"yours: σ = 0.02887, s = √d at d = 512: 0.92376"_s), qPrintable(texts));
    QStringList named;
    for (int i = 0; i < plot.graphCount(); ++i) {
        QCPGraph *graph = plot.graph(i);
        if (graph->keyAxis()->scaleType() != QCPAxis::stLogarithmic || !graph->visible())
            continue; // a panel's, against the position
        named.append(graph->name());
        if (graph->dataCount() == 1) { // the dot at the parameters' d
            QCOMPARE(graph->data()->at(0)->key, 512.0);
            QCOMPARE(graph->data()->at(0)->value, data->ownRatio);
        }
    }
    for (const QString &name :
         {u"σ 1, s 1"_s, u"σ 1, s √d"_s, u"σ d^-1/2, s 1"_s, u"σ d^-1/2, s √d"_s, u"yours"_s, u"equal norms"_s})
        QVERIFY2(named.contains(name), qPrintable(named.join(u", "_s)));
}

void TestScaleCompareFigure::aLoadedMatrixHasNoOwnRatioAndConcatSkipsDWithoutE()
{
    Params p = params(64, 32);
    auto matrix = std::make_shared<EmbeddingMatrix>();
    matrix->values = RowMatrixXf::Ones(32, 64);
    matrix->source = u"m.npy"_s;
    p.embeddings = matrix;
    auto data = ScaleCompareCompute::compute(p, Detail::Full, {});
    QVERIFY(data);
    QCOMPARE(data->ratios.size(), 4);
    QVERIFY(std::none_of(data->ratios.begin(), data->ratios.end(), [](const RatioAgainstD &c) { return c.yours; }));
    // Concat with k = 48 PE columns: E has d - 48 columns, none at d <= 48.
    Params concat = params(128, 32);
    concat.compose = Compose::Concat;
    concat.peDims = 48;
    data = ScaleCompareCompute::compute(concat, Detail::Full, {});
    QVERIFY(data);
    for (const RatioAgainstD &curve : data->ratios) {
        QVERIFY(curve.d.front() > 48.0);
        QVERIFY(curve.d.front() <= 64.0);
    }
    // sigma 1, s 1: sqrt((d - 48) / 24).
    const RatioAgainstD &first = data->ratios.front();
    for (qsizetype i = 0; i < first.d.size(); ++i)
        QVERIFY(std::abs(first.ratio[i] - std::sqrt((first.d[i] - 48.0) / 24.0)) < 1e-12 * first.ratio[i]);
}

// Beside the panels in a wide figure, below them in a tall one (a view beside a lesson), left out
// in a narrow one; wherever it goes it keeps clear of the panels.
void TestScaleCompareFigure::theRatioGoesWhereThereIsRoom()
{
    const auto data = ScaleCompareCompute::compute(params(64, 100), Detail::Full, {});
    QVERIFY(data);
    // One figure through every place and back, as a view resized is.
    QCustomPlot plot;
    ScaleCompareFigure figure(&plot);
    for (const QSize size : {QSize(1200, 800), QSize(600, 900), QSize(640, 420), QSize(600, 900), QSize(1200, 800),
                             QSize(640, 420), QSize(1200, 800)}) {
        plot.setViewport(QRect(QPoint(0, 0), size));
        figure.setData(*data);
        plot.replot();
        const QRect ratio = figure.ratioRect()->rect();
        const QRect panels = figure.panelRect(0)->rect().united(figure.panelRect(3)->rect());
        const QString where = u"%1 x %2"_s.arg(size.width()).arg(size.height());
        if (size.width() < 760 && size.height() < 1.2 * size.width()) {
            QVERIFY2(!figure.ratioRect()->realVisibility(), qPrintable(where));
            continue;
        }
        QVERIFY2(figure.ratioRect()->realVisibility(), qPrintable(where));
        if (size.height() >= 1.2 * size.width())
            QVERIFY2(ratio.top() > panels.bottom(), qPrintable(where));
        else
            QVERIFY2(ratio.left() > panels.right(), qPrintable(where));
        QVERIFY2(ratio.width() > 100 && ratio.height() > 100, qPrintable(where));
    }
}

void TestScaleCompareFigure::theRatioKeyCoversNoLine_data()
{
    QTest::addColumn<QSizeF>("inches");
    QTest::addColumn<double>("dpi");
    QTest::addColumn<double>("points");
    QTest::newRow("14-pt slide, 100 dpi") << QSizeF(10.0, 5.625) << 100.0 << 14.0;
    QTest::newRow("14-pt slide, 150 dpi") << QSizeF(10.0, 5.625) << 150.0 << 14.0;
    QTest::newRow("a view, 1000 x 700") << QSizeF(10.0, 7.0) << 100.0 << 9.0;
    QTest::newRow("a tall view, 600 x 900") << QSizeF(6.0, 9.0) << 100.0 << 9.0;
}

// The key of the ratio chart was pinned to its top left, with two decades of headroom for it: on a
// 14-pt slide its six rows covered the end of the σ 1, s √d line (why-sqrt-d, its default and
// Whisper). Wherever the key is drawn, no line of the chart runs under it: each line sampled in
// pixels, log-log between its points, every 2 pixels.
void TestScaleCompareFigure::theRatioKeyCoversNoLine()
{
    QFETCH(QSizeF, inches);
    QFETCH(double, dpi);
    QFETCH(double, points);
    FigureStyle style;
    style.fontPointSize = points;
    Params p = params(512, 1024);
    const auto built
        = FigureBuilds::build(u"scale-compare"_s, p, FigureSize::fromInches(inches, dpi), FigureState {}, style);
    QCustomPlot &plot = *built->plot();
    plot.replot();
    QCPAxisRect *ratio = nullptr;
    for (QCPLayoutElement *e : plot.plotLayout()->elements(true))
        if (auto *rect = qobject_cast<QCPAxisRect *>(e);
            rect && rect->axis(QCPAxis::atBottom)->scaleType() == QCPAxis::stLogarithmic)
            ratio = rect;
    QVERIFY(ratio);
    int keys = 0;
    // The figure's layout, the chart's inset among it, each element once.
    const QList<QCPLayoutElement *> laidOut = plot.plotLayout()->elements(true);
    QSet<QCPLayoutElement *> elements(laidOut.cbegin(), laidOut.cend());
    for (QCPLayoutElement *e : ratio->insetLayout()->elements(true))
        elements.insert(e);
    for (QCPLayoutElement *e : std::as_const(elements)) {
        auto *legend = qobject_cast<QCPLegend *>(e);
        if (!legend || !legend->realVisibility() || legend->itemCount() == 0)
            continue;
        auto *entry = qobject_cast<QCPPlottableLegendItem *>(legend->item(0));
        if (!entry || entry->plottable()->keyAxis()->axisRect() != ratio)
            continue;
        ++keys;
        const QRect key = legend->outerRect();
        for (QCPGraph *graph : ratio->graphs()) {
            if (!graph->realVisibility() || graph->dataCount() < 2)
                continue;
            for (int i = 0; i + 1 < graph->dataCount(); ++i) {
                const QPointF a = graph->coordsToPixels(graph->data()->at(i)->key, graph->data()->at(i)->value);
                const QPointF b = graph->coordsToPixels(graph->data()->at(i + 1)->key, graph->data()->at(i + 1)->value);
                const int steps = std::max(1, int(std::hypot(b.x() - a.x(), b.y() - a.y()) / 2.0));
                for (int t = 0; t <= steps; ++t) {
                    const QPointF at = a + (b - a) * (double(t) / steps);
                    QVERIFY2(!key.contains(at.toPoint()) || !ratio->rect().contains(at.toPoint()),
                             qPrintable(u"%1 under the key %2,%3 %4x%5 at %6,%7"_s.arg(graph->name())
                                            .arg(key.x())
                                            .arg(key.y())
                                            .arg(key.width())
                                            .arg(key.height())
                                            .arg(at.x())
                                            .arg(at.y())));
                }
            }
        }
    }
    QVERIFY(keys <= 1);
}

void TestScaleCompareFigure::onePositionDrawsItsNormsAsMarkers()
{
    // At L = 1: ||PE_0|| = sqrt(d/2), one point in each panel, which a line alone would not draw.
    const auto built = FigureBuilds::build(u"scale-compare"_s, params(16, 1), FigureSize::fromPixels(QSize(900, 600)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot *plot = built->plot();
    int pe = 0, single = 0;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph *graph = plot->graph(i);
        // The panels' graphs, against the position (the ratio against d_model has its own dot).
        if (graph->dataCount() != 1 || graph->keyAxis()->scaleType() == QCPAxis::stLogarithmic)
            continue;
        ++single;
        QVERIFY(graph->scatterStyle().shape() != QCPScatterStyle::ssNone);
        if (std::abs(graph->data()->at(0)->value - std::sqrt(8.0)) < 1e-6)
            ++pe;
    }
    QCOMPARE(pe, 4);
    QCOMPARE(single, 8); // ||s·E_0|| and ||PE_0|| in each of the four panels
}

POSENC_TEST_MAIN(TestScaleCompareFigure)
} // namespace tst_scalecomparefigure
#include "tst_scalecomparefigure.moc"
