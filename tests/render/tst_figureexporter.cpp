// The exporter: every figure in every format gives a file that
// reads back at the size asked for, text keeps its point size at any dpi, the data is computed
// at the resolution of the output, every text is drawn in the pinned font (an SVG naming a
// generic family after it), an SVG clips its data to the axes as a PDF does, and an empty title
// takes no room.
#include "render/Colormaps.h"
#include "render/FigureExporter.h"
#include "render/FigureFonts.h"
#include "render/PinnedFont.h"
#include "support/TestMain.h"

#include "support/FigureBuilds.h"
#include "support/TestFamily.h"
#include "support/TestFiles.h"

#include <QBuffer>
#include <QFontInfo>
#include <QImageReader>
#include <QRegularExpression>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>

namespace tst_figureexporter {
using namespace Qt::StringLiterals;
using namespace TestFiles;
using namespace posenc;

namespace {

Params small()
{
    Params p;
    p.dModel = 64;
    p.maxLen = 200;
    p.dropout = 0.25;
    return p;
}

// A learned position table: smooth in p like a trained one, not the sinusoidal table.
std::shared_ptr<const EmbeddingMatrix> learnedTable(std::int64_t rows, std::int64_t cols)
{
    auto matrix = std::make_shared<EmbeddingMatrix>();
    matrix->values.resize(rows, cols);
    for (std::int64_t p = 0; p < rows; ++p)
        for (std::int64_t j = 0; j < cols; ++j)
            matrix->values(p, j) = float(0.2 * std::cos(0.03 * double(p) * double(j % 7 + 1) + double(j)));
    matrix->source = u"learned.npy"_s;
    return matrix;
}

// The parameters a figure is drawn from: the learned figure needs a loaded table.
Params paramsFor(const QString &figure)
{
    Params p = small();
    if (figure == u"learned"_s) {
        p.encoding = Encoding::Learned;
        const auto table = learnedTable(p.maxLen, p.dModel);
        p.learned.table = std::make_shared<const PositionMatrix>(PositionMatrix {table->values, table->source});
    }
    p = TestFamilies::forFamilies(FigureBuilds::figure(figure).model().families(), p);
    return p;
}

// The labels of the axes and colour scales the figure shows as it is built (not those of a panel
// given up on little room).
QStringList axisLabels(QCustomPlot &plot)
{
    QStringList labels;
    for (QCPAxisRect *rect : plot.axisRects())
        for (QCPAxis *axis : rect->axes())
            if (rect->realVisibility() && axis->visible() && !axis->label().trimmed().isEmpty())
                labels.append(axis->label());
    for (QCPLayoutElement *element : plot.plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(element))
            if (scale->realVisibility() && !scale->axis()->label().trimmed().isEmpty())
                labels.append(scale->axis()->label());
    return labels;
}

// The root element's name and every text of an SVG, or nothing when it is not well-formed XML.
std::optional<std::pair<QString, QString>> readSvg(const QByteArray &svg)
{
    QXmlStreamReader xml(svg);
    QString root, text;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && root.isEmpty())
            root = xml.name().toString();
        if (xml.isCharacters())
            text += xml.text().toString() + u"\n"_s;
    }
    if (xml.hasError())
        return std::nullopt;
    return std::pair {root, text};
}

std::vector<QFont> allFonts(QCustomPlot &plot)
{
    std::vector<QFont> fonts;
    for (QCPAxisRect *rect : plot.axisRects())
        for (QCPAxis *axis : rect->axes())
            fonts.insert(fonts.end(), {axis->labelFont(), axis->tickLabelFont()});
    for (QCPLayoutElement *e : plot.plotLayout()->elements(true)) {
        if (auto *text = qobject_cast<QCPTextElement *>(e))
            fonts.push_back(text->font());
        if (auto *scale = qobject_cast<QCPColorScale *>(e))
            fonts.insert(fonts.end(), {scale->axis()->labelFont(), scale->axis()->tickLabelFont()});
    }
    return fonts;
}

// An SVG's shapes as drawn: each circle's centre and the clip rectangle it is drawn within (none
// when it is drawn whole), the SVG parsed with its clip paths and group transforms.
struct SvgCircle
{
    QPointF centre;
    std::optional<QRectF> clip;
};

QTransform svgTransform(QStringView text)
{
    // The generator writes "matrix(a,b,c,d,e,f)".
    const qsizetype open = text.indexOf(u'('), close = text.indexOf(u')');
    const QStringList numbers = text.mid(open + 1, close - open - 1).toString().split(u',');
    if (!text.startsWith(u"matrix"_s) || numbers.size() != 6)
        return {};
    return QTransform(numbers[0].toDouble(), numbers[1].toDouble(), numbers[2].toDouble(), numbers[3].toDouble(),
                      numbers[4].toDouble(), numbers[5].toDouble());
}

std::vector<SvgCircle> svgCircles(const QByteArray &svg)
{
    QXmlStreamReader xml(svg);
    QHash<QString, QRectF> clips; // by clipPath id
    QString clipId;
    struct Group
    {
        QTransform transform;
        std::optional<QRectF> clip;
    };
    std::vector<Group> groups {{}};
    std::vector<SvgCircle> circles;
    while (!xml.atEnd()) {
        xml.readNext();
        const QXmlStreamAttributes a = xml.attributes();
        if (xml.isStartElement()) {
            Group group = groups.back();
            if (xml.name() == u"clipPath"_s)
                clipId = a.value(u"id"_s).toString();
            if (xml.name() == u"rect"_s && !clipId.isEmpty())
                clips.insert(clipId,
                             QRectF(a.value(u"x"_s).toDouble(), a.value(u"y"_s).toDouble(),
                                    a.value(u"width"_s).toDouble(), a.value(u"height"_s).toDouble()));
            if (a.hasAttribute(u"transform"_s))
                group.transform = svgTransform(a.value(u"transform"_s)) * group.transform;
            if (const QStringView url = a.value(u"clip-path"_s); !url.isEmpty()) {
                const QRectF rect = clips.value(url.mid(5, url.size() - 6).toString()); // url(#id)
                group.clip = group.clip ? group.clip->intersected(rect) : rect;
            }
            if (xml.name() == u"circle"_s || xml.name() == u"ellipse"_s)
                circles.push_back(
                    {group.transform.map(QPointF(a.value(u"cx"_s).toDouble(), a.value(u"cy"_s).toDouble())),
                     group.clip});
            groups.push_back(group);
        } else if (xml.isEndElement()) {
            if (xml.name() == u"clipPath"_s)
                clipId.clear();
            groups.pop_back();
        }
    }
    if (xml.hasError())
        qWarning("%s", qPrintable(xml.errorString()));
    return circles;
}

} // namespace

class TestFigureExporter : public QObject
{
    Q_OBJECT

private slots:
    void everyFigureInEveryFormat_data();
    void everyFigureInEveryFormat();
    void physicalSizeAtDpi();
    void textKeepsItsPointSizeAtAnyDpi();
    void heatmapGridHasTheOutputsResolution();
    void fontSizeTitleAndColormap();
    void everyTextInThePinnedFont();
    void svgClipsItsDataToTheAxes();
    void anEmptyTitleTakesNoRoom();
    void printsDrawEveryPointOfACurve();
    void formatFromExtension();
    void refusedOptions_data();
    void refusedOptions();
    void overBudgetIsRefused();
};

void TestFigureExporter::everyFigureInEveryFormat_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<FigureFormat>("format");
    for (const QString &name : FigureRegistry::names()) {
        QTest::newRow(qPrintable(name + u" png"_s)) << name << FigureFormat::Png;
        QTest::newRow(qPrintable(name + u" svg"_s)) << name << FigureFormat::Svg;
        QTest::newRow(qPrintable(name + u" pdf"_s)) << name << FigureFormat::Pdf;
    }
}

void TestFigureExporter::everyFigureInEveryFormat()
{
    QFETCH(QString, figure);
    QFETCH(FigureFormat, format);
    const Params params = paramsFor(figure);
    const FigureSize size = FigureSize::fromPixels(QSize(640, 420));
    const QList<ParamError> refused = FigureRegistry::check(FigureBuilds::figure(figure), params, {});
    QVERIFY2(refused.isEmpty(),
             qPrintable(refused.isEmpty() ? QString() : refused.first().key + u": "_s + refused.first().sentence()));
    const auto built = FigureBuilds::build(figure, params, size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QStringList labels = axisLabels(*built->plot());
    QByteArray bytes = FigureExporter::encode(built->plot(), size, format, u"a figure"_s);
    QVERIFY(!bytes.isEmpty());
    switch (format) {
    case FigureFormat::Png: {
        QBuffer buffer(&bytes);
        QImageReader reader(&buffer, "png");
        const QImage image = reader.read();
        QVERIFY2(!image.isNull(), qPrintable(reader.errorString()));
        QCOMPARE(image.size(), QSize(640, 420));
        // Not a blank page: the figure has white background, dark text and coloured data.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
        break;
    }
    case FigureFormat::Svg: {
        const auto svg = readSvg(bytes);
        QVERIFY2(svg, bytes.left(200).constData());
        QCOMPARE(svg->first, u"svg"_s);
        // Every axis label the figure shows is text of the SVG. A label's lines are texts of their own,
        // and a run of glyphs from another font (‖ beside ΔPE) too: compared without white space.
        QVERIFY2(!labels.isEmpty(), "the figure labels no axis");
        static const QRegularExpression space(u"\\s+"_s);
        const QString texts = QString(svg->second).remove(space);
        for (const QString &label : labels)
            QVERIFY2(texts.contains(QString(label).remove(space)), qPrintable(label + u" not in: "_s + svg->second));
        // The dropout figures' p is the probability: their rows are just "position".
        if (figure.startsWith(u"dropout"_s))
            QVERIFY2(!svg->second.contains(u"position p"_s), qPrintable(svg->second));
        break;
    }
    case FigureFormat::Pdf: {
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.trimmed().endsWith("%%EOF"));
        const auto box = mediaBox(bytes);
        QVERIFY(box);
        // 640 x 420 layout units at 96 per inch: 480 x 315 points.
        QVERIFY2(std::abs(box->width() - size.points().width()) <= 1.0, qPrintable(QString::number(box->width())));
        QVERIFY2(std::abs(box->height() - size.points().height()) <= 1.0, qPrintable(QString::number(box->height())));
        break;
    }
    }
}

void TestFigureExporter::physicalSizeAtDpi()
{
    // 8.5 cm x 6 cm at 300 dpi: 1003.9 x 708.7 pixels, 240.9 x 170.1 points.
    const FigureSize size = FigureSize::fromInches(QSizeF(8.5 / 2.54, 6.0 / 2.54), 300.0);
    QVERIFY2(std::abs(size.pixels().width() - 1004) <= 2, qPrintable(QString::number(size.pixels().width())));
    QVERIFY2(std::abs(size.pixels().height() - 709) <= 2, qPrintable(QString::number(size.pixels().height())));
    const auto built = FigureBuilds::build(u"heatmap"_s, small(), size);
    QVERIFY(!built->error());
    QCustomPlot *plot = built->plot();
    QCOMPARE(FigureExporter::image(plot, size).size(), size.pixels());
    QCOMPARE(qRound(FigureExporter::image(plot, size).dotsPerMeterX() * 0.0254), 300);
    const auto box = mediaBox(FigureExporter::pdf(plot, size, QString()));
    QVERIFY(box);
    QVERIFY2(std::abs(box->width() - 8.5 / 2.54 * 72) <= 1.0, qPrintable(QString::number(box->width())));
    QVERIFY2(std::abs(box->height() - 6.0 / 2.54 * 72) <= 1.0, qPrintable(QString::number(box->height())));
    const auto parsed = FigureSizes::parsePhysical(u"8.5x6cm"_s);
    QVERIFY(std::holds_alternative<QSizeF>(parsed));
    QCOMPARE(std::get<QSizeF>(parsed), QSizeF(8.5 / 2.54, 6.0 / 2.54));
    QCOMPARE(std::get<QSizeF>(FigureSizes::parsePhysical(u"85x60mm"_s)), QSizeF(85 / 25.4, 60 / 25.4));
    QCOMPARE(std::get<QSizeF>(FigureSizes::parsePhysical(u"3.5x2in"_s)), QSizeF(3.5, 2.0));
    for (const QString &bad : {u"8.5x6"_s, u"8.5cm"_s, u"0x6cm"_s, u"-1x6cm"_s, u"500x6cm"_s, u"axbcm"_s})
        QVERIFY2(std::holds_alternative<QString>(FigureSizes::parsePhysical(bad)), qPrintable(bad));
}

void TestFigureExporter::textKeepsItsPointSizeAtAnyDpi()
{
    // The same physical figure at 150 and 300 dpi: one layout drawn at twice the pixels, so the
    // title, set in 9.5 pt bold, is 9.5 / 72 inch high on paper at both. "Hp" spans DejaVu
    // Sans's cap height and descender: 0.729 + 0.236 of the em.
    FigureStyle style;
    style.title = u"Hp"_s;
    for (const double dpi : {150.0, 300.0}) {
        const FigureSize size = FigureSize::fromInches(QSizeF(8.5 / 2.54, 6.0 / 2.54), dpi);
        const auto built = FigureBuilds::build(u"heatmap"_s, small(), size, {}, style);
        QVERIFY(!built->error());
        QCustomPlot &plot = *built->plot();
        const QImage image = FigureExporter::image(&plot, size).convertToFormat(QImage::Format_RGB32);
        auto *title = qobject_cast<QCPTextElement *>(plot.plotLayout()->element(0, 0));
        QVERIFY(title);
        const int bottom = qRound(title->outerRect().bottom() * size.scale);
        QRect dark;
        for (int y = 0; y < bottom; ++y)
            for (int x = 0; x < image.width(); ++x)
                if (qGray(image.pixel(x, y)) < 128)
                    dark |= QRect(x, y, 1, 1);
        const double expected = (0.729 + 0.236) * FigureFonts::kBasePointSize / 72.0 * dpi;
        QVERIFY2(std::abs(dark.height() - expected) <= 0.08 * expected + 1.0,
                 qPrintable(u"%1 dpi: %2 pixels high, expected %3"_s.arg(dpi).arg(dark.height()).arg(expected)));
    }
}

void TestFigureExporter::heatmapGridHasTheOutputsResolution()
{
    // A wide table shown on 3.125 pixels per layout unit: the grid has one cell per output pixel,
    // not per layout unit, so a print is as sharp as its dpi.
    Params p = small();
    p.dModel = 4096;
    p.maxLen = 64;
    const FigureSize size = FigureSize::fromInches(QSizeF(4, 3), 300.0);
    const auto built = FigureBuilds::build(u"heatmap"_s, p, size);
    QVERIFY(!built->error());
    QCustomPlot &plot = *built->plot();
    QCPColorMap *map = nullptr;
    for (int i = 0; i < plot.plottableCount(); ++i)
        map = map ? map : qobject_cast<QCPColorMap *>(plot.plottable(i));
    QVERIFY(map);
    const int pixels = static_cast<int>(std::ceil(map->keyAxis()->axisRect()->width() * size.scale));
    QVERIFY2(pixels > 2 * map->keyAxis()->axisRect()->width(), "the scale reached the grid");
    QCOMPARE(map->data()->keySize(), pixels);
    QCOMPARE(map->data()->valueSize(), 64);
}

void TestFigureExporter::fontSizeTitleAndColormap()
{
    FigureStyle style;
    style.fontPointSize = 13.5; // every text of the figure at that size
    style.title = u"Figure 2: positional encoding"_s;
    FigureState state;
    state.options.insert(u"colormap"_s, u"viridis"_s);
    const auto built
        = FigureBuilds::build(u"heatmap"_s, small(), FigureSize::fromPixels(QSize(600, 400)), state, style);
    QVERIFY(!built->error());
    QCustomPlot &plot = *built->plot();
    QCPAxis *bottom = plot.axisRects().constFirst()->axis(QCPAxis::atBottom);
    QCOMPARE(bottom->labelFont().pointSizeF(), 13.5);
    QCOMPARE(bottom->tickLabelFont().pointSizeF(), 13.5);
    auto *title = qobject_cast<QCPTextElement *>(plot.plotLayout()->element(0, 0));
    QVERIFY(title);
    QCOMPARE(title->text(), *style.title);
    QCOMPARE(title->font().pointSizeF(), 13.5);
    QCPColorScale *scale = nullptr;
    for (QCPLayoutElement *e : plot.plotLayout()->elements(true))
        scale = scale ? scale : qobject_cast<QCPColorScale *>(e);
    QVERIFY(scale);
    QVERIFY(scale->gradient() == Colormaps::gradient(Colormap::Viridis));
    QCOMPARE(scale->axis()->labelFont().pointSizeF(), 13.5);

    // Dropout: both panels take the map (the mask's colours, named by its kept/dropped legend, are
    // those of its colour scale, out of the layout).
    const auto dropout
        = FigureBuilds::build(u"dropout"_s, small(), FigureSize::fromPixels(QSize(800, 400)), state, style);
    QVERIFY(!dropout->error());
    int viridis = 0;
    for (const QCPColorScale *s : dropout->plot()->findChildren<QCPColorScale *>())
        viridis += s->gradient() == Colormaps::gradient(Colormap::Viridis) ? 1 : 0;
    QCOMPARE(viridis, 2);
}

void TestFigureExporter::everyTextInThePinnedFont()
{
    QCOMPARE(PinnedFont::family(), u"DejaVu Sans"_s);
    for (const QString &name : FigureRegistry::names()) {
        const auto built = FigureBuilds::build(name, paramsFor(name), FigureSize::fromPixels(QSize(700, 500)));
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        const std::vector<QFont> fonts = allFonts(*built->plot());
        QVERIFY(fonts.size() >= 5);
        for (const QFont &font : fonts) {
            QVERIFY2(font.family() == u"DejaVu Sans"_s, qPrintable(name + u": "_s + font.family()));
            // The family is really there, not substituted.
            QCOMPARE(QFontInfo(font).family(), u"DejaVu Sans"_s);
        }
    }
}

// Magnitudes' |mean| of a PE column drops below its log axis: the points there are drawn in the
// SVG, as in a PDF, only within the axes' clip, not over the tick labels beneath.
void TestFigureExporter::svgClipsItsDataToTheAxes()
{
    Params p;
    p.dModel = 512;
    p.maxLen = 1024;
    const FigureSize size = FigureSize::fromPixels(QSize(600, 400));
    const auto built = FigureBuilds::build(u"magnitudes"_s, p, size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCustomPlot &plot = *built->plot();
    QList<QRectF> inside; // the axes, and the legends' icons
    for (QCPAxisRect *rect : FigureBuild::plotRects(plot))
        inside.append(QRectF(rect->rect()).adjusted(-3, -3, 3, 3));
    for (QCPLayoutElement *e : plot.plotLayout()->elements(true))
        if (auto *legend = qobject_cast<QCPLegend *>(e))
            inside.append(legend->outerRect());
    const QByteArray svg = FigureExporter::svg(&plot, size, u"magnitudes"_s);
    QVERIFY(readSvg(svg));
    int clippedAway = 0, drawn = 0;
    for (const SvgCircle &circle : svgCircles(svg)) {
        if (std::any_of(inside.begin(), inside.end(), [&](const QRectF &r) { return r.contains(circle.centre); })) {
            ++drawn;
            continue;
        }
        QVERIFY2(circle.clip && !circle.clip->adjusted(-2, -2, 2, 2).contains(circle.centre),
                 qPrintable(
                     u"a point at (%1, %2) is drawn outside the axes"_s.arg(circle.centre.x()).arg(circle.centre.y())));
        ++clippedAway;
    }
    // The figure has points below its axis, and draws the others.
    QVERIFY2(clippedAway > 0 && drawn > 500, qPrintable(u"%1 clipped, %2 drawn"_s.arg(clippedAway).arg(drawn)));
    // Clip paths are SVG 1.1's; every font names a generic family after its own.
    QVERIFY(svg.contains("version=\"1.1\""));
    QVERIFY(!svg.contains("baseProfile=\"tiny\""));
    QVERIFY(svg.contains("font-family=\"DejaVu Sans, sans-serif\""));
    QVERIFY(!svg.contains("font-family=\"DejaVu Sans\""));
}

// --title "" frees the title's band: the plot starts at the top.
void TestFigureExporter::anEmptyTitleTakesNoRoom()
{
    const FigureSize size = FigureSize::fromPixels(QSize(600, 300));
    FigureStyle untitled;
    untitled.title = QString();
    const auto titled = FigureBuilds::build(u"heatmap"_s, small(), size);
    const auto bare = FigureBuilds::build(u"heatmap"_s, small(), size, {}, untitled);
    const int titledTop = FigureBuild::plotRects(*titled->plot()).front()->top();
    const int bareTop = FigureBuild::plotRects(*bare->plot()).front()->top();
    // The title's band is its line of 9.5 pt text, about 20 units: all of it is given back.
    QVERIFY2(titledTop - bareTop >= 15, qPrintable(u"%1 and %2"_s.arg(titledTop).arg(bareTop)));
    const QImage image = FigureExporter::image(bare->plot(), size);
    QCOMPARE(image.size(), QSize(600, 300));
}

void TestFigureExporter::printsDrawEveryPointOfACurve()
{
    // QCustomPlot's adaptive sampling keeps a few points per layout unit: steps at 300 dpi.
    // On screen (scale 1) the graphs keep it, as the window has it.
    for (const auto &[size, sampled] : {std::pair {FigureSize::fromInches(QSizeF(4, 3), 300.0), false},
                                        std::pair {FigureSize::fromPixels(QSize(600, 400)), true}}) {
        const auto built = FigureBuilds::build(u"curves"_s, small(), size);
        QVERIFY(!built->error());
        QCustomPlot &plot = *built->plot();
        QVERIFY(plot.graphCount() > 0);
        for (int i = 0; i < plot.graphCount(); ++i)
            QCOMPARE(plot.graph(i)->adaptiveSampling(), sampled);
    }
}

void TestFigureExporter::formatFromExtension()
{
    QVERIFY(FigureExporter::formatOf(u"a/b.png"_s) == FigureFormat::Png);
    QVERIFY(FigureExporter::formatOf(u"b.SVG"_s) == FigureFormat::Svg);
    QVERIFY(FigureExporter::formatOf(u"c.d.pdf"_s) == FigureFormat::Pdf);
    QVERIFY(!FigureExporter::formatOf(u"c.jpg"_s));
    QVERIFY(!FigureExporter::formatOf(u"png"_s));
    QVERIFY(!FigureExporter::formatOf(u"c.png.tmp"_s));
}

void TestFigureExporter::refusedOptions_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("named");
    QTest::newRow("colormap on curves") << u"curves"_s << u"colormap"_s << u"viridis"_s << u"colormap"_s;
    QTest::newRow("colormap on magnitudes") << u"magnitudes"_s << u"colormap"_s << u"viridis"_s << u"colormap"_s;
    QTest::newRow("font too small") << u"heatmap"_s << u"font-size"_s << u"3"_s << u"font-size"_s;
    QTest::newRow("font NaN") << u"heatmap"_s << u"font-size"_s << u"nan"_s << u"font-size"_s;
    QTest::newRow("positions past the end") << u"heatmap"_s << u"positions"_s << u"0:201"_s << u"positions"_s;
    QTest::newRow("positions empty") << u"dropout"_s << u"positions"_s << u"5:5"_s << u"positions"_s;
    QTest::newRow("column past the end") << u"curves"_s << u"dims"_s << u"0,64"_s << u"dims"_s;
    QTest::newRow("positions on magnitudes") << u"magnitudes"_s << u"positions"_s << u"0:10"_s << u"positions"_s;
    QTest::newRow("learned without its family") << u"learned"_s << QString() << QString() << u"encoding"_s;
    QTest::newRow("colormap on curves, which draws no map")
        << u"curves"_s << u"colormap"_s << u"viridis"_s << u"colormap"_s;
    // A record whose columns are each their own quantity is no map.
    QTest::newRow("quantity not offered") << u"heatmap"_s << u"quantity"_s << u"rope-frequencies"_s << u"quantity"_s;
    // Before: the engine refused it, exit 4 on the command line.
    QTest::newRow("quantity of another family") << u"heatmap"_s << u"quantity"_s << u"rope-cos"_s << u"quantity"_s;
}

void TestFigureExporter::refusedOptions()
{
    QFETCH(QString, figure);
    QFETCH(QString, key);
    QFETCH(QString, text);
    QFETCH(QString, named);
    // Every engine here has no loaded table. A refusal names its option or parameter as a key:
    // the command line adds the dashes.
    QList<ParamError> refused;
    if (key == u"font-size"_s) {
        FigureStyle style;
        style.fontPointSize = text.toDouble();
        if (const auto error = style.check())
            refused.append(*error);
    } else {
        FigureState state;
        if (!key.isEmpty())
            state.options.insert(key, text);
        refused = FigureRegistry::check(FigureBuilds::figure(figure), small(), state);
    }
    QVERIFY(!refused.isEmpty());
    QCOMPARE(refused.front().key, named);
    QVERIFY2(!refused.front().sentence().contains(u"--"_s), qPrintable(refused.front().sentence()));
}

void TestFigureExporter::overBudgetIsRefused()
{
    // A budget smaller than one row of the table: the figure is refused with cells and GiB.
    Params p = small();
    p.dModel = 4096;
    p.memoryBudget = 1024;
    QVERIFY(p.validate().isEmpty());
    const auto built = FigureBuilds::build(u"heatmap"_s, p, FigureSize::fromPixels(QSize(400, 300)));
    const auto &refused = built->error();
    QVERIFY(refused);
    QCOMPARE(refused->kind, FigureError::OverBudget);
    QVERIFY2(refused->message.contains(u"GiB"_s), qPrintable(refused->message));
}

POSENC_TEST_MAIN(TestFigureExporter)
} // namespace tst_figureexporter
#include "tst_figureexporter.moc"
