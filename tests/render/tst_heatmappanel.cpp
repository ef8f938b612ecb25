#include "render/Colormaps.h"
#include "render/CoverageColorMap.h"
#include "render/FigureExporter.h"
#include "render/HeatmapPanel.h"
#include "render/SwatchLegend.h"
#include "render/data/HeatmapModel.h"
#include "render/data/ViewOptions.h"
#include "support/TestMain.h"

#include "core/DropoutMask.h"

#include "support/FigureBuilds.h"
#include "support/TestFamily.h"
#include "support/TestParams.h"

#include <QTest>

namespace tst_heatmappanel {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

using TestParams::sized;

bool close(QColor a, QColor b)
{
    return std::abs(a.red() - b.red()) <= 3 && std::abs(a.green() - b.green()) <= 3
        && std::abs(a.blue() - b.blue()) <= 3;
}

QString describe(QColor seen, QColor expected, QPointF at)
{
    return u"%1 at (%2, %3), expected %4"_s.arg(seen.name()).arg(at.x()).arg(at.y()).arg(expected.name());
}

const FigureSize kSize = FigureSize::fromPixels(QSize(800, 500));

// The centre of cell i of n of a colour map over `range`: the centres of the first and last cells
// at its ends, or one cell over the whole of it (QCPColorMapData::cellToCoord divides by n - 1).
double centre(const QCPRange &range, int n, int i)
{
    return n == 1 ? range.center() : range.lower + (range.upper - range.lower) * i / (n - 1);
}

// The plot laid out as the export lays it out, so that its axes map coordinates to the image's
// pixels (at `ratio` pixels a layout unit).
QImage exported(QCustomPlot *plot, double *ratio)
{
    plot->setViewport(QRect(QPoint(0, 0), kSize.layout));
    plot->replot();
    const QImage image = FigureExporter::image(plot, kSize);
    *ratio = static_cast<double>(image.width()) / kSize.layout.width();
    return image;
}

// The colour of cell (row, col) of the first panel's map in `image`, exported at `ratio`.
QColor cellColor(QCustomPlot *plot, const QImage &image, double ratio, std::int64_t row, std::int64_t col)
{
    QCPAxisRect *rect = plot->axisRect(0);
    const QPointF at(rect->axis(QCPAxis::atBottom)->coordToPixel(double(col)),
                     rect->axis(QCPAxis::atLeft)->coordToPixel(double(row)));
    return image.pixelColor((at * ratio).toPoint());
}

// The labels of every legend drawn.
QStringList legendLabels(QCustomPlot *plot)
{
    QStringList labels;
    for (int i = 0; i < plot->layerCount(); ++i)
        for (QCPLayerable *item : plot->layer(i)->children())
            if (auto *legend = qobject_cast<QCPLegend *>(item))
                for (int k = 0; k < legend->itemCount(); ++k)
                    labels.append(SwatchLegend::label(legend->item(k)));
    return labels;
}

} // namespace

namespace {

// The cells' colours are read at their centres, where the numbers in the cells (shown where they
// fit, ViewOptions::kCellNumbers) would be written: without them.
FigureState numbersOff()
{
    FigureState state;
    state.options.insert(QString::fromUtf16(ViewOptions::kCellNumbers), u"off"_s);
    return state;
}

} // namespace

// A heatmap of one row or one column is drawn cell by cell, as any other: QCPColorMapData given a
// key or value range of width 0 draws nothing.
class TestHeatmapPanel : public QObject
{
    Q_OBJECT

private slots:
    void firstRowOfThePeAlternatesZeroAndOne();
    void cellRangeSpansTheCellCentres_data();
    void cellRangeSpansTheCellCentres();
    void everyColourMapDrawsItsCells_data();
    void everyColourMapDrawsItsCells();
    void aDroppedCellIsNotDrawnAsAZero();
    void aNanEmbeddingIsMarkedAndNamed();
    void aMaskedBiasIsGreyNotAFault();
    void fastColumnsCarryTheOscillationMark_data();
    void fastColumnsCarryTheOscillationMark();
    void theColourRangeIsTheSameAtAnyDpi_data();
    void theColourRangeIsTheSameAtAnyDpi();
    void eachFamilysOwnTableOnItsMap_data();
    void eachFamilysOwnTableOnItsMap();
    void theMapHoldsTheGridsCellsAsSetCellWritesThem();
    void aGridAsItWasKeepsItsImage();
};

void TestHeatmapPanel::firstRowOfThePeAlternatesZeroAndOne()
{
    // PE_0 = [sin 0, cos 0, ...] = [0, 1, 0, 1, ...]: white and the darkest red of the diverging map.
    const auto built = FigureBuilds::build(u"heatmap"_s, sized(8, 1), kSize, numbersOff());
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot *plot = built->plot();
    double ratio = 1.0;
    const QImage image = exported(plot, &ratio);
    QCPAxisRect *rect = plot->axisRect(0);
    QCPAxis *positions = rect->axis(QCPAxis::atLeft);
    QCOMPARE(positions->range().lower, -0.5);
    QCOMPARE(positions->range().upper, 0.5);
    QCOMPARE(positions->tickVector(), QVector<double> {0.0});
    const QColor zero = Colormaps::colorAt(Colormap::Diverging, 0.5);
    const QColor one = Colormaps::colorAt(Colormap::Diverging, 1.0);
    for (int j = 0; j < 8; ++j) {
        const double x = rect->axis(QCPAxis::atBottom)->coordToPixel(j);
        // The one row fills the panel from top to bottom.
        for (const double f : {0.05, 0.5, 0.95}) {
            const QPointF at(x, rect->top() + f * rect->height());
            const QColor seen = image.pixelColor((at * ratio).toPoint());
            const QColor expected = j % 2 == 0 ? zero : one;
            QVERIFY2(close(seen, expected), qPrintable(describe(seen, expected, at)));
        }
    }
}

void TestHeatmapPanel::cellRangeSpansTheCellCentres_data()
{
    QTest::addColumn<qint64>("first");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<int>("cells");
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::newRow("one cell its own width") << qint64(0) << qint64(1) << 1 << -0.5 << 0.5;
    QTest::newRow("one cell at 5") << qint64(5) << qint64(6) << 1 << 4.5 << 5.5;
    QTest::newRow("one map cell of 4 table cells") << qint64(0) << qint64(4) << 1 << -0.5 << 3.5;
    QTest::newRow("a cell each") << qint64(0) << qint64(4) << 4 << 0.0 << 3.0;
    QTest::newRow("two table cells a map cell") << qint64(10) << qint64(18) << 4 << 10.5 << 16.5;
}

void TestHeatmapPanel::cellRangeSpansTheCellCentres()
{
    QFETCH(qint64, first);
    QFETCH(qint64, end);
    QFETCH(int, cells);
    QFETCH(double, lower);
    QFETCH(double, upper);
    const QCPRange range = HeatmapPanel::cellRange(first, end, cells);
    QCOMPARE(range.lower, lower);
    QCOMPARE(range.upper, upper);
}

void TestHeatmapPanel::everyColourMapDrawsItsCells_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<qint64>("length");
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("value");
    QTest::newRow("heatmap, L = 1") << u"heatmap"_s << qint64(1) << QString() << QString();
    QTest::newRow("heatmap, one position in view") << u"heatmap"_s << qint64(16) << u"positions"_s << u"5:6"_s;
    QTest::newRow("heatmap, one column in view") << u"heatmap"_s << qint64(16) << u"dims"_s << u"3"_s;
    for (const QString &figure : {u"dropout"_s, u"dropout-compare"_s, u"dropout-anatomy"_s, u"precision"_s,
                                  u"compose-compare"_s, u"similarity"_s})
        QTest::newRow(qPrintable(figure + u", L = 1"_s)) << figure << qint64(1) << QString() << QString();
}

void TestHeatmapPanel::everyColourMapDrawsItsCells()
{
    // The pixel at each cell's centre has the colour of the cell's value in the map's gradient.
    QFETCH(QString, figure);
    QFETCH(qint64, length);
    QFETCH(QString, option);
    QFETCH(QString, value);
    FigureState state = numbersOff();
    if (!option.isEmpty())
        state.options.insert(option, value);
    const auto built = FigureBuilds::build(figure, sized(16, length), kSize, state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot *plot = built->plot();
    double ratio = 1.0;
    const QImage image = exported(plot, &ratio);
    int maps = 0;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto *map = qobject_cast<QCPColorMap *>(plot->plottable(i));
        if (!map || !map->visible())
            continue;
        ++maps;
        QCPColorMapData *data = map->data();
        const QRect inside = map->keyAxis()->axisRect()->rect().adjusted(2, 2, -2, -2);
        // Cells the mask zeroed are drawn with their own mark, not the map's colour.
        const HeatmapMarks *marks = nullptr;
        for (int k = 0; k < plot->plottableCount(); ++k)
            if (auto *m = dynamic_cast<HeatmapMarks *>(plot->plottable(k)); m && m->keyAxis() == map->keyAxis())
                marks = m;
        const bool log = map->dataScaleType() == QCPAxis::stLogarithmic;
        int checked = 0;
        for (int a = 0; a < data->valueSize(); ++a) {
            for (int c = 0; c < data->keySize(); ++c) {
                const double key = centre(data->keyRange(), data->keySize(), c);
                const double coord = centre(data->valueRange(), data->valueSize(), a);
                const QPointF at(map->keyAxis()->coordToPixel(key), map->valueAxis()->coordToPixel(coord));
                if (!inside.contains(at.toPoint()) || (marks && marks->markAt(c, a) != CellMark::None))
                    continue;
                const QColor expected
                    = QColor::fromRgba(map->gradient().color(data->cell(c, a), map->dataRange(), log));
                const QColor seen = image.pixelColor((at * ratio).toPoint());
                QVERIFY2(close(seen, expected), qPrintable(describe(seen, expected, at)));
                ++checked;
            }
        }
        QVERIFY2(checked > 0, qPrintable(u"no cell of a colour map in view"_s));
    }
    QVERIFY(maps > 0);
}

void TestHeatmapPanel::aDroppedCellIsNotDrawnAsAZero()
{
    // Y of the PE alone (s = 0) at p = 0.5: row 0 holds sin 0 = 0 in its even columns, kept or
    // dropped. A kept zero is the map's white; a dropped cell must look otherwise.
    Params p = sized(16, 4);
    p.scaleKind = ScaleKind::Custom;
    p.customScale = 0.0;
    p.dropout = 0.5;
    std::optional<std::int64_t> keptZero, dropped;
    for (p.seed = 1; p.seed < 64 && !(keptZero && dropped); ++p.seed) {
        const DropoutMask mask(p);
        keptZero.reset();
        dropped.reset();
        for (std::int64_t j = 0; j < 16; j += 2)
            (mask.kept(0, j) ? keptZero : dropped) = j;
    }
    QVERIFY(keptZero && dropped);
    --p.seed;
    FigureState state = numbersOff();
    state.options.insert(u"quantity"_s, u"output"_s);
    const auto built = FigureBuilds::build(u"heatmap"_s, p, kSize, state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot *plot = built->plot();
    double ratio = 1.0;
    const QImage image = exported(plot, &ratio);
    QCPAxisRect *rect = plot->axisRect(0);
    const auto pixel = [&](std::int64_t j) {
        const QPointF at(rect->axis(QCPAxis::atBottom)->coordToPixel(double(j)),
                         rect->axis(QCPAxis::atLeft)->coordToPixel(0.0));
        return image.pixelColor((at * ratio).toPoint());
    };
    const QColor zero = pixel(*keptZero);
    const QColor drop = pixel(*dropped);
    QVERIFY2(close(zero, Colormaps::colorAt(Colormap::Diverging, 0.5)), qPrintable(zero.name()));
    const int distance = std::abs(zero.red() - drop.red()) + std::abs(zero.green() - drop.green())
        + std::abs(zero.blue() - drop.blue());
    QVERIFY2(distance > 120, qPrintable(u"dropped %1, zero %2"_s.arg(drop.name(), zero.name())));
    // The legend names the mark.
    bool named = false;
    for (int i = 0; i < plot->layerCount(); ++i)
        for (QCPLayerable *item : plot->layer(i)->children())
            if (auto *legend = qobject_cast<QCPLegend *>(item))
                for (int k = 0; k < legend->itemCount(); ++k)
                    named = named || SwatchLegend::label(legend->item(k)).contains(u"dropped"_s);
    QVERIFY(named);
}

// Before: a NaN of a loaded matrix was drawn in the colour map's lowest colour, as -1, with no
// mark and no word. Now it is drawn in a colour no map gives, and the legend says what it is; the
// other cells keep their colours (the colour range is the finite cells').
void TestHeatmapPanel::aNanEmbeddingIsMarkedAndNamed()
{
    Params p = sized(8, 8);
    auto matrix = std::make_shared<EmbeddingMatrix>();
    matrix->values = RowMatrixXf::Constant(8, 8, 0.25f);
    matrix->values(3, 5) = std::numeric_limits<float>::quiet_NaN();
    matrix->source = u"nan.npy"_s;
    p.embeddings = matrix;
    FigureState state;
    state.options.insert(u"quantity"_s, u"embedding"_s);
    const auto built = FigureBuilds::build(u"heatmap"_s, p, kSize, state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot *plot = built->plot();
    double ratio = 1.0;
    const QImage image = exported(plot, &ratio);
    const auto pixel = [&](std::int64_t row, std::int64_t col) { return cellColor(plot, image, ratio, row, col); };
    const QColor nan = pixel(3, 5);
    QVERIFY2(close(nan, HeatmapMarks::notNumberColor()), qPrintable(nan.name()));
    const QColor lowest = Colormaps::colorAt(Colormap::Diverging, 0.0);
    QVERIFY2(!close(pixel(0, 0), lowest) && !close(pixel(0, 0), nan), qPrintable(pixel(0, 0).name()));
    QVERIFY(legendLabels(plot).contains(u"not a number (NaN or inf)"_s));
}

// Before: BLOOM's causal ALiBi bias drew its masked keys (−inf, as build_alibi_tensor's bias
// meets the causal mask) in magenta, keyed "not a number (NaN or inf)": a fault where there is
// none. Now a grid whose only non-finite cells are −inf draws them in the masked grey, keyed
// "masked (−inf)"; a NaN beside them is still a fault, in magenta.
void TestHeatmapPanel::aMaskedBiasIsGreyNotAFault()
{
    for (const bool withNan : {false, true}) {
        Params p = sized(8, 8);
        auto matrix = std::make_shared<EmbeddingMatrix>();
        matrix->values = RowMatrixXf::Constant(8, 8, -0.25f);
        for (int row = 0; row < 8; ++row)
            for (int col = row + 1; col < 8; ++col)
                matrix->values(row, col) = -std::numeric_limits<float>::infinity();
        if (withNan)
            matrix->values(6, 1) = std::numeric_limits<float>::quiet_NaN();
        matrix->source = u"masked.npy"_s;
        p.embeddings = matrix;
        FigureState state;
        state.options.insert(u"quantity"_s, u"embedding"_s);
        const auto built = FigureBuilds::build(u"heatmap"_s, p, kSize, state);
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        QCustomPlot *plot = built->plot();
        double ratio = 1.0;
        const QImage image = exported(plot, &ratio);
        const QColor masked = cellColor(plot, image, ratio, 1, 5);
        QVERIFY2(close(masked, withNan ? HeatmapMarks::notNumberColor() : Colormaps::maskedColor()),
                 qPrintable(masked.name()));
        const QStringList labels = legendLabels(plot);
        QCOMPARE(labels.contains(u"masked (−inf)"_s), !withNan);
        QCOMPARE(labels.contains(u"not a number (NaN or inf)"_s), withNan);
    }
}

void TestHeatmapPanel::fastColumnsCarryTheOscillationMark_data()
{
    QTest::addColumn<bool>("meanOnly");
    QTest::newRow("marked") << false;
    QTest::newRow("mean only") << true;
}

void TestHeatmapPanel::fastColumnsCarryTheOscillationMark()
{
    // The whole of PE at d 1024, L 8192: the fast columns average to ~0, white in the map. Their
    // pixels carry the mark's dark lines, unless the figure shows the mean only.
    QFETCH(bool, meanOnly);
    FigureState state;
    if (meanOnly)
        state.options.insert(u"mean-only"_s, u"true"_s);
    const auto built = FigureBuilds::build(u"heatmap"_s, sized(1024, 8192), kSize, state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot *plot = built->plot();
    double ratio = 1.0;
    const QImage image = exported(plot, &ratio);
    QCPAxisRect *rect = plot->axisRect(0);
    const double x0 = rect->axis(QCPAxis::atBottom)->coordToPixel(4.0) * ratio;
    const double x1 = rect->axis(QCPAxis::atBottom)->coordToPixel(40.0) * ratio;
    const double y0 = rect->axis(QCPAxis::atLeft)->coordToPixel(1000.0) * ratio;
    const double y1 = rect->axis(QCPAxis::atLeft)->coordToPixel(8000.0) * ratio;
    int dark = 0, all = 0;
    for (int y = int(y0); y < int(y1); ++y)
        for (int x = int(x0); x < int(x1); ++x, ++all)
            dark += image.pixelColor(x, y).lightness() < 150 ? 1 : 0;
    QVERIFY(all > 100);
    const double share = double(dark) / all;
    if (meanOnly)
        QVERIFY2(share == 0.0, qPrintable(QString::number(share)));
    else
        QVERIFY2(share > 0.2 && share < 0.45, qPrintable(QString::number(share))); // lines 1.25 units of 4
}

void TestHeatmapPanel::theColourRangeIsTheSameAtAnyDpi_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("quantity");
    QTest::newRow("heatmap of X") << u"heatmap"_s << u"input"_s;
    QTest::newRow("heatmap of Y") << u"heatmap"_s << u"output"_s;
    QTest::newRow("compose-compare") << u"compose-compare"_s << QString();
}

void TestHeatmapPanel::theColourRangeIsTheSameAtAnyDpi()
{
    // The same figure at 96 and at 300 dpi averages ~3 times more cells a pixel at 96: its colours
    // still mean the same values.
    QFETCH(QString, figure);
    QFETCH(QString, quantity);
    FigureState state;
    if (!quantity.isEmpty())
        state.options.insert(u"quantity"_s, quantity);
    const Params p = sized(512, 1024);
    QList<QCPRange> ranges;
    for (const double dpi : {96.0, 300.0}) {
        const auto built = FigureBuilds::build(figure, p, FigureSize::fromInches(QSizeF(8.0, 5.0), dpi), state);
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        QCPColorScale *scale = nullptr;
        for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true))
            if (auto *s = qobject_cast<QCPColorScale *>(e))
                scale = s;
        QVERIFY(scale);
        ranges.append(scale->dataRange());
    }
    QCOMPARE(ranges[0].lower, ranges[1].lower);
    QCOMPARE(ranges[0].upper, ranges[1].upper);
}

void TestHeatmapPanel::eachFamilysOwnTableOnItsMap_data()
{
    QTest::addColumn<int>("encoding");
    QTest::addColumn<QString>("quantity");
    QTest::addColumn<int>("sign"); // of every cell: 1, -1, 0 for both
    // Each family's, as its test record gives it (tests/families/<family>/).
    for (const TestFamily &family : TestFamilies::all()) {
        QString quantity = family.heatmapQuantity;
        if (quantity.isEmpty() && !family.references.isEmpty())
            quantity = Quantities::name(family.references.constFirst().quantity);
        if (!quantity.isEmpty())
            QTest::newRow(qPrintable(family.word)) << int(family.encoding) << quantity << family.heatmapSign;
    }
}

void TestHeatmapPanel::eachFamilysOwnTableOnItsMap()
{
    // Before: the heatmap showed the PE alone, and refused a family that adds none (RoPE, ALiBi).
    // Now the family's own table, on a map from zero where every cell has one sign (a diverging
    // map would leave half its colours unused), diverging about zero otherwise.
    QFETCH(int, encoding);
    QFETCH(QString, quantity);
    QFETCH(int, sign);
    Params p = sized(64, 48);
    p.encoding = Encoding(encoding);
    QCOMPARE(Quantities::name(HeatmapModel::natural(p)), quantity);
    const auto built = FigureBuilds::build(u"heatmap"_s, p, kSize);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCPColorScale *scale = nullptr;
    for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true))
        if (auto *s = qobject_cast<QCPColorScale *>(e))
            scale = s;
    QVERIFY(scale);
    const QCPRange range = scale->dataRange();
    const Colormap expected = sign == 0 ? Colormap::Diverging : Colormap::Viridis;
    // A causal bias's keys after the query are −inf, drawn as masked (aMaskedBiasIsGreyNotAFault).
    QVERIFY(scale->gradient() == Colormaps::gradient(expected)
            || scale->gradient() == Colormaps::maskedGradient(expected));
    if (sign > 0)
        QVERIFY2(range.lower == 0.0 && range.upper > 0.0, qPrintable(u"%1 to %2"_s.arg(range.lower).arg(range.upper)));
    else if (sign < 0)
        QVERIFY2(range.upper == 0.0 && range.lower < 0.0, qPrintable(u"%1 to %2"_s.arg(range.lower).arg(range.upper)));
    else
        QCOMPARE(range.lower, -range.upper);
}

POSENC_TEST_MAIN(TestHeatmapPanel)

// setGrid writes the map's cells into QCustomPlot's array at once: each cell must be the grid's at
// its row and column (not transposed), a value that is no number NaN, and the data bounds and the
// image what QCPColorMapData::setCell, cell by cell, gives the same grid.
void TestHeatmapPanel::theMapHoldsTheGridsCellsAsSetCellWritesThem()
{
    QCustomPlot plot;
    plot.plotLayout()->clear(); // the panel takes cell (0, 0) with its own axis rect
    HeatmapPanel panel(&plot, plot.plotLayout(), 0, 0);
    HeatmapGrid grid;
    grid.rows = 3;
    grid.cols = 5;
    grid.block = Block {10, 3, 20, 5};
    for (int a = 0; a < grid.rows; ++a)
        for (int c = 0; c < grid.cols; ++c)
            grid.values.push_back(static_cast<float>(0.25 * (a - 1) + 0.1 * c - 0.2));
    grid.values[7] = std::numeric_limits<float>::quiet_NaN();
    grid.values[11] = std::numeric_limits<float>::infinity();
    panel.setGrid(grid, HeatmapStyle());

    QCPColorMap *map = nullptr;
    for (int i = 0; i < plot.plottableCount(); ++i)
        if (auto *m = qobject_cast<QCPColorMap *>(plot.plottable(i)))
            map = m;
    QVERIFY(map);
    QCPColorMapData *data = map->data(); // cell() is not const
    QCOMPARE(data->keySize(), grid.cols);
    QCOMPARE(data->valueSize(), grid.rows);
    QCPColorMapData reference(grid.cols, grid.rows, data->keyRange(), data->valueRange());
    for (int a = 0; a < grid.rows; ++a) {
        for (int c = 0; c < grid.cols; ++c) {
            const float v = grid.values[static_cast<std::size_t>(a * grid.cols + c)];
            const double expected = std::isfinite(v) ? double(v) : std::numeric_limits<double>::quiet_NaN();
            reference.setCell(c, a, expected);
            const double seen = data->cell(c, a);
            if (std::isnan(expected))
                QVERIFY2(std::isnan(seen), qPrintable(u"cell (%1, %2): %3"_s.arg(a).arg(c).arg(seen)));
            else
                QCOMPARE(seen, expected);
        }
    }
    QCOMPARE(data->dataBounds().lower, reference.dataBounds().lower);
    QCOMPARE(data->dataBounds().upper, reference.dataBounds().upper);
    // Drawn from the new cells: a map whose image were left stale would draw the zeros setSize left.
    plot.resize(400, 300);
    plot.replot();
    auto *fresh = new QCPColorMap(map->keyAxis(), map->valueAxis()); // the plot's
    fresh->setData(&reference, true);
    fresh->setGradient(map->gradient());
    fresh->setDataRange(map->dataRange());
    fresh->setDataScaleType(map->dataScaleType());
    fresh->setInterpolate(map->interpolate());
    fresh->setTightBoundary(map->tightBoundary());
    fresh->setLayer(map->layer());
    fresh->setVisible(false);
    const QImage drawn = plot.toPixmap(400, 300).toImage();
    map->setVisible(false);
    fresh->setVisible(true);
    QCOMPARE(plot.toPixmap(400, 300).toImage(), drawn);
}

// A change that leaves a grid's cells as they were (a dropout mask at another d_model) neither
// colours the map's image again nor computes its coverage: the last one is drawn, the same pixels.
// A cell changed is drawn anew.
void TestHeatmapPanel::aGridAsItWasKeepsItsImage()
{
    QCustomPlot plot;
    plot.plotLayout()->clear();
    HeatmapPanel panel(&plot, plot.plotLayout(), 0, 0);
    HeatmapGrid grid;
    grid.rows = 6;
    grid.cols = 7;
    grid.block = Block {0, 6, 0, 7};
    for (int i = 0; i < grid.rows * grid.cols; ++i)
        grid.values.push_back(static_cast<float>((i * 37) % 11) / 10.0f);
    grid.values[9] = std::numeric_limits<float>::quiet_NaN(); // a NaN held is the NaN written
    panel.setGrid(grid, HeatmapStyle());
    plot.resize(400, 300);
    // The image an export draws (its own coverage, counted), then the plot's buffer's.
    const QImage first = plot.toPixmap(400, 300).toImage();
    plot.replot();
    quint64 before = CoverageColorMap::computedImages();
    panel.setGrid(grid, HeatmapStyle());
    plot.replot();
    QCOMPARE(CoverageColorMap::computedImages(), before);
    QCOMPARE(plot.toPixmap(400, 300).toImage(), first);

    plot.replot();
    before = CoverageColorMap::computedImages();
    grid.values[3] = 1.0f - grid.values[3];
    panel.setGrid(grid, HeatmapStyle());
    plot.replot();
    QCOMPARE(CoverageColorMap::computedImages(), before + 1);
    QVERIFY(plot.toPixmap(400, 300).toImage() != first);
}

} // namespace tst_heatmappanel
#include "tst_heatmappanel.moc"
