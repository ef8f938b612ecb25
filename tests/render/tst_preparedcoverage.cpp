#include "render/Colormaps.h"
#include "render/CoverageColorMap.h"
#include "render/FigureRegistry.h"
#include "render/HeatmapPanel.h"
#include "render/MapOptions.h"
#include "render/data/ViewOptions.h"
#include "support/TestMain.h"

#include "core/Engine.h"
#include "core/ParamTable.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <future>
#include <limits>
#include <memory>

namespace tst_preparedcoverage {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// A grid of `rows` x `cols` cells over as many table cells, smooth with a stripe, a NaN and an
// infinity (each drawn in the map's colour of no number).
HeatmapGrid gridOf(int rows, int cols, float phase)
{
    HeatmapGrid grid;
    grid.rows = rows;
    grid.cols = cols;
    grid.block = Block {0, rows, 0, cols};
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            grid.values.push_back(std::sin(0.37f * float(c) + phase) * std::cos(0.05f * float(r))
                                  + (c % 2 ? 0.1f : -0.1f));
    grid.values[5] = std::numeric_limits<float>::quiet_NaN();
    grid.values[grid.values.size() / 2] = std::numeric_limits<float>::infinity();
    return grid;
}

HeatmapStyle styleOf(Colormap map)
{
    HeatmapStyle style;
    style.colormap = map;
    style.dataRange = {-1.2, 1.2};
    return style;
}

// The check window's map: |error| from 1e-9 to 1e-3 on a logarithmic scale, every cell at least
// the floor (TableErrorGrid::floored), spanning the decades.
HeatmapGrid errorGridOf(int rows, int cols)
{
    HeatmapGrid grid = gridOf(rows, cols, 0.3f);
    for (float &v : grid.values)
        v = std::isfinite(v) ? std::max(1e-9f, std::pow(10.0f, -9.0f + 6.0f * std::abs(v) / 1.2f)) : v;
    return grid;
}

HeatmapStyle errorStyle()
{
    HeatmapStyle style;
    style.colormap = Colormap::Viridis;
    style.dataRange = {1e-9, 1e-3};
    style.logarithmic = true;
    return style;
}

// The plot with its layout emptied: the panel takes cell (0, 0) with its own axis rect.
QCustomPlot *emptied(QCustomPlot *plot)
{
    plot->plotLayout()->clear();
    return plot;
}

// A plot of one heatmap panel at `size`.
struct PanelPlot
{
    QCustomPlot plot;
    HeatmapPanel panel {emptied(&plot), plot.plotLayout(), 0, 0};

    explicit PanelPlot(QSize size, bool logarithmic = false)
    {
        plot.resize(size);
        // As the check window sets its map of |error| (TableCheckDialog).
        if (logarithmic) {
            panel.colorScale()->setDataScaleType(QCPAxis::stLogarithmic);
            panel.colorMap()->setDataScaleType(QCPAxis::stLogarithmic);
        }
    }
    // The pixels the plot's buffers hold after a replot: the window's drawing, not an export's.
    QImage shown(const HeatmapGrid &grid, const HeatmapStyle &style,
                 const std::shared_ptr<const PreparedCoverage> &offered)
    {
        panel.setGrid(grid, style);
        panel.fitAxes({grid.rows, grid.cols});
        if (offered)
            panel.offerCoverage(offered);
        plot.replot();
        return plot.grab().toImage();
    }
};

// A figure of the registry drawn as a view draws it: laid out, its data computed for its panels
// as they are, what the figure prepares of that data made on another thread, then filled and drawn.
struct ViewPlot
{
    const FigureDescriptor &figure;
    QCustomPlot plot;
    std::unique_ptr<FigurePlot> drawing;
    FigureState state;

    ViewPlot(const QString &name, QSize size, const Params &params)
        : figure(*FigureRegistry::find(name))
        , drawing(figure.build(&plot))
    {
        plot.resize(size);
        drawing->showDefaultView(params, state);
    }
    // The pixels the plot's buffers hold once `params`' data is drawn, given what the figure
    // prepared of it if `prepare`.
    QImage shown(const Params &params, bool prepare)
    {
        // Laid out as the request sees it: QCustomPlot's margins follow the tick labels they make
        // room for, a replot or two after a figure's texts changed (a view's fitting settles them).
        QList<PanelExtent> laidOut;
        for (int pass = 0; pass < 5; ++pass) {
            plot.replot();
            const QList<PanelExtent> now = drawing->panels(plot.devicePixelRatioF());
            const bool same
                = std::equal(now.begin(), now.end(), laidOut.begin(), laidOut.end(),
                             [](const PanelExtent &a, const PanelExtent &b) { return a == b && a.at == b.at; });
            if (same)
                break;
            laidOut = now;
            if (pass == 4)
                qFatal("the figure's layout did not settle in five replots");
        }
        FigureRequest request;
        request.engine = std::make_shared<const Engine>(params);
        request.state = state;
        request.panels = drawing->panels(plot.devicePixelRatioF());
        const std::atomic<bool> cancel {false};
        const FigureResult result = figure.model().compute(request, cancel);
        if (!result.data)
            qFatal("not computed");
        std::shared_ptr<const PreparedDrawing> prepared;
        if (prepare)
            prepared = std::async(std::launch::async, [&] { return figure.prepare(*result.data, request); }).get();
        drawing->setPrepared(prepared);
        drawing->fill(result.data, state);
        MapOptions::apply(&plot, figure.model(), state); // --colormap, as a view applies it
        plot.replot();
        return plot.grab().toImage();
    }
};

} // namespace

// The coverage of a heatmap made off the GUI thread for its panel's pixels is what the panel's draw
// would compute (CoverageColorMap::draw), so the draw takes it instead; a panel whose pixels are
// not those it was made for computes its own. Either way the window's pixels are those of a map
// that was offered nothing.
class TestPreparedCoverage : public QObject
{
    Q_OBJECT

private slots:
    void aCoverageMadeForThePanelIsDrawnAsComputed_data();
    void aCoverageMadeForThePanelIsDrawnAsComputed();
    void aCoverageForOtherPixelsOrColoursIsSetAside();
    void aLogarithmicMapTakesTheJobsColours();
    void aMapImageOfOtherCellsOrRangeIsNotTaken();
    void aViewsMapsDrawTheJobsCoverage_data();
    void aViewsMapsDrawTheJobsCoverage();
};

void TestPreparedCoverage::aCoverageMadeForThePanelIsDrawnAsComputed_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::addColumn<int>("map");
    // Cells spread over more pixels than they are (a preview), as many (whole pixels), fewer (a
    // few cells repeated by QCPColorMap's oversampling), on the diverging and a sequential map.
    QTest::newRow("preview") << QSize(470, 420) << 154 << 167 << 0;
    QTest::newRow("few cells") << QSize(333, 287) << 9 << 13 << 1;
    QTest::newRow("wide") << QSize(901, 377) << 40 << 512 << 2;
}

void TestPreparedCoverage::aCoverageMadeForThePanelIsDrawnAsComputed()
{
    QFETCH(QSize, size);
    QFETCH(int, rows);
    QFETCH(int, cols);
    QFETCH(int, map);
    const HeatmapGrid grid = gridOf(rows, cols, 0.3f);
    const Colormap maps[] = {Colormap::Diverging, Colormap::Viridis, Colormap::Cividis};
    const HeatmapStyle style = styleOf(maps[map]);

    PanelPlot computed(size);
    computed.shown(gridOf(rows, cols, 1.9f), style, nullptr); // other cells drawn before
    quint64 before = CoverageColorMap::computedImages();
    const QImage reference = computed.shown(grid, style, nullptr);
    QCOMPARE(CoverageColorMap::computedImages(), before + 1);

    PanelPlot offered(size);
    offered.shown(gridOf(rows, cols, 1.9f), style, nullptr);
    // Made on another thread, for the extent the panel has, as a view's job makes it.
    const PanelExtent extent = offered.panel.extent(offered.plot.devicePixelRatioF());
    auto made
        = std::async(std::launch::async, [&] { return HeatmapPanel::prepareCoverage(grid, style, extent); }).get();
    QVERIFY(made);
    before = CoverageColorMap::computedImages();
    const quint64 adopted = CoverageColorMap::adoptedImages(), adoptedMaps = CoverageColorMap::adoptedMapImages();
    const QImage drawn = offered.shown(grid, style, made);
    QCOMPARE(CoverageColorMap::adoptedImages(), adopted + 1);
    // Its cells were not coloured again on the GUI thread either: the job's image of them was taken.
    QCOMPARE(CoverageColorMap::adoptedMapImages(), adoptedMaps + 1);
    QCOMPARE(CoverageColorMap::computedImages(), before);
    QCOMPARE(drawn, reference);
}

void TestPreparedCoverage::aLogarithmicMapTakesTheJobsColours()
{
    // The check window's |error| on its logarithmic scale: the job colours the cells as
    // QCPColorMap::updateMapImage does on that scale, so the window's pixels are those of a map
    // offered nothing.
    const HeatmapGrid grid = errorGridOf(154, 167);
    const HeatmapStyle style = errorStyle();
    PanelPlot computed(QSize(470, 420), true);
    computed.shown(gridOf(154, 167, 1.9f), style, nullptr);
    const QImage reference = computed.shown(grid, style, nullptr);

    PanelPlot offered(QSize(470, 420), true);
    offered.shown(gridOf(154, 167, 1.9f), style, nullptr);
    const auto made = std::async(std::launch::async, [&] {
                          return HeatmapPanel::prepareCoverage(grid, style, offered.panel.extent(1.0));
                      }).get();
    QVERIFY(made);
    const quint64 adoptedMaps = CoverageColorMap::adoptedMapImages();
    QCOMPARE(offered.shown(grid, style, made), reference);
    QCOMPARE(CoverageColorMap::adoptedMapImages(), adoptedMaps + 1);

    // Coloured on a linear scale, the same cells are not the map's image: it colours its own.
    HeatmapStyle linear = style;
    linear.logarithmic = false;
    PanelPlot again(QSize(470, 420), true);
    again.shown(gridOf(154, 167, 1.9f), style, nullptr);
    const auto wrongScale = HeatmapPanel::prepareCoverage(grid, linear, again.panel.extent(1.0));
    const quint64 before = CoverageColorMap::adoptedMapImages();
    QCOMPARE(again.shown(grid, style, wrongScale), reference);
    QCOMPARE(CoverageColorMap::adoptedMapImages(), before);
}

void TestPreparedCoverage::aCoverageForOtherPixelsOrColoursIsSetAside()
{
    const HeatmapGrid grid = gridOf(154, 167, 0.3f);
    const HeatmapStyle style = styleOf(Colormap::Diverging);
    PanelPlot computed(QSize(500, 430));
    const QImage reference = computed.shown(grid, style, nullptr);

    // Made for the panel at another size.
    PanelPlot smaller(QSize(480, 430));
    smaller.shown(grid, style, nullptr);
    const auto stale = HeatmapPanel::prepareCoverage(grid, style, smaller.panel.extent(1.0));
    PanelPlot resized(QSize(500, 430));
    resized.shown(gridOf(154, 167, 1.9f), style, nullptr);
    quint64 before = CoverageColorMap::computedImages();
    quint64 adopted = CoverageColorMap::adoptedImages();
    QCOMPARE(resized.shown(grid, style, stale), reference);
    QCOMPARE(CoverageColorMap::adoptedImages(), adopted);
    QCOMPARE(CoverageColorMap::computedImages(), before + 1);

    // Made in another colour map than the panel draws.
    const auto otherColours
        = HeatmapPanel::prepareCoverage(grid, styleOf(Colormap::Viridis), computed.panel.extent(1.0));
    PanelPlot again(QSize(500, 430));
    again.shown(gridOf(154, 167, 1.9f), style, nullptr);
    before = CoverageColorMap::computedImages();
    adopted = CoverageColorMap::adoptedImages();
    const quint64 adoptedMaps = CoverageColorMap::adoptedMapImages();
    QCOMPARE(again.shown(grid, style, otherColours), reference);
    QCOMPARE(CoverageColorMap::adoptedImages(), adopted);
    QCOMPARE(CoverageColorMap::adoptedMapImages(), adoptedMaps);
    QCOMPARE(CoverageColorMap::computedImages(), before + 1);
}

void TestPreparedCoverage::aViewsMapsDrawTheJobsCoverage_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<Params>("first");
    QTest::addColumn<Params>("next");
    QTest::addColumn<int>("maps");
    QTest::addColumn<QString>("colormap"); // --colormap: empty for the figure's own
    const auto dropout = [](int dModel, double p) {
        Params params;
        params.dModel = dModel;
        params.maxLen = 200;
        params.dropout = p;
        params.training = true;
        params.seed = 1;
        return params;
    };
    const auto seed2 = [](Params params) {
        params.seed = 2;
        return params;
    };
    // The dropout view's mask and Y (both maps' cells new: another seed).
    QTest::newRow("dropout, 48 x 48 cells")
        << u"dropout"_s << QSize(1000, 480) << dropout(64, 0.3) << seed2(dropout(64, 0.3)) << 2 << QString();
    QTest::newRow("dropout, narrow, 24 columns")
        << u"dropout"_s << QSize(620, 520) << dropout(24, 0.1) << seed2(dropout(24, 0.1)) << 2 << QString();
    QTest::newRow("dropout, p 0.6") << u"dropout"_s << QSize(830, 360) << dropout(128, 0.6) << seed2(dropout(128, 0.6))
                                    << 2 << QString();
    // Parameters as the command line sets them, by key and text (ParamTable).
    const auto with = [](Params params, const QList<std::pair<QString, QString>> &given) {
        for (const auto &[key, text] : given) {
            const ParamSpec *row = ParamTable::find(key);
            const auto value = row ? row->parse(text) : std::nullopt;
            if (!value)
                qFatal("%s: not %s", qPrintable(key), qPrintable(text));
            row->assign(params, *value);
        }
        return params;
    };
    // RoPE's rotation: its rope-cos and rope-sin tables, another theta.
    const Params rope = with({}, {{u"encoding"_s, u"rope"_s}, {u"d-model"_s, u"64"_s}, {u"max-len"_s, u"512"_s}});
    const Params ropeNext = with(rope, {{u"rope-theta"_s, u"500"_s}});
    QTest::newRow("rope-rotation") << u"rope-rotation"_s << QSize(1000, 480) << rope << ropeNext << 2 << QString();
    // The buckets' L x L map of T5's buckets and of DeBERTa's signed ones, each at another count.
    const Params t5 = with({}, {{u"encoding"_s, u"t5"_s}, {u"max-len"_s, u"300"_s}});
    const Params t5Next = with(t5, {{u"t5-buckets"_s, u"16"_s}});
    QTest::newRow("buckets, T5") << u"buckets"_s << QSize(900, 500) << t5 << t5Next << 1 << QString();
    const Params deberta = with({}, {{u"encoding"_s, u"deberta"_s}, {u"max-len"_s, u"300"_s}});
    const Params debertaNext = with(deberta, {{u"deberta-buckets"_s, u"200"_s}});
    QTest::newRow("rope-rotation, cividis")
        << u"rope-rotation"_s << QSize(1000, 480) << rope << ropeNext << 2 << u"cividis"_s;
    QTest::newRow("buckets, T5, cividis") << u"buckets"_s << QSize(900, 500) << t5 << t5Next << 1 << u"cividis"_s;
    QTest::newRow("buckets, DeBERTa") << u"buckets"_s << QSize(1000, 520) << deberta << debertaNext << 1 << QString();
}

// A view's maps are each drawn from the coverage its job made for its panel, the same pixels as
// the view computing them itself: none is covered on the GUI thread.
void TestPreparedCoverage::aViewsMapsDrawTheJobsCoverage()
{
    QFETCH(QString, figure);
    QFETCH(QSize, size);
    QFETCH(Params, first);
    QFETCH(Params, next);
    QFETCH(int, maps);
    QFETCH(QString, colormap);
    // Filled twice: a figure fills itself for the room it is laid out in (its key's columns, its
    // terse texts), which its first filling changes.
    ViewPlot computed(figure, size, first);
    computed.state.options.insert(QString::fromUtf16(ViewOptions::kColormap), colormap);
    computed.shown(first, false);
    computed.shown(first, false);
    quint64 before = CoverageColorMap::computedImages();
    const QImage reference = computed.shown(next, false);
    QCOMPARE(CoverageColorMap::computedImages(), before + maps);

    ViewPlot offered(figure, size, first);
    offered.state.options.insert(QString::fromUtf16(ViewOptions::kColormap), colormap);
    offered.shown(first, false);
    offered.shown(first, false);
    before = CoverageColorMap::computedImages();
    const quint64 adopted = CoverageColorMap::adoptedImages();
    const QImage drawn = offered.shown(next, true);
    QCOMPARE(CoverageColorMap::adoptedImages(), adopted + maps);
    QCOMPARE(CoverageColorMap::computedImages(), before);
    QCOMPARE(drawn, reference);
}

void TestPreparedCoverage::aMapImageOfOtherCellsOrRangeIsNotTaken()
{
    // An offer coloured from other cells than the map holds (a grid set after it was made), or over
    // another range, is not the map's image: the map colours its cells itself, and draws what a map
    // offered nothing draws.
    const HeatmapGrid grid = gridOf(154, 167, 0.3f);
    const HeatmapStyle style = styleOf(Colormap::Diverging);
    PanelPlot computed(QSize(470, 420));
    computed.shown(gridOf(154, 167, 1.9f), style, nullptr);
    const QImage reference = computed.shown(grid, style, nullptr);

    PanelPlot offered(QSize(470, 420));
    offered.shown(gridOf(154, 167, 1.9f), style, nullptr);
    const PanelExtent extent = offered.panel.extent(1.0);
    HeatmapStyle wider = style;
    wider.dataRange = {-2.0, 2.0};
    for (const auto &made : {HeatmapPanel::prepareCoverage(gridOf(154, 167, 1.1f), style, extent),
                             HeatmapPanel::prepareCoverage(grid, wider, extent)}) {
        QVERIFY(made);
        const quint64 adopted = CoverageColorMap::adoptedMapImages(), coloured = CoverageColorMap::colouredMapImages();
        QCOMPARE(offered.shown(grid, style, made), reference);
        QCOMPARE(CoverageColorMap::adoptedMapImages(), adopted);
        QCOMPARE(CoverageColorMap::colouredMapImages(), coloured + 1);
        offered.shown(gridOf(154, 167, 1.9f), style, nullptr);
    }
}

POSENC_TEST_MAIN(TestPreparedCoverage)
} // namespace tst_preparedcoverage
#include "tst_preparedcoverage.moc"
