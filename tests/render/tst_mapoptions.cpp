// The options of every figure that draws a colour map (issue 58's slide details): the numbers in
// the cells of a heatmap small enough to read them, in a colour that contrasts with the cell's, on
// screen and in the exported file, against float64 formulas written here (the sinusoid's
// sin/cos(p w_i), the similarity's sum of cos(w_i (i - j))); --colormap honoured by every map of
// every figure of the registry; a sequential map by default for data of one sign and a diverging
// one centred on zero for signed data.

#include "FigureDefaults.h"
#include "support/FigureBuilds.h"
#include "support/SinusoidalReference.h"
#include "support/SvgTexts.h"
#include "support/TestMain.h"

#include "check/models/ModelExamples.h"
#include "render/CellNumbers.h"
#include "render/Colormaps.h"
#include "render/FigureFile.h"
#include "render/FigureRegistry.h"
#include "render/SwatchLegend.h"
#include "render/data/ViewOptions.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QJsonArray>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <optional>

namespace tst_mapoptions {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// A 16:9 slide at 14 pt, as a lecturer exports one.
FigureSize slide()
{
    return FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.2875 / 2.54), 150.0);
}

FigureStyle fourteenPoints()
{
    FigureStyle style;
    style.fontPointSize = 14.0;
    return style;
}

Params small(std::int64_t d, std::int64_t length)
{
    Params p;
    p.dModel = d;
    p.maxLen = length;
    return p;
}

QList<QCPColorMap *> mapsOf(QCustomPlot &plot)
{
    QList<QCPColorMap *> maps;
    for (int i = 0; i < plot.plottableCount(); ++i)
        if (auto *map = qobject_cast<QCPColorMap *>(plot.plottable(i)))
            maps.append(map);
    return maps;
}

QList<CellNumbers::Shown> numbersOf(QCustomPlot &plot)
{
    QList<CellNumbers::Shown> all;
    for (QCPColorMap *map : mapsOf(plot))
        all += CellNumbers::of(map)->shown();
    return all;
}

// The layer stack of the model `config` names, at a window's size, with `state`'s other options.
auto layerStackOf(const QString &config, FigureState state = FigureState())
{
    state.options.insert(u"config"_s, config);
    return FigureBuilds::build(u"layer-stack"_s, Params(), FigureSize::fromPixels(QSize(1900, 1040)), state);
}

// How many cells of `plot`'s maps show each text.
QMap<QString, int> cellCounts(QCustomPlot &plot)
{
    QMap<QString, int> counts;
    for (const CellNumbers::Shown &cell : numbersOf(plot))
        ++counts[cell.text];
    return counts;
}

bool sameColor(QCPColorGradient a, QCPColorGradient b, double t)
{
    return a.color(t, {0.0, 1.0}) == b.color(t, {0.0, 1.0});
}

// Whether `gradient` is `map`'s table, read at its ends and middle.
bool isMap(const QCPColorGradient &gradient, Colormap map)
{
    const QCPColorGradient expected = Colormaps::gradient(map);
    return sameColor(gradient, expected, 0.02) && sameColor(gradient, expected, 0.5)
        && sameColor(gradient, expected, 0.98);
}

// The finite cells' range of a map's data.
QCPRange finiteRange(QCPColorMap &map)
{
    // QCPRange orders its ends: the least and most kept apart until the end.
    double least = std::numeric_limits<double>::infinity(), most = -least;
    QCPColorMapData *data = map.data(); // its cell() is not const
    for (int k = 0; k < data->keySize(); ++k)
        for (int v = 0; v < data->valueSize(); ++v) {
            const double x = data->cell(k, v);
            if (std::isfinite(x)) {
                least = std::min(least, x);
                most = std::max(most, x);
            }
        }
    return least <= most ? QCPRange(least, most) : QCPRange(1.0, 0.0);
}

} // namespace

class TestMapOptions : public QObject
{
    Q_OBJECT

private slots:
    void textOfANumber_data();
    void textOfANumber();
    void numbersOfSmallTables_data();
    void numbersOfSmallTables();
    void noNumbersWhereTheyDoNotFit_data();
    void noNumbersWhereTheyDoNotFit();
    void theNumbersTakeTheLargestFontThatFits_data();
    void theNumbersTakeTheLargestFontThatFits();
    void numbersAreInTheExport();
    void wholeNumbersAreWrittenWhole_data();
    void wholeNumbersAreWrittenWhole();
    void everyMapFigureTakesTheOptions_data();
    void everyMapFigureTakesTheOptions();
    void layerStackCellsSayTheirKey();
    void layerStackKeyTakesTheChosenMap();
    void layerStackCellsAreOneLayerEach();
};

void TestMapOptions::textOfANumber_data()
{
    QTest::addColumn<double>("extent");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    const QString minus = QString(QChar(0x2212));
    QTest::newRow("PE's ±1") << 1.0 << 0.8414709848 << u"0.84"_s;
    QTest::newRow("PE's ±1, negative") << 1.0 << -0.5440211109 << minus + u"0.54"_s;
    QTest::newRow("PE's ±1, 1") << 1.0 << 1.0 << u"1.00"_s;
    QTest::newRow("a tiny negative is 0.00") << 1.0 << -0.0009995 << u"0.00"_s;
    QTest::newRow("similarity 0 .. 8") << 8.0 << 7.4940 << u"7.49"_s;
    QTest::newRow("Y on ±19.97") << 19.97 << -12.345 << minus + u"12.3"_s;
    QTest::newRow("ALiBi's bias to -511.5") << 511.5 << -255.5 << minus + u"256"_s;
    QTest::newRow("0.01") << 0.01 << 0.0012345 << u"0.0012"_s;
    QTest::newRow("1e-6: significant digits") << 1e-6 << 1.2345e-7 << u"1.23e-7"_s;
    QTest::newRow("1e6: significant digits") << 1e6 << 123456.0 << u"1.23e5"_s;
}

// A map's numbers share their decimals: three significant digits at the range's largest magnitude.
void TestMapOptions::textOfANumber()
{
    QFETCH(double, extent);
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(CellNumbers::text(value, CellNumbers::decimalsFor(extent)), text);
}

void TestMapOptions::numbersOfSmallTables_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("quantity");
    QTest::addColumn<Params>("params");
    QTest::addColumn<int>("cells");
    QTest::newRow("heatmap PE d 12 x L 8") << u"heatmap"_s << u"pe"_s << small(12, 8) << 96;
    QTest::newRow("heatmap PE d 12 x L 10") << u"heatmap"_s << u"pe"_s << small(12, 10) << 120;
    // Sixteen columns of "−0.54" on a slide: at a font below the tick labels' 14 pt.
    QTest::newRow("heatmap PE d 16 x L 8") << u"heatmap"_s << u"pe"_s << small(16, 8) << 128;
    QTest::newRow("heatmap similarity d 16 x L 8") << u"heatmap"_s << u"similarity"_s << small(16, 8) << 64;
    QTest::newRow("similarity figure d 16 x L 8") << u"similarity"_s << QString() << small(16, 8) << 64;
}

// Every cell of a small table on a 14-pt slide shows its value, three significant digits of the
// float64 formula, in black or white, whichever contrasts more with the cell's colour (at least
// WCAG's 4.5:1), and the cell's colour is the map's colour of the value.
void TestMapOptions::numbersOfSmallTables()
{
    QFETCH(QString, figure);
    QFETCH(QString, quantity);
    QFETCH(Params, params);
    QFETCH(int, cells);
    FigureState state;
    if (!quantity.isEmpty())
        state.options.insert(u"quantity"_s, quantity);
    const auto built = FigureBuilds::build(figure, params, slide(), state, fourteenPoints());
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QList<QCPColorMap *> maps = mapsOf(*built->plot());
    QVERIFY(!maps.isEmpty());
    QCPColorMap *map = maps.first();
    const QList<CellNumbers::Shown> shown = CellNumbers::of(map)->shown();
    QCOMPARE(shown.size(), cells);
    const bool similarity = quantity == u"similarity"_s || figure == u"similarity"_s;
    const std::int64_t d = params.dModel;
    QCPColorGradient gradient = map->gradient();
    const QCPRange range = map->dataRange();
    const auto decimals = CellNumbers::decimalsFor(std::max(std::abs(range.lower), std::abs(range.upper)));
    // Three significant digits at the range's end: 2 decimals on PE's ±1 and on 0 .. 8.
    QCOMPARE(decimals, std::optional<int>(2));
    for (const CellNumbers::Shown &number : shown) {
        double key = 0.0, value = 0.0;
        map->pixelsToCoords(number.cell.center(), key, value);
        const auto j = static_cast<std::int64_t>(std::lround(key));
        const auto p = static_cast<std::int64_t>(std::lround(value));
        double expected = 0.0;
        if (similarity) {
            for (std::int64_t i = 0; i < d / 2; ++i)
                expected += std::cos(double(p - j) * reference::omega(i, d, params.sinusoidal.base));
        } else {
            expected = reference::exactValue(p, j, d, params.sinusoidal.base, params.sinusoidal.layout);
        }
        // The float32 table may round the other way at the third digit: either reading is the cell's.
        const QString asFloat = CellNumbers::text(double(float(expected)), decimals);
        const QString formula = CellNumbers::text(expected, decimals);
        QVERIFY2(number.text == formula || number.text == asFloat,
                 qPrintable(u"(%1, %2): %3, expected %4"_s.arg(p).arg(j).arg(number.text, formula)));
        const QColor cellColor = QColor::fromRgb(gradient.color(map->data()->data(key, value), map->dataRange()));
        QCOMPARE(number.background, cellColor);
        const double ratio = CellNumbers::contrastRatio(number.color, number.background);
        QVERIFY2(ratio >= 4.5, qPrintable(u"(%1, %2): contrast %3"_s.arg(p).arg(j).arg(ratio)));
        const QColor other = number.color == QColor(Qt::black) ? QColor(Qt::white) : QColor(Qt::black);
        QVERIFY(ratio >= CellNumbers::contrastRatio(other, number.background));
        // Within its cell, at the tick labels' font or one no smaller than kMinFontScale of it.
        QVERIFY(QFontMetricsF(number.font).horizontalAdvance(number.text) <= number.cell.width());
        const QFont tick = map->keyAxis()->tickLabelFont();
        QVERIFY(number.font.pointSizeF() <= tick.pointSizeF());
        QVERIFY(number.font.pointSizeF() >= CellNumbers::kMinFontScale * tick.pointSizeF() - 1e-9);
    }
    // The option turns them off.
    state.options.insert(QString::fromUtf16(ViewOptions::kCellNumbers), u"off"_s);
    const auto off = FigureBuilds::build(figure, params, slide(), state, fourteenPoints());
    QVERIFY2(!off->error(), qPrintable(FigureBuilds::errorOf(*off)));
    QVERIFY(numbersOf(*off->plot()).isEmpty());
}

void TestMapOptions::noNumbersWhereTheyDoNotFit_data()
{
    QTest::addColumn<Params>("params");
    QTest::addColumn<FigureSize>("size");
    QTest::newRow("d 512 x L 1024 on a slide") << Params {} << slide();
    QTest::newRow("d 64 x L 64 on a slide") << small(64, 64) << slide();
    // At 14 pt a slide's 32 columns have no room for "−0.54", even at kMinFontScale of it.
    QTest::newRow("d 32 x L 8 on a slide") << small(32, 8) << slide();
    QTest::newRow("d 16 x L 8 at 6 x 4 cm")
        << small(16, 8) << FigureSize::fromInches(QSizeF(6 / 2.54, 4 / 2.54), 150.0);
}

// A table whose cells have no room for their numbers at the figure's font shows none: none is
// left half-written or cut.
void TestMapOptions::noNumbersWhereTheyDoNotFit()
{
    QFETCH(Params, params);
    QFETCH(FigureSize, size);
    const auto built = FigureBuilds::build(u"heatmap"_s, params, size, {}, fourteenPoints());
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QVERIFY(numbersOf(*built->plot()).isEmpty());
}

void TestMapOptions::theNumbersTakeTheLargestFontThatFits_data()
{
    QTest::addColumn<QStringList>("texts");
    QTest::addColumn<QSizeF>("cell");
    const QString minus = QString(QChar(0x2212));
    const QStringList pe {u"0.84"_s, minus + u"0.54"_s, u"1.00"_s, u"0.84"_s, u"0.00"_s};
    QTest::newRow("room for the tick labels' font") << pe << QSizeF(60, 30);
    QTest::newRow("a smaller font") << pe << QSizeF(31, 20);
    QTest::newRow("smaller still") << pe << QSizeF(28, 14);
    QTest::newRow("none fits") << pe << QSizeF(10, 6);
    QTest::newRow("whole numbers") << QStringList {u"7"_s, u"12"_s, u"1024"_s, u"12"_s} << QSizeF(30, 18);
}

// The font of a map's numbers is the tick labels' where every number fits its cell, else the
// largest of the steps of 5 % below it, down to kMinFontScale, where every one does, each measured by
// Qt's own metrics (the numbers' 2 units of padding a side, 2 above and below), and none where none
// does: the measures it remembers are those QFontMetricsF gives.
void TestMapOptions::theNumbersTakeTheLargestFontThatFits()
{
    QFETCH(QStringList, texts);
    QFETCH(QSizeF, cell);
    QFont tick = QApplication::font();
    tick.setPointSizeF(9.0);
    std::optional<QFont> expected;
    for (int step = 0; 1.0 - 0.05 * step >= CellNumbers::kMinFontScale - 1e-9 && !expected; ++step) {
        QFont font = tick;
        if (step > 0)
            font.setPointSizeF(9.0 * (1.0 - 0.05 * step));
        const QFontMetricsF metrics(font);
        bool fits = cell.height() >= metrics.height() + 2.0;
        for (const QString &text : texts)
            fits = fits && metrics.horizontalAdvance(text) + 4.0 <= cell.width();
        if (fits)
            expected = font;
    }
    // Asked twice, the second from what it remembers.
    for (int time = 0; time < 2; ++time) {
        const std::optional<QFont> font = CellNumbers::fittingFont(tick, texts, cell);
        QCOMPARE(font.has_value(), expected.has_value());
        if (font)
            QCOMPARE(font->pointSizeF(), expected->pointSizeF());
    }
}

// The exported file holds the numbers as text, at the figure's font size.
void TestMapOptions::numbersAreInTheExport()
{
    const Params params = small(12, 8);
    const auto built = FigureBuilds::build(u"heatmap"_s, params, slide(), {}, fourteenPoints());
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QList<CellNumbers::Shown> shown = numbersOf(*built->plot());
    QCOMPARE(shown.size(), 96);
    const SvgTexts::Page svg = SvgTexts::read(FigureFile::encode(*built, FigureFormat::Svg, fourteenPoints()));
    QVERIFY2(svg.error.isEmpty(), qPrintable(svg.error));
    QStringList texts;
    for (const SvgTexts::Text &t : svg.texts)
        texts.append(t.text);
    for (const CellNumbers::Shown &number : shown)
        QVERIFY2(texts.removeOne(number.text), qPrintable(number.text));
}

// Position ids and distances are whole: written 3 and −2, not 3.00 and −2.00. One cell that is not
// whole gives the map its decimals again.
void TestMapOptions::wholeNumbersAreWrittenWhole_data()
{
    QTest::addColumn<double>("odd"); // the value of cell (0, 0)
    QTest::addColumn<QString>("three"); // how the cell holding 3 reads
    QTest::addColumn<QString>("minusTwo");
    QTest::newRow("every cell whole") << 0.0 << u"3"_s << u"\u22122"_s;
    QTest::newRow("one cell 0.5") << 0.5 << u"3.00"_s << u"\u22122.00"_s;
}

void TestMapOptions::wholeNumbersAreWrittenWhole()
{
    QFETCH(double, odd);
    QFETCH(QString, three);
    QFETCH(QString, minusTwo);
    QCustomPlot plot;
    plot.resize(400, 400);
    auto *map = new QCPColorMap(plot.xAxis, plot.yAxis);
    map->data()->setSize(4, 4);
    map->data()->setRange(QCPRange(0, 3), QCPRange(0, 3));
    for (int k = 0; k < 4; ++k)
        for (int v = 0; v < 4; ++v)
            map->data()->setCell(k, v, double(k - v));
    map->data()->setCell(0, 0, odd);
    map->rescaleDataRange(true);
    plot.rescaleAxes();
    plot.xAxis->setRange(-0.5, 3.5);
    plot.yAxis->setRange(-0.5, 3.5);
    plot.replot();
    const QList<CellNumbers::Shown> shown = CellNumbers::of(map)->shown();
    QCOMPARE(shown.size(), 16);
    QStringList texts;
    for (const CellNumbers::Shown &number : shown)
        texts.append(number.text);
    QVERIFY2(texts.contains(three), qPrintable(texts.join(u' ')));
    QVERIFY2(texts.contains(minusTwo), qPrintable(texts.join(u' ')));
}

void TestMapOptions::everyMapFigureTakesTheOptions_data()
{
    QTest::addColumn<QString>("figure");
    for (const QString &name : FigureRegistry::names())
        QTest::newRow(qPrintable(name)) << name;
}

// Every figure of the registry that draws a colour map takes --colormap and --cell-numbers, draws
// every map in the map chosen, and by default one-signed data on a sequential map, signed data on
// the diverging one centred on zero.
void TestMapOptions::everyMapFigureTakesTheOptions()
{
    QFETCH(QString, figure);
    const FigureDescriptor &descriptor = FigureBuilds::figure(figure);
    const Params params = FigureBuilds::defaultParams(descriptor);
    if (!FigureRegistry::check(descriptor, params, {}).isEmpty())
        QSKIP("the figure needs more than the defaults (a config, a file)");
    const FigureSize size = FigureSize::fromPixels(QSize(1400, 900));
    const auto built = FigureBuilds::build(figure, params, size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QList<QCPColorMap *> maps = mapsOf(*built->plot());
    QCOMPARE(descriptor.model().drawsColourMaps(), !maps.isEmpty());
    if (maps.isEmpty())
        return;
    for (const char16_t *key : {ViewOptions::kColormap, ViewOptions::kCellNumbers})
        QVERIFY2(descriptor.model().option(QString::fromUtf16(key)), qPrintable(QString::fromUtf16(key)));
    for (QCPColorMap *map : maps) {
        if (!map->realVisibility())
            continue;
        const QCPRange data = finiteRange(*map);
        if (data.lower > data.upper || (data.lower == 0.0 && data.upper == 0.0))
            continue;
        const QString where = u"%1 map on %2 .. %3"_s.arg(figure).arg(data.lower).arg(data.upper);
        if (data.lower >= 0.0 || data.upper <= 0.0)
            QVERIFY2(!isMap(map->gradient(), Colormap::Diverging), qPrintable(where + u": diverging"_s));
        else
            QVERIFY2(map->dataRange().lower == -map->dataRange().upper,
                     qPrintable(where + u": range %1 .. %2"_s.arg(map->dataRange().lower).arg(map->dataRange().upper)));
    }
    // A reversed map by matplotlib's name too (coolwarm_r): before, refused.
    for (const Colormap chosen : {Colormap::Magma, Colormap::Coolwarm.flipped()}) {
        FigureState state;
        state.options.insert(QString::fromUtf16(ViewOptions::kColormap), Colormaps::name(chosen));
        QVERIFY(FigureRegistry::check(descriptor, params, state).isEmpty());
        const auto again = FigureBuilds::build(figure, params, size, state);
        QVERIFY2(!again->error(), qPrintable(FigureBuilds::errorOf(*again)));
        const QList<QCPColorMap *> chosenMaps = mapsOf(*again->plot());
        QCOMPARE(chosenMaps.size(), maps.size());
        for (qsizetype i = 0; i < maps.size(); ++i) {
            QVERIFY2(isMap(chosenMaps[i]->gradient(), chosen), qPrintable(Colormaps::name(chosen)));
            // A masked cell keeps the figure's colour for it.
            QCOMPARE(chosenMaps[i]->gradient().nanColor(), maps[i]->gradient().nanColor());
            QCOMPARE(chosenMaps[i]->gradient().nanHandling(), maps[i]->gradient().nanHandling());
        }
    }
}

// The layer stack's cells read bare "0", "1", "2", "3" (indices into its colours, no key to them):
// a cell says what its colour means, as the legend does. Gemma 3 4B (google/gemma-3-4b-it's
// config.json): 34 layers, every sixth full attention (5, 11, 17, 23, 29), the rest a 1024 window.
void TestMapOptions::layerStackCellsSayTheirKey()
{
    const auto built = layerStackOf(u"gemma-3-4b"_s);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QMap<QString, int> counts = cellCounts(*built->plot());
    const QMap<QString, int> expected {{u"sliding_attention"_s, 29},
                                       {u"full_attention"_s, 5},
                                       {u"sliding window"_s, 29},
                                       {u"whole context"_s, 5}};
    QCOMPARE(counts, expected);
}

// --colormap magma recoloured the layer stack's cells and left its key in the figure's own
// colours (sliding_attention light blue beside black cells): every cell's colour is the colour of
// the key's entry its words name, evenly spaced along the chosen map.
void TestMapOptions::layerStackKeyTakesTheChosenMap()
{
    FigureState state;
    state.options.insert(QString::fromUtf16(ViewOptions::kColormap), Colormaps::name(Colormap::Magma));
    const auto built = layerStackOf(u"gemma-3-4b"_s, state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QMap<QString, QColor> key;
    for (QCPLegend *legend : built->plot()->findChildren<QCPLegend *>())
        for (int i = 0; i < legend->itemCount(); ++i)
            if (const QColor c = SwatchLegend::color(legend->item(i)); c.isValid())
                key.insert(SwatchLegend::label(legend->item(i)), c);
    // Gemma 3's four kinds, in the figure's order: two position colours, then two span colours,
    // at 0, 1/3, 2/3 and 1 of the map.
    const QList<std::pair<QString, double>> kinds {{u"sliding_attention"_s, 0.0},
                                                   {u"full_attention"_s, 1.0 / 3.0},
                                                   {u"span: sliding window"_s, 2.0 / 3.0},
                                                   {u"span: whole context"_s, 1.0}};
    for (const auto &[words, t] : kinds) {
        QColor found;
        for (auto it = key.cbegin(); it != key.cend(); ++it)
            if (it.key().contains(words)) // a position entry names its scheme, then its layers
                found = it.value();
        QVERIFY2(found.isValid(), qPrintable(words + u": not in the key "_s + QStringList(key.keys()).join(u", "_s)));
        QCOMPARE(found, Colormaps::colorAt(Colormap::Magma, t));
    }
    int cells = 0;
    for (const CellNumbers::Shown &cell : numbersOf(*built->plot())) {
        const QString words = cell.text.startsWith(u"sliding_"_s) || cell.text.startsWith(u"full_"_s)
            ? cell.text
            : u"span: "_s + cell.text;
        for (auto it = key.cbegin(); it != key.cend(); ++it)
            if (it.key().contains(words)) {
                QCOMPARE(cell.background, it.value());
                ++cells;
            }
    }
    QCOMPARE(cells, 68);
}

// gpt-oss-20b's layer_types alternate sliding_attention and full_attention, both turned alike
// (one RoPE colour): each of its position cells read "sliding_attention, full_attention", though
// each layer is one type, and its key gave that one colour two entries. Each cell names what its
// one layer has; the key gives each colour one entry, its types counted from the config.
void TestMapOptions::layerStackCellsAreOneLayerEach()
{
    const ModelExamples::Example *example = ModelExamples::find(u"gpt-oss-20b"_s);
    QVERIFY(example);
    QMap<QString, int> types;
    for (const QJsonValue &type : example->config.value(u"layer_types"_s).toArray())
        ++types[type.toString()];
    QCOMPARE(types.size(), 2);
    const auto built = layerStackOf(u"gpt-oss-20b"_s);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QMap<QString, int> counts = cellCounts(*built->plot());
    QCOMPARE(counts.value(u"sliding window"_s), types.value(u"sliding_attention"_s));
    QCOMPARE(counts.value(u"whole context"_s), types.value(u"full_attention"_s));
    int cells = 0;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        QVERIFY2(!(it.key().contains(u"sliding_attention"_s) && it.key().contains(u"full_attention"_s)),
                 qPrintable(it.key()));
        cells += it.value();
    }
    QCOMPARE(cells, 2 * (types.first() + types.last()));
    QList<QColor> colors;
    QStringList entries;
    for (QCPLegend *legend : built->plot()->findChildren<QCPLegend *>())
        for (int i = 0; i < legend->itemCount(); ++i)
            if (const QColor c = SwatchLegend::color(legend->item(i)); c.isValid()) {
                QVERIFY2(!colors.contains(c), qPrintable(SwatchLegend::label(legend->item(i))));
                colors.append(c);
                entries.append(SwatchLegend::label(legend->item(i)));
            }
    // Counted in words, "×" being a scaling's factor ("yarn ×32").
    const QString both = u"%1 sliding_attention and %2 full_attention layers"_s.arg(types.value(u"sliding_attention"_s))
                             .arg(types.value(u"full_attention"_s));
    QVERIFY2(std::any_of(entries.cbegin(), entries.cend(), [&](const QString &e) { return e.contains(both); }),
             qPrintable(entries.join(u" | "_s)));
}

POSENC_TEST_MAIN(TestMapOptions)
} // namespace tst_mapoptions
#include "tst_mapoptions.moc"
