// The dropout figure says what it shows: Y's formula for the mode (embedding: dropout(s·E) + PE),
// masked-fill never Y = X, padding rows fixed and not counted as dropout, the binary mask named by
// a two-entry legend, an honest colour scale at p = 1, the parameters in the title, and subtitles
// that wrap rather than being cut.
#include "render/FigureExporter.h"
#include "render/figures/DropoutFigure.h"
#include "support/TestMain.h"

#include "support/FigureBuilds.h"

#include <QTest>

#include <cmath>

namespace tst_dropoutfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params params(DropoutMode mode, double p = 0.1, bool training = true)
{
    Params params;
    params.dModel = 64;
    params.maxLen = 120;
    params.dropout = p;
    params.dropoutMode = mode;
    params.training = training;
    return params;
}

std::unique_ptr<FigureBuild> build(const Params &params, QSize size = QSize(1100, 560))
{
    auto built = FigureBuilds::build(u"dropout"_s, params, FigureSize::fromPixels(size));
    if (built->error())
        qFatal("%s", qPrintable(FigureBuilds::errorOf(*built)));
    return built;
}

QList<QCPColorScale *> shownScales(QCustomPlot *plot)
{
    QList<QCPColorScale *> scales;
    for (QCPLayoutElement *e : plot->plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(e); scale && scale->realVisibility())
            scales.append(scale);
    return scales;
}

DropoutData computed(const Params &p, Block block, int pixels = 400)
{
    const Engine engine(p);
    const auto data = DropoutCompute::compute(engine, {block, pixels, pixels}, Detail::Full, {1, nullptr});
    if (!data)
        qFatal("not computed");
    return *data;
}

} // namespace

class TestDropoutFigure : public QObject
{
    Q_OBJECT

private slots:
    void outputIsNamedByItsMode_data();
    void outputIsNamedByItsMode();
    void titleNamesTheParameters();
    void paddingRowsAreFixed_data();
    void paddingRowsAreFixed();
    void dropFractionCountsCellsUnderDropout_data();
    void dropFractionCountsCellsUnderDropout();
    void binaryMaskHasATwoEntryLegend();
    void averagedMaskHasAColorbar();
    void fullProbabilityHasAnHonestScale();
    void subtitleWraps_data();
    void subtitleWraps();
};

void TestDropoutFigure::outputIsNamedByItsMode_data()
{
    QTest::addColumn<Params>("p");
    QTest::addColumn<QString>("label");
    QTest::newRow("sum") << params(DropoutMode::Sum) << u"Y = dropout(X)"_s;
    QTest::newRow("embedding") << params(DropoutMode::Embedding) << u"Y = dropout(s·E) + PE"_s;
    Params padded = params(DropoutMode::MaskedFill, 0.1, false);
    padded.seqLen = 50;
    QTest::newRow("masked-fill, evaluation") << padded << u"Y = X, padding rows zeroed"_s;
}

void TestDropoutFigure::outputIsNamedByItsMode()
{
    QFETCH(Params, p);
    QFETCH(QString, label);
    const auto built = build(p);
    const QList<QCPColorScale *> scales = shownScales(built->plot());
    QCOMPARE(scales.size(), 1); // Y's; the mask is named by its legend
    QCOMPARE(scales.first()->axis()->label(), label);
    QVERIFY2(FigureBuilds::texts(*built->plot()).first().contains(label), qPrintable(FigureBuilds::texts(*built->plot()).first()));
    // masked-fill with padding never claims Y = X alone.
    if (p.dropoutMode == DropoutMode::MaskedFill)
        for (const QString &text : FigureBuilds::texts(*built->plot()))
            QVERIFY2(!text.contains(u"Y = X  ·"_s) && !text.endsWith(u"Y = X"_s), qPrintable(text));
}

void TestDropoutFigure::titleNamesTheParameters()
{
    Params p = params(DropoutMode::ProtectSpecial, 0.25);
    p.dModel = 512;
    p.maxLen = 1024;
    const auto built = build(p);
    const QString title = FigureBuilds::texts(*built->plot()).first().replace(u'\n', u' ');
    for (const QString &part : {u"p = 0.25"_s, u"dropout mode protect-special"_s, u"d = 512"_s, u"L = 1,024"_s,
                                u"s = √d = 22.63"_s, u"σ = 1"_s})
        QVERIFY2(title.contains(part), qPrintable(title + u" lacks "_s + part));
}

void TestDropoutFigure::paddingRowsAreFixed_data()
{
    QTest::addColumn<bool>("training");
    QTest::newRow("training") << true;
    QTest::newRow("evaluation") << false;
}

// Padding rows of masked-fill are zeroed before any dice: the mask shows them as one fixed value
// (0, like the zero of Y there), never random keep/drop bits, in training and in evaluation.
void TestDropoutFigure::paddingRowsAreFixed()
{
    QFETCH(bool, training);
    Params p = params(DropoutMode::MaskedFill, 0.5, training);
    p.seqLen = 30;
    const DropoutData data = computed(p, {0, 48, 0, 40});
    QCOMPARE(data.mask.rows, 48);
    QCOMPARE(data.mask.cols, 40);
    for (int r = 30; r < 48; ++r)
        for (int c = 0; c < 40; ++c) {
            QCOMPARE(data.mask.at(r, c), 0.0f);
            QCOMPARE(data.output.at(r, c), 0.0f);
        }
    // The sequence rows: random bits in training, all kept in evaluation.
    int dropped = 0;
    for (int r = 0; r < 30; ++r)
        for (int c = 0; c < 40; ++c)
            dropped += data.mask.at(r, c) == 0.0f ? 1 : 0;
    if (training)
        QVERIFY2(dropped > 450 && dropped < 750, qPrintable(QString::number(dropped))); // 600 +- 6 sigma
    else
        QCOMPARE(dropped, 0);
}

void TestDropoutFigure::dropFractionCountsCellsUnderDropout_data()
{
    QTest::addColumn<Params>("p");
    QTest::addColumn<std::int64_t>("cells");
    Params sum = params(DropoutMode::Sum, 0.3);
    sum.maxLen = 800;
    QTest::newRow("sum: every cell") << sum << std::int64_t(800 * 64);
    Params masked = sum;
    masked.dropoutMode = DropoutMode::MaskedFill;
    masked.seqLen = 300;
    QTest::newRow("masked-fill: the sequence's rows") << masked << std::int64_t(300 * 64);
    Params special = sum;
    special.dropoutMode = DropoutMode::ProtectSpecial;
    special.special = {0, 5, -1};
    QTest::newRow("protect-special: all but 3 rows") << special << std::int64_t(797 * 64);
    Params evaluation = sum;
    evaluation.training = false;
    QTest::newRow("evaluation: none") << evaluation << std::int64_t(0);
}

// The drop fraction is that of the cells whose fate dropout decides, and says how many.
void TestDropoutFigure::dropFractionCountsCellsUnderDropout()
{
    QFETCH(Params, p);
    QFETCH(std::int64_t, cells);
    const DropoutData data = computed(p, {0, 48, 0, 48});
    QCOMPARE(data.count.cells, cells);
    if (cells > 0) {
        const double tolerance = 5.0 * std::sqrt(p.dropout * (1.0 - p.dropout) / double(cells));
        QVERIFY2(std::abs(data.count.fraction() - p.dropout) <= tolerance,
                 qPrintable(QString::number(data.count.fraction())));
    }
    const QString summary = DropoutCompute::summary(data);
    if (p.training)
        QVERIFY2(summary.contains(u"of %1 cells under dropout"_s.arg(QLocale(QLocale::English).toString(cells))),
                 qPrintable(summary));
    if (p.dropoutMode == DropoutMode::MaskedFill)
        QVERIFY2(summary.contains(u"padding rows 300–799 (positions ≥ seq_len 300) zeroed by masked_fill"_s),
                 qPrintable(summary));
    if (p.dropoutMode == DropoutMode::ProtectSpecial)
        QVERIFY2(summary.contains(u"special rows 0, 5, 799 passed through whole"_s), qPrintable(summary));
}

// Cell by cell the mask is 1 or 0: a legend names the two, where a colorbar would suggest values
// between; masked-fill's hatched padding gets a third entry.
void TestDropoutFigure::binaryMaskHasATwoEntryLegend()
{
    Params p = params(DropoutMode::Sum);
    p.maxLen = 40;
    auto built = build(p);
    QCPLegend *legend = nullptr;
    for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true))
        if (auto *l = qobject_cast<QCPLegend *>(e); l && l->realVisibility())
            legend = l;
    QVERIFY(legend);
    QCOMPARE(legend->itemCount(), 2);
    QCOMPARE(HeatmapStyle::forQuantity(Quantity::Mask, computed(p, {0, 40, 0, 48}).mask).swatches().size(), 2);
    QCOMPARE(HeatmapStyle::forQuantity(Quantity::Mask, computed(p, {0, 40, 0, 48}).mask).categories,
             (QList<std::pair<double, QString>> {{1.0, u"kept"_s}, {0.0, u"dropped"_s}}));
    p.dropoutMode = DropoutMode::MaskedFill;
    p.seqLen = 30;
    built = build(p);
    legend = nullptr;
    for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true))
        if (auto *l = qobject_cast<QCPLegend *>(e); l && l->realVisibility())
            legend = l;
    QVERIFY(legend);
    QCOMPARE(legend->itemCount(), 3);
}

void TestDropoutFigure::averagedMaskHasAColorbar()
{
    // 2,000 positions on a few hundred pixels: each pixel the kept fraction of its cells.
    Params p = params(DropoutMode::Sum);
    p.maxLen = 2000;
    const DropoutData data = computed(p, {0, 2000, 0, 64}, 200);
    const HeatmapStyle style = HeatmapStyle::forQuantity(Quantity::Mask, data.mask);
    QVERIFY(style.categories.isEmpty());
    QCOMPARE(style.colorbarLabel, u"mask: kept fraction"_s);
}

// At p = 1 Y is all zero: the colorbar reads +-1 and says so, not +-1e-12.
void TestDropoutFigure::fullProbabilityHasAnHonestScale()
{
    const auto built = build(params(DropoutMode::Sum, 1.0));
    const QList<QCPColorScale *> scales = shownScales(built->plot());
    QCOMPARE(scales.size(), 1);
    QCOMPARE(scales.first()->dataRange(), QCPRange(-1.0, 1.0));
    QVERIFY2(scales.first()->axis()->label().endsWith(u"(all 0)"_s), qPrintable(scales.first()->axis()->label()));
    HeatmapGrid zero;
    zero.rows = zero.cols = 1;
    zero.values = {0.0f};
    QCOMPARE(HeatmapStyle::forQuantity(Quantity::Output, zero).dataRange, QCPRange(-1.0, 1.0));
}

void TestDropoutFigure::subtitleWraps_data()
{
    QTest::addColumn<Params>("p");
    QTest::newRow("embedding") << params(DropoutMode::Embedding);
    QTest::newRow("p = 1") << params(DropoutMode::Sum, 1.0);
    Params padded = params(DropoutMode::MaskedFill);
    padded.seqLen = 30;
    QTest::newRow("masked-fill") << padded;
}

// No text is wider than the figure, in an export as narrow as a slide's half.
void TestDropoutFigure::subtitleWraps()
{
    QFETCH(Params, p);
    const QSize size(640, 520);
    const auto built = build(p, size);
    for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true)) {
        auto *text = qobject_cast<QCPTextElement *>(e);
        if (!text)
            continue;
        const QFontMetricsF metrics(text->font());
        for (const QString &line : text->text().split(u'\n'))
            QVERIFY2(metrics.horizontalAdvance(line) <= size.width(), qPrintable(line));
    }
    const QImage image = FigureExporter::image(built->plot(), FigureSize::fromPixels(size));
    QCOMPARE(image.size(), size);
}

POSENC_TEST_MAIN(TestDropoutFigure)
} // namespace tst_dropoutfigure
#include "tst_dropoutfigure.moc"
