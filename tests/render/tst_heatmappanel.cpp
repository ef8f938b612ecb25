#include "render/Colormaps.h"
#include "render/FigureExporter.h"
#include "render/HeatmapPanel.h"

#include "support/FigureBuilds.h"
#include "support/TestParams.h"

#include <QTest>

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
};

void TestHeatmapPanel::firstRowOfThePeAlternatesZeroAndOne()
{
    // PE_0 = [sin 0, cos 0, ...] = [0, 1, 0, 1, ...]: white and the darkest red of the diverging map.
    const auto built = FigureBuilds::build(u"heatmap"_s, sized(8, 1), kSize);
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
    FigureState state;
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
        const bool log = map->dataScaleType() == QCPAxis::stLogarithmic;
        int checked = 0;
        for (int a = 0; a < data->valueSize(); ++a) {
            for (int c = 0; c < data->keySize(); ++c) {
                const double key = centre(data->keyRange(), data->keySize(), c);
                const double coord = centre(data->valueRange(), data->valueSize(), a);
                const QPointF at(map->keyAxis()->coordToPixel(key), map->valueAxis()->coordToPixel(coord));
                if (!inside.contains(at.toPoint()))
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

QTEST_MAIN(TestHeatmapPanel)
#include "tst_heatmappanel.moc"
