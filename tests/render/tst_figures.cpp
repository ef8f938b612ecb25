#include "render/figures/CurvesFigure.h"
#include "render/figures/DropoutFigure.h"
#include "render/figures/HeatmapFigure.h"
#include "render/figures/MagnitudesFigure.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params sized(std::int64_t d, std::int64_t L)
{
    Params p;
    p.dModel = d;
    p.maxLen = L;
    return p;
}

QList<QCPColorScale *> colorScales(QCustomPlot &plot)
{
    QList<QCPColorScale *> scales;
    for (QCPLayoutElement *e : plot.plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(e))
            scales.append(scale);
    return scales;
}

QStringList texts(QCustomPlot &plot)
{
    QStringList list;
    for (QCPLayoutElement *e : plot.plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(e))
            list.append(text->text());
    return list;
}

} // namespace

// The figure builders used headless, as the exporter will: an offscreen QCustomPlot filled
// from engine results, then rendered.
class TestFigures : public QObject
{
    Q_OBJECT

private slots:
    void heatmapShowsTheGridWithAColorbar_data();
    void heatmapShowsTheGridWithAColorbar();
    void heatmapTitleSaysPreviewUntilExact();
    void curvesHaveALegendWithFrequencyAndWavelength();
    void magnitudesDrawEveryCurveOnLogAxes();
    void dropoutShowsMaskAndOutputSideBySide();
};

void TestFigures::heatmapShowsTheGridWithAColorbar_data()
{
    QTest::addColumn<int>("quantity");
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::newRow("PE fixed to [-1, 1]") << int(Quantity::Pe) << -1.0 << 1.0;
    QTest::newRow("mask in [0, 1]") << int(Quantity::Mask) << 0.0 << 1.0;
    QTest::newRow("X symmetric about 0") << int(Quantity::Input) << qQNaN() << qQNaN();
}

void TestFigures::heatmapShowsTheGridWithAColorbar()
{
    QFETCH(int, quantity);
    QFETCH(double, lower);
    QFETCH(double, upper);
    const Engine engine(sized(100, 700));
    const auto q = Quantity(quantity);
    const auto grid = HeatmapResampler::resample(engine, {q, {0, 700, 0, 100}, 123, 45});
    QVERIFY(grid);
    QCustomPlot plot;
    plot.resize(600, 400);
    HeatmapFigure figure(&plot);
    figure.setGrid(*grid, engine.shape(q));
    QCPColorMapData *data = figure.panel().colorMap()->data();
    QCOMPARE(data->keySize(), 45);
    QCOMPARE(data->valueSize(), 123);
    for (int a = 0; a < grid->rows; a += 7)
        for (int b = 0; b < grid->cols; b += 5)
            QCOMPARE(data->cell(b, a), double(grid->at(a, b)));
    QCOMPARE(colorScales(plot).size(), 1);
    const QCPRange range = figure.panel().colorScale()->dataRange();
    if (qIsNaN(lower)) {
        QCOMPARE(range.lower, -range.upper);
        QVERIFY(range.upper >= std::max(std::abs(grid->minValue), std::abs(grid->maxValue)));
    } else {
        QCOMPARE(range.lower, lower);
        QCOMPARE(range.upper, upper);
    }
    QVERIFY(!figure.panel().colorScale()->axis()->label().isEmpty());
    QVERIFY(texts(plot).join(u" "_s).contains(u"700 × 100"_s));
    const QPixmap pixmap = plot.toPixmap(600, 400);
    QCOMPARE(pixmap.size(), QSize(600, 400));
}

void TestFigures::heatmapTitleSaysPreviewUntilExact()
{
    const Engine engine(sized(64, 200000));
    HeatmapRequest request {Quantity::Input, {0, 200000, 0, 64}, 100, 32};
    request.cellBudget = 100 * 64;
    const auto preview = HeatmapResampler::resample(engine, request, {}, 0);
    const auto exact = HeatmapResampler::resample(engine, request);
    QVERIFY(preview && exact);
    QCustomPlot plot;
    HeatmapFigure figure(&plot);
    figure.setGrid(*preview, engine.shape(Quantity::Input));
    const QString previewTitle = texts(plot).join(u" "_s);
    QVERIFY2(previewTitle.contains(u"preview ("_s) && previewTitle.contains(u"% of rows)"_s), qPrintable(previewTitle));
    figure.setGrid(*exact, engine.shape(Quantity::Input));
    const QString exactTitle = texts(plot).join(u" "_s);
    QVERIFY2(!exactTitle.contains(u"preview"_s) && !exactTitle.contains(u"sampled"_s), qPrintable(exactTitle));
}

void TestFigures::curvesHaveALegendWithFrequencyAndWavelength()
{
    const Engine engine(sized(64, 200));
    const auto data = CurvesCompute::compute(engine, {{0, 1, 62, 63}, 0.0, 50.0, 600}, {});
    QVERIFY(data);
    QCustomPlot plot;
    CurvesFigure figure(&plot);
    figure.setData(*data);
    // A smooth curve and the marked integer positions for each column.
    QCOMPARE(plot.plottableCount(), 8);
    QCPLegend *legend = nullptr;
    for (QCPLayoutElement *e : plot.plotLayout()->elements(true))
        if (auto *l = qobject_cast<QCPLegend *>(e))
            legend = l;
    QVERIFY(legend);
    QCOMPARE(legend->itemCount(), 4);
    for (int i = 0; i < 4; ++i) {
        const QString name = static_cast<QCPPlottableLegendItem *>(legend->item(i))->plottable()->name();
        QVERIFY2(name.contains(u"ω="_s) && name.contains(u"λ="_s), qPrintable(name));
    }
    // Setting new data replaces the curves rather than adding to them.
    figure.setData(*data);
    QCOMPARE(plot.plottableCount(), 8);
    QCOMPARE(legend->itemCount(), 4);
}

void TestFigures::magnitudesDrawEveryCurveOnLogAxes()
{
    const Engine engine(sized(128, 300));
    const auto data = MagnitudesCompute::compute(engine, 400, Detail::Full, {});
    QVERIFY(data);
    QCustomPlot plot;
    MagnitudesFigure figure(&plot);
    figure.setData(*data);
    QCOMPARE(figure.positionRect()->axis(QCPAxis::atLeft)->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(figure.columnRect()->axis(QCPAxis::atLeft)->scaleType(), QCPAxis::stLogarithmic);
    int withData = 0;
    for (int i = 0; i < plot.graphCount(); ++i)
        withData += plot.graph(i)->dataCount() > 0 ? 1 : 0;
    QCOMPARE(withData, 9); // three per position, two reference lines, std and |mean| of PE and s*E per column
    // The expected lines span the positions at the closed forms.
    QVERIFY(figure.positionRect()->axis(QCPAxis::atLeft)->range().contains(*data->expectedPeNorm));
    QVERIFY(figure.positionRect()->axis(QCPAxis::atLeft)->range().contains(data->expectedEmbeddingNorm));
}

void TestFigures::dropoutShowsMaskAndOutputSideBySide()
{
    Params p = sized(64, 100);
    p.dropout = 0.25;
    const Engine engine(p);
    const auto data = DropoutCompute::compute(engine, {{0, 48, 0, 48}, 300, 300}, Detail::Full, {});
    QVERIFY(data);
    QCustomPlot plot;
    plot.resize(800, 400);
    DropoutFigure figure(&plot);
    figure.setData(*data);
    // Y's colorbar; the mask, one cell a pixel, is named by a kept/dropped legend instead.
    QCOMPARE(colorScales(plot).size(), 1);
    QVERIFY(!figure.maskPanel().colorScale()->visible());
    QCOMPARE(figure.maskPanel().colorMap()->data()->keySize(), 48);
    QCOMPARE(figure.outputPanel().colorMap()->data()->keySize(), 48);
    QVERIFY(texts(plot).join(u" "_s).contains(u"1/(1−p) = 1.333"_s));
    // Zooming one panel moves the other.
    figure.maskPanel().axisRect()->axis(QCPAxis::atBottom)->setRange(3.0, 9.0);
    QCOMPARE(figure.outputPanel().axisRect()->axis(QCPAxis::atBottom)->range(), QCPRange(3.0, 9.0));
}

QTEST_MAIN(TestFigures)
#include "tst_figures.moc"
