// The exporter (DESIGN.md sections 3 and 5): every figure in every format gives a file that
// reads back at the size asked for, text keeps its point size at any dpi, the data is computed
// at the resolution of the output, and every text is drawn in the pinned font.
#include "render/FigureExporter.h"
#include "render/FigureRenderer.h"
#include "render/PinnedFont.h"

#include "support/TestFiles.h"

#include <QBuffer>
#include <QFontInfo>
#include <QImageReader>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>

using namespace Qt::StringLiterals;
using namespace TestFiles;
using namespace posenc;

Q_DECLARE_METATYPE(posenc::FigureKind)
Q_DECLARE_METATYPE(posenc::FigureFormat)

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

// The engine a figure is drawn from: the learned figure needs a loaded table.
Engine engineFor(FigureKind kind)
{
    Params p = small();
    if (kind == FigureKind::Learned)
        p.embeddings = learnedTable(p.maxLen, p.dModel);
    return Engine(p);
}

// The text every figure of a kind shows on an axis.
QString axisLabel(FigureKind kind)
{
    return kind == FigureKind::Magnitudes ? u"norm of row p"_s
        : kind == FigureKind::Curves      ? u"PE[p, j]"_s
                                          : u"position p"_s;
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
    void printsDrawEveryPointOfACurve();
    void formatFromExtension();
    void refusedOptions_data();
    void refusedOptions();
    void overBudgetIsRefused();
};

void TestFigureExporter::everyFigureInEveryFormat_data()
{
    QTest::addColumn<FigureKind>("kind");
    QTest::addColumn<FigureFormat>("format");
    for (const QString &name : FigureKinds::names()) {
        const FigureKind kind = *FigureKinds::fromName(name);
        QTest::newRow(qPrintable(name + u" png"_s)) << kind << FigureFormat::Png;
        QTest::newRow(qPrintable(name + u" svg"_s)) << kind << FigureFormat::Svg;
        QTest::newRow(qPrintable(name + u" pdf"_s)) << kind << FigureFormat::Pdf;
    }
}

void TestFigureExporter::everyFigureInEveryFormat()
{
    QFETCH(FigureKind, kind);
    QFETCH(FigureFormat, format);
    const Engine engine = engineFor(kind);
    FigureOptions options;
    options.kind = kind;
    const FigureSize size = FigureSize::fromPixels(QSize(640, 420));
    QCustomPlot plot;
    QVERIFY(!FigureRenderer::check(engine, options));
    QVERIFY(!FigureRenderer::build(&plot, engine, options, size));
    QByteArray bytes = FigureExporter::encode(&plot, size, format, u"a figure"_s);
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
        QVERIFY2(svg->second.contains(axisLabel(kind)), qPrintable(svg->second));
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
    const Engine engine(small());
    QCustomPlot plot;
    QVERIFY(!FigureRenderer::build(&plot, engine, {}, size));
    QCOMPARE(FigureExporter::image(&plot, size).size(), size.pixels());
    QCOMPARE(qRound(FigureExporter::image(&plot, size).dotsPerMeterX() * 0.0254), 300);
    const auto box = mediaBox(FigureExporter::pdf(&plot, size, QString()));
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
    const Engine engine(small());
    FigureOptions options;
    options.title = u"Hp"_s;
    for (const double dpi : {150.0, 300.0}) {
        const FigureSize size = FigureSize::fromInches(QSizeF(8.5 / 2.54, 6.0 / 2.54), dpi);
        QCustomPlot plot;
        QVERIFY(!FigureRenderer::build(&plot, engine, options, size));
        const QImage image = FigureExporter::image(&plot, size).convertToFormat(QImage::Format_RGB32);
        auto *title = qobject_cast<QCPTextElement *>(plot.plotLayout()->element(0, 0));
        QVERIFY(title);
        const int bottom = qRound(title->outerRect().bottom() * size.scale);
        QRect dark;
        for (int y = 0; y < bottom; ++y)
            for (int x = 0; x < image.width(); ++x)
                if (qGray(image.pixel(x, y)) < 128)
                    dark |= QRect(x, y, 1, 1);
        const double expected = (0.729 + 0.236) * 9.5 / 72.0 * dpi;
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
    const Engine engine(p);
    const FigureSize size = FigureSize::fromInches(QSizeF(4, 3), 300.0);
    QCustomPlot plot;
    QVERIFY(!FigureRenderer::build(&plot, engine, {}, size));
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
    const Engine engine(small());
    FigureOptions options;
    options.fontPointSize = 13.5; // 1.5 x the 9 pt labels
    options.title = u"Figure 2: positional encoding"_s;
    options.colormap = Colormap::Viridis;
    QCustomPlot plot;
    QVERIFY(!FigureRenderer::build(&plot, engine, options, FigureSize::fromPixels(QSize(600, 400))));
    QCPAxis *bottom = plot.axisRects().constFirst()->axis(QCPAxis::atBottom);
    QCOMPARE(bottom->labelFont().pointSizeF(), 13.5);
    QCOMPARE(bottom->tickLabelFont().pointSizeF(), 8.5 * 1.5);
    auto *title = qobject_cast<QCPTextElement *>(plot.plotLayout()->element(0, 0));
    QVERIFY(title);
    QCOMPARE(title->text(), *options.title);
    QCOMPARE(title->font().pointSizeF(), 9.5 * 1.5);
    QCPColorScale *scale = nullptr;
    for (QCPLayoutElement *e : plot.plotLayout()->elements(true))
        scale = scale ? scale : qobject_cast<QCPColorScale *>(e);
    QVERIFY(scale);
    QVERIFY(scale->gradient() == Colormaps::gradient(Colormap::Viridis));
    QCOMPARE(scale->axis()->labelFont().pointSizeF(), 13.5);

    // Dropout: both panels take the map.
    options.kind = FigureKind::Dropout;
    QCustomPlot dropout;
    QVERIFY(!FigureRenderer::build(&dropout, engine, options, FigureSize::fromPixels(QSize(800, 400))));
    int viridis = 0;
    for (QCPLayoutElement *e : dropout.plotLayout()->elements(true))
        if (auto *s = qobject_cast<QCPColorScale *>(e))
            viridis += s->gradient() == Colormaps::gradient(Colormap::Viridis) ? 1 : 0;
    QCOMPARE(viridis, 2);
}

void TestFigureExporter::everyTextInThePinnedFont()
{
    QCOMPARE(PinnedFont::family(), u"DejaVu Sans"_s);
    for (const QString &name : FigureKinds::names()) {
        FigureOptions options;
        options.kind = *FigureKinds::fromName(name);
        const Engine engine = engineFor(options.kind);
        QCustomPlot plot;
        QVERIFY(!FigureRenderer::build(&plot, engine, options, FigureSize::fromPixels(QSize(700, 500))));
        const std::vector<QFont> fonts = allFonts(plot);
        QVERIFY(fonts.size() >= 5);
        for (const QFont &font : fonts) {
            QVERIFY2(font.family() == u"DejaVu Sans"_s, qPrintable(name + u": "_s + font.family()));
            // The family is really there, not substituted.
            QCOMPARE(QFontInfo(font).family(), u"DejaVu Sans"_s);
        }
    }
}

void TestFigureExporter::printsDrawEveryPointOfACurve()
{
    // QCustomPlot's adaptive sampling keeps a few points per layout unit: steps at 300 dpi.
    // On screen (scale 1) the graphs keep it, as the window has it.
    const Engine engine(small());
    FigureOptions options;
    options.kind = FigureKind::Curves;
    for (const auto &[size, sampled] : {std::pair {FigureSize::fromInches(QSizeF(4, 3), 300.0), false},
                                        std::pair {FigureSize::fromPixels(QSize(600, 400)), true}}) {
        QCustomPlot plot;
        QVERIFY(!FigureRenderer::build(&plot, engine, options, size));
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
    QTest::addColumn<FigureKind>("kind");
    QTest::addColumn<int>("quantity");
    QTest::addColumn<bool>("colormap");
    QTest::addColumn<double>("fontSize");
    QTest::addColumn<qint64>("first");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<qint64>("column");
    QTest::addColumn<QString>("named");
    const int pe = int(Quantity::Pe);
    QTest::newRow("colormap on curves") << FigureKind::Curves << pe << true << 9.0 << -1ll << -1ll << -1ll
                                        << u"--colormap"_s;
    QTest::newRow("colormap on magnitudes")
        << FigureKind::Magnitudes << pe << true << 9.0 << -1ll << -1ll << -1ll << u"--colormap"_s;
    QTest::newRow("font too small") << FigureKind::Heatmap << pe << false << 3.0 << -1ll << -1ll << -1ll
                                    << u"--font-size"_s;
    QTest::newRow("font NaN") << FigureKind::Heatmap << pe << false << qQNaN() << -1ll << -1ll << -1ll
                              << u"--font-size"_s;
    QTest::newRow("positions past the end")
        << FigureKind::Heatmap << pe << false << 9.0 << 0ll << 201ll << -1ll << u"--positions"_s;
    QTest::newRow("positions empty") << FigureKind::Dropout << pe << false << 9.0 << 5ll << 5ll << -1ll
                                     << u"--positions"_s;
    QTest::newRow("column past the end") << FigureKind::Curves << pe << false << 9.0 << -1ll << -1ll << 64ll
                                         << u"--dims"_s;
    QTest::newRow("positions on magnitudes")
        << FigureKind::Magnitudes << pe << false << 9.0 << 0ll << 10ll << -1ll << u"--positions"_s;
    QTest::newRow("learned without a table")
        << FigureKind::Learned << pe << false << 9.0 << -1ll << -1ll << -1ll << u"--embeddings"_s;
    QTest::newRow("colormap on learned") << FigureKind::Learned << pe << true << 9.0 << -1ll << -1ll << -1ll
                                         << u"--colormap"_s;
}

void TestFigureExporter::refusedOptions()
{
    QFETCH(FigureKind, kind);
    QFETCH(int, quantity);
    QFETCH(bool, colormap);
    QFETCH(double, fontSize);
    QFETCH(qint64, first);
    QFETCH(qint64, end);
    QFETCH(qint64, column);
    QFETCH(QString, named);
    FigureOptions options; // every engine here has no loaded table
    options.kind = kind;
    options.quantity = Quantity(quantity);
    if (colormap)
        options.colormap = Colormap::Viridis;
    options.fontPointSize = fontSize;
    if (first >= 0)
        options.positions = std::pair {std::int64_t(first), std::int64_t(end)};
    if (column >= 0)
        options.columns = {0, column};
    const auto refused = FigureRenderer::check(Engine(small()), options);
    QVERIFY(refused);
    QVERIFY2(refused->contains(named), qPrintable(*refused));
}

void TestFigureExporter::overBudgetIsRefused()
{
    // A budget smaller than one row of the table: the figure is refused with cells and GiB.
    Params p = small();
    p.dModel = 4096;
    p.memoryBudget = 1024;
    QVERIFY(p.validate().isEmpty());
    const Engine engine(p);
    QCustomPlot plot;
    const auto refused = FigureRenderer::build(&plot, engine, {}, FigureSize::fromPixels(QSize(400, 300)));
    QVERIFY(refused);
    QCOMPARE(refused->kind, FigureError::OverBudget);
    QVERIFY2(refused->message.contains(u"GiB"_s), qPrintable(refused->message));
}

QTEST_MAIN(TestFigureExporter)
#include "tst_figureexporter.moc"
