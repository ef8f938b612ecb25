#include "render/figures/DropoutFigure.h"
#include "render/figures/HeatmapFigure.h"
#include "render/figures/MagnitudesFigure.h"
#include "render/figures/sinusoidal/CurvesFigure.h"
#include "support/TestMain.h"

#include "render/data/FigureText.h"

#include "../core/Reference.h"
#include "support/FigureBuilds.h"
#include "support/Sanitizer.h"
#include "support/TestParams.h"

#include <QTest>

namespace tst_figures {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

using TestParams::sized;

QList<QCPColorScale *> colorScales(QCustomPlot &plot)
{
    QList<QCPColorScale *> scales;
    for (QCPLayoutElement *e : plot.plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(e))
            scales.append(scale);
    return scales;
}

// The heatmap figure's data for a grid of `params`, worded as its model words it.
HeatmapFigureData heatmapData(const HeatmapGrid &grid, const Params &params)
{
    HeatmapFigureData data;
    data.grid = grid;
    data.table = Quantities::shape(grid.quantity, params);
    data.label = Quantities::label(grid.quantity, params);
    data.parameters = FigureText::parametersText(grid.quantity, params);
    return data;
}

} // namespace

// The figure builders used headless, as the exporter will: an offscreen QCustomPlot filled
// from engine results, then rendered.
class TestFigures : public QObject
{
    Q_OBJECT

private slots:
    void magnitudesOfOnePositionAreMarkers();
    void heatmapShowsTheGridWithAColorbar_data();
    void heatmapShowsTheGridWithAColorbar();
    void heatmapNoteSaysPreviewUntilExact();
    void curvesHaveALegendWithFrequencyAndWavelength();
    void magnitudesDrawEveryCurveOnLogAxes();
    void dropoutShowsMaskAndOutputSideBySide();
    void heatmapTitleNamesWhatTheParametersMake_data();
    void heatmapTitleNamesWhatTheParametersMake();
    void curvesNumberColumnsAsXDoes();
    void magnitudesNameTheirParameters();
    void noTickLabelRepeatsNearAMillion_data();
    void noTickLabelRepeatsNearAMillion();
};

void TestFigures::heatmapShowsTheGridWithAColorbar_data()
{
    QTest::addColumn<int>("quantity");
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::newRow("PE fixed to [-1, 1]") << int(Quantity::Pe) << -1.0 << 1.0;
    QTest::newRow("mask in [0, 1]") << int(Quantity::Mask) << 0.0 << 1.0;
    QTest::newRow("X symmetric about 0") << int(Quantity::Input) << qQNaN() << qQNaN();
    QTest::newRow("Y symmetric about 0") << int(Quantity::Output) << qQNaN() << qQNaN();
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
    figure.setData(heatmapData(*grid, engine.params()));
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
    QVERIFY(FigureBuilds::texts(plot).join(u" "_s).contains(u"d = 100, L = 700"_s));
    // One p per figure: where the title gives the dropout probability, the rows are "position".
    const bool dropoutInTitle = FigureBuilds::texts(plot).join(u" "_s).contains(u"p = 0.1"_s);
    QCOMPARE(dropoutInTitle, q == Quantity::Output || q == Quantity::Mask);
    QCOMPARE(figure.panel().axisRect()->axis(QCPAxis::atLeft)->label(),
             dropoutInTitle ? u"position"_s : u"position p"_s);
    const QPixmap pixmap = plot.toPixmap(600, 400);
    QCOMPARE(pixmap.size(), QSize(600, 400));
}

void TestFigures::heatmapNoteSaysPreviewUntilExact()
{
    const Engine engine(sized(64, 200000));
    HeatmapRequest request {Quantity::Input, {0, 200000, 0, 64}, 100, 32};
    request.cellBudget = 100 * 64;
    const auto preview = HeatmapResampler::resample(engine, request, {}, 0);
    const auto exact = HeatmapResampler::resample(engine, request);
    QVERIFY(preview && exact);
    QCustomPlot plot;
    HeatmapFigure figure(&plot);
    // The title says so (a file past the cap of every figure is a preview), and the view's note
    // beside the figure, which no shortening of texts for room takes away.
    figure.setData(heatmapData(*preview, engine.params()));
    const QString previewTitle = FigureBuilds::texts(plot).join(u" "_s);
    QVERIFY2(previewTitle.contains(u"preview ("_s) && previewTitle.contains(u"% of rows)"_s), qPrintable(previewTitle));
    QVERIFY2(figure.screenNote().startsWith(u"preview ("_s) && figure.screenNote().contains(u"% of rows)"_s),
             qPrintable(figure.screenNote()));
    figure.setData(heatmapData(*exact, engine.params()));
    const QString exactTitle = FigureBuilds::texts(plot).join(u" "_s);
    QVERIFY2(!exactTitle.contains(u"preview"_s) && !exactTitle.contains(u"sampled"_s), qPrintable(exactTitle));
    QVERIFY2(!figure.screenNote().contains(u"preview"_s), qPrintable(figure.screenNote()));
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
        QVERIFY2(name.contains(u"w="_s) && name.contains(u"λ="_s), qPrintable(name));
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
    // A value under the log axis (a column averaging to zero) is counted in its legend name.
    const double floor = figure.columnRect()->axis(QCPAxis::atLeft)->range().lower;
    int namedBelow = 0;
    for (QCPGraph *graph : figure.columnRect()->graphs()) {
        int below = 0;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            below += it->value < floor ? 1 : 0;
        const QString counted = u"(%1 below the axis)"_s.arg(below);
        QVERIFY2(below == 0 ? !graph->name().contains(u"below"_s) : graph->name().endsWith(counted),
                 qPrintable(graph->name() + u" "_s + counted));
        namedBelow += below > 0 ? 1 : 0;
    }
    QVERIFY(namedBelow > 0); // the PE's fastest columns average to nearly zero
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
    QVERIFY(FigureBuilds::texts(plot).join(u" "_s).contains(u"1/(1−p) = 1.333"_s));
    QVERIFY(!FigureBuilds::texts(plot).contains(u"position p"_s)); // p is the dropout probability here
    QCOMPARE(figure.maskPanel().axisRect()->axis(QCPAxis::atLeft)->label(), u"position"_s);
    // Zooming one panel moves the other.
    figure.maskPanel().axisRect()->axis(QCPAxis::atBottom)->setRange(3.0, 9.0);
    QCOMPARE(figure.outputPanel().axisRect()->axis(QCPAxis::atBottom)->range(), QCPRange(3.0, 9.0));
}

void TestFigures::heatmapTitleNamesWhatTheParametersMake_data()
{
    QTest::addColumn<QString>("quantity");
    QTest::addColumn<Params>("p");
    QTest::addColumn<QStringList>("title");
    QTest::addColumn<QString>("colorbar");
    Params concat = sized(64, 200);
    concat.compose = Compose::Concat;
    concat.peDims = 16;
    Params scaled = sized(64, 200);
    scaled.init = InitKind::ScaledNormal;
    scaled.scaleKind = ScaleKind::One;
    QTest::newRow("X in sum") << u"input"_s << sized(64, 200)
                              << QStringList {u"X = s·E + PE"_s, u"d = 64, L = 200"_s, u"s = √d = 8, σ = 1"_s}
                              << u"X = s·E + PE"_s;
    QTest::newRow("X in concat") << u"input"_s << concat
                                 << QStringList {u"X = [s·E | PE]"_s, u"s·E in columns 0–47, PE (k = 16) in 48–63"_s,
                                                 u"d = 64, L = 200"_s, u"s = √d = 8, σ = 1"_s}
                                 << u"X = [s·E | PE]"_s;
    QTest::newRow("PE in concat") << u"pe"_s << concat
                                  << QStringList {u"PE"_s, u"k = 16 columns (X's 48–63), L = 200"_s} << u"PE"_s;
    QTest::newRow("s·E, σ d^-1/2, s 1") << u"embedding"_s << scaled
                                        << QStringList {u"s·E"_s, u"s = 1, σ = d^-1/2 = 0.125"_s} << u"s·E"_s;
    QTest::newRow("Y in concat") << u"output"_s << concat
                                 << QStringList {u"Y = dropout(X)"_s, u"PE (k = 16) in 48–63"_s,
                                                 u"p = 0.1, dropout mode sum"_s}
                                 << u"Y = dropout(X)"_s;
}

void TestFigures::heatmapTitleNamesWhatTheParametersMake()
{
    // Through the descriptor, as the window and posenc export show it: concat was titled
    // "X = s·E + PE", and no title named s or sigma.
    QFETCH(QString, quantity);
    QFETCH(Params, p);
    QFETCH(QStringList, title);
    QFETCH(QString, colorbar);
    FigureState state;
    state.options.insert(u"quantity"_s, quantity);
    const auto built = FigureBuilds::build(u"heatmap"_s, p, FigureSize::fromPixels(QSize(2400, 900)), state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString text = FigureBuilds::texts(*built->plot()).join(u" "_s);
    for (const QString &part : title)
        QVERIFY2(text.contains(part), qPrintable(part + u" not in "_s + text));
    QCOMPARE(colorScales(*built->plot()).value(0)->axis()->label(), colorbar);
}

void TestFigures::curvesNumberColumnsAsXDoes()
{
    // In concat the PE's k columns are X's last k: the curves, their --dims and the hover
    // number them so (they said j=0 for X's column 48).
    Params p = sized(64, 200);
    p.compose = Compose::Concat;
    p.peDims = 16;
    const FigureDescriptor &curves = FigureBuilds::figure(u"curves"_s);
    QCOMPARE(curves.model().defaultText(u"dims"_s, p), u"48,49,56,57,62,63"_s);
    const auto built = FigureBuilds::build(u"curves"_s, p, FigureSize::fromPixels(QSize(1200, 800)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QStringList names;
    for (int i = 0; i < built->plot()->graphCount(); ++i)
        if (!built->plot()->graph(i)->name().isEmpty())
            names.append(built->plot()->graph(i)->name());
    QCOMPARE(names.size(), 6);
    QVERIFY2(names.front().startsWith(u"j=48 sin i=0"_s), qPrintable(names.front()));
    QVERIFY2(names.back().startsWith(u"j=63 cos i=7"_s), qPrintable(names.back()));
    const QString title = FigureBuilds::texts(*built->plot()).join(u" "_s);
    QVERIFY2(title.contains(u"X = [s·E | PE]"_s) && title.contains(u"k = 16 columns (X's 48–63), L = 200"_s),
             qPrintable(title));
    QCOMPARE(built->plot()->axisRect()->axis(QCPAxis::atLeft)->label(), u"X[p, j] = PE[p, j − 48]"_s);

    FigureState state;
    state.options.insert(u"dims"_s, u"3"_s);
    const auto refused = FigureRegistry::check(curves, p, state);
    QCOMPARE(refused.size(), 1);
    QCOMPARE(refused.front().key, u"dims"_s);
    QVERIFY2(refused.front().allowed.contains(u"[48, 64)"_s), qPrintable(refused.front().allowed));
    state.options.insert(u"dims"_s, u"50"_s);
    state.options.insert(u"positions"_s, u"0:10"_s);
    QVERIFY(FigureRegistry::check(curves, p, state).isEmpty());
    const auto one = FigureBuilds::build(u"curves"_s, p, FigureSize::fromPixels(QSize(1200, 800)), state);
    QVERIFY(one->plot()->graph(0)->name().startsWith(u"j=50 sin i=1"_s));
    // The curve of X's column 50 is PE_k's column 2, and Export data writes that column.
    FigureState withView = state;
    withView.view.insert(u"positions"_s, ViewRange {-0.5, 9.5});
    const auto table = curves.model().table(p, withView);
    QVERIFY(table);
    QCOMPARE(table->dims, (std::vector<std::int64_t> {2}));
    // The hover names X's column too, for the readout to find its frequency in X.
    const Engine engine(p);
    const auto data = CurvesCompute::compute(engine, {{50}, 0.0, 10.0, 600}, {});
    QVERIFY(data);
    QCOMPARE(data->curves.front().peColumn, 2);
    QCustomPlot plot;
    plot.resize(600, 400);
    CurvesFigure figure(&plot);
    figure.fill(std::make_shared<CurvesData>(*data), {});
    plot.replot();
    QCPAxisRect *rect = figure.axisRect();
    const double value = std::sin(3.0 * reference::omega(1, 16, p.sinusoidal.base));
    const auto point = figure.hoverAt(
        {rect->axis(QCPAxis::atBottom)->coordToPixel(3.0), rect->axis(QCPAxis::atLeft)->coordToPixel(value)}, engine);
    QVERIFY(point && point->column);
    QCOMPARE(*point->column, 50);
    QVERIFY(!point->columnIsPe);
}

void TestFigures::magnitudesNameTheirParameters()
{
    Params p = sized(64, 200);
    p.compose = Compose::Concat;
    const auto built = FigureBuilds::build(u"magnitudes"_s, p, FigureSize::fromPixels(QSize(1600, 900)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString title = FigureBuilds::texts(*built->plot()).join(u" "_s);
    for (const QString &part : {u"X = [s·E | PE]"_s, u"d = 64, L = 200"_s, u"s = √d = 8, σ = 1"_s,
                                u"s·E in columns 0–31, PE (k = 32) in 32–63"_s})
        QVERIFY2(title.contains(part), qPrintable(part + u" not in "_s + title));
    QStringList names;
    for (int i = 0; i < built->plot()->graphCount(); ++i)
        names.append(built->plot()->graph(i)->name());
    QVERIFY2(names.contains(u"expected √(k/2) = 4"_s), qPrintable(names.join(u", "_s)));
    QVERIFY2(names.contains(u"expected √(s²σ²(d−k)) = 45.25"_s), qPrintable(names.join(u", "_s)));
}

void TestFigures::noTickLabelRepeatsNearAMillion_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("positions");
    QStringList figures {u"heatmap"_s, u"curves"_s, u"magnitudes"_s, u"scale-compare"_s, u"compose-compare"_s};
#if defined(POSENC_TEST_ASAN)
    // Under the address sanitizer the exact statistics of s·E over 2^20 rows, which the last three
    // compute, take a minute and a half; their position axes are ticked by the same IndexTicker as
    // the heatmap's and the curves', and the release suite checks all five.
    figures = QStringList {u"heatmap"_s, u"curves"_s};
#endif
    for (const QString &figure : figures) {
        QTest::newRow(qPrintable(figure + u", every position"_s)) << figure << QString();
        if (figure != u"magnitudes"_s && figure != u"scale-compare"_s) {
            QTest::newRow(qPrintable(figure + u", the last 600"_s)) << figure << u"1047976:1048576"_s;
            QTest::newRow(qPrintable(figure + u", the last 7"_s)) << figure << u"1048569:1048576"_s;
        }
    }
}

void TestFigures::noTickLabelRepeatsNearAMillion()
{
    // Near 10^6 a default ticker labels 1.04858e+06 several times over, and a narrow view shows
    // ticks at half positions; index axes tick at whole numbers, each label its own.
    QFETCH(QString, figure);
    QFETCH(QString, positions);
    FigureState state;
    if (!positions.isEmpty())
        state.options.insert(u"positions"_s, positions);
    const auto built = FigureBuilds::build(figure, sized(16, 1 << 20), FigureSize::fromPixels(QSize(900, 600)), state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    for (QCPAxisRect *rect : built->plot()->axisRects()) {
        for (QCPAxis *axis : rect->axes()) {
            if (!axis->visible() || !axis->tickLabels() || axis->scaleType() == QCPAxis::stLogarithmic)
                continue;
            const QVector<QString> labels = axis->tickVectorLabels();
            const QSet<QString> unique(labels.begin(), labels.end());
            QVERIFY2(unique.size() == labels.size(),
                     qPrintable(QStringList(labels.begin(), labels.end()).join(u", "_s)));
            if (axis->label().contains(u"position"_s) || axis->label().contains(u"column"_s)) {
                for (const double tick : axis->tickVector())
                    QVERIFY2(tick == std::round(tick), qPrintable(QString::number(tick, 'f', 3)));
            }
        }
    }
}

void TestFigures::magnitudesOfOnePositionAreMarkers()
{
    // At L = 1 each measured curve is one point: ||PE_0|| = sqrt(d/2), drawn as a marker.
    const auto built = FigureBuilds::build(u"magnitudes"_s, sized(16, 1), FigureSize::fromPixels(QSize(900, 600)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot *plot = built->plot();
    int single = 0;
    bool pe = false;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph *graph = plot->graph(i);
        if (graph->dataCount() != 1 || graph->keyAxis()->label() != u"position p"_s)
            continue;
        ++single;
        QVERIFY2(graph->scatterStyle().shape() != QCPScatterStyle::ssNone, qPrintable(graph->name()));
        pe = pe || std::abs(graph->data()->at(0)->value - std::sqrt(8.0)) < 1e-6;
    }
    QCOMPARE(single, 3); // ||s·E_0||, ||PE_0|| and their ratio
    QVERIFY(pe);
}

POSENC_TEST_MAIN(TestFigures)
} // namespace tst_figures
#include "tst_figures.moc"
