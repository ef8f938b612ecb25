// The dropout modes compared: Y under sum, embedding, protect-special and masked-fill from the same
// X and mask, and the PE's part of each, against float64 references written here from the
// definitions (docs/ARCHITECTURE.md, The mathematics): embedding mode's dropped cells hold their PE,
// sum's are 0, protect-special's rows are X exactly, masked-fill's padding is 0 in training and
// evaluation; the PE counts against sums of sin^2 and cos^2; the panels' titles, shared colour
// scales and token roles.
#include "render/FigureExporter.h"
#include "render/data/DropoutCompareModel.h"
#include "render/figures/DropoutCompareFigure.h"
#include "support/TestMain.h"

#include "../core/Reference.h"
#include "support/FigureBuilds.h"

#include <QTest>

#include <algorithm>
#include <cmath>

namespace tst_dropoutcomparefigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

constexpr std::size_t kSum = 0, kEmbedding = 1, kPe = 2, kProtect = 3, kMaskedFill = 4;

Params small(double p = 0.3, Layout layout = Layout::Interleaved)
{
    Params params;
    params.dModel = 24;
    params.maxLen = 40;
    params.dropout = p;
    params.sinusoidal.layout = layout;
    params.seqLen = 30;
    params.special = {0, 4, -1};
    params.seed = 77;
    return params;
}

// The whole table in view, one cell a pixel.
DropoutCompareData compare(const Params &params)
{
    const Engine engine(params);
    HeatmapRequest visible;
    visible.block = {0, params.maxLen, 0, params.dModel};
    visible.pixelRows = visible.pixelCols = 400;
    const auto data = DropoutCompareCompute::compute(engine, visible, Detail::Full, {1, nullptr});
    if (!data)
        qFatal("not computed");
    return *data;
}

double pe(const Params &p, std::int64_t r, std::int64_t c)
{
    return reference::exactValue(r, c, p.dModel, p.sinusoidal.base, p.sinusoidal.layout);
}

bool near(double got, double expected, double tolerance)
{
    return std::abs(got - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

QString cell(const char *what, std::int64_t r, std::int64_t c, double expected, double got)
{
    return u"%1 at (%2, %3): expected %4, got %5"_s.arg(QString::fromLatin1(what)).arg(r).arg(c).arg(expected).arg(got);
}

} // namespace

class TestDropoutCompareFigure : public QObject
{
    Q_OBJECT

private slots:
    void modesAgainstReferences_data();
    void modesAgainstReferences();
    void maskedFillPaddingIsZeroInEvaluation();
    void peCountsAgainstReferences();
    void percentagesAtOnePrecision();
    void realisticSettingsShowWhatEachModeLoses();
    void concatViewWithoutPeSaysSo();
    void figureIsLabelledAndSharesScales();
    void unsetSequenceShowsPadding();
    void smallViewKeepsRoomForTheHeatmaps();
    void smallTableShowsWholeAndCountsItsSequence();
    void exportsForASlide();
    void aSlidesColourBarsAreTickedBothSides();
    void aSlidesPanelsNumberTheSameColumns_data();
    void aSlidesPanelsNumberTheSameColumns();
};

void TestDropoutCompareFigure::modesAgainstReferences_data()
{
    QTest::addColumn<Params>("p");
    QTest::newRow("interleaved, p 0.3") << small();
    QTest::newRow("split, p 0.5") << small(0.5, Layout::Split);
    Params scaled = small(0.2);
    scaled.scaleKind = ScaleKind::Sqrt;
    scaled.init = InitKind::Custom;
    scaled.customSigma = 0.7;
    QTest::newRow("s sqrt(d), sigma 0.7") << scaled;
}

void TestDropoutCompareFigure::modesAgainstReferences()
{
    QFETCH(Params, p);
    const DropoutCompareData data = compare(p);
    const Engine engine(p);
    const DropoutMask &mask = engine.dropoutMask();
    RowMatrixXf sE(p.maxLen, p.dModel);
    engine.computeBlock(Quantity::Embedding, {0, p.maxLen, 0, p.dModel}, sE);
    const double keep = 1.0 - p.dropout;
    for (const auto &panel : data.modes) {
        QCOMPARE(panel.output.rows, int(p.maxLen));
        QCOMPARE(panel.output.cols, int(p.dModel));
        QCOMPARE(panel.pePart.rows, int(p.maxLen));
    }
    for (std::int64_t r = 0; r < p.maxLen; ++r) {
        const bool special = r == 0 || r == 4 || r == 29;
        const bool padding = r >= 30;
        for (std::int64_t c = 0; c < p.dModel; ++c) {
            const bool kept = mask.kept(r, c);
            const double q = pe(p, r, c), e = sE(r, c), x = e + q;
            const auto y = [&](std::size_t m) { return double(data.modes[m].output.at(int(r), int(c))); };
            const auto part = [&](std::size_t m) { return double(data.modes[m].pePart.at(int(r), int(c))); };
            // sum: dropped cells 0, kept cells X / (1 - p); its PE part PE / (1 - p) or 0.
            QVERIFY2(kept ? near(y(kSum), x / keep, 1e-5) : y(kSum) == 0.0,
                     qPrintable(cell("sum Y", r, c, x, y(kSum))));
            QVERIFY2(kept ? near(part(kSum), q / keep, 1e-5) : part(kSum) == 0.0,
                     qPrintable(cell("sum PE part", r, c, q / keep, part(kSum))));
            // embedding: every dropped cell of Y equals its PE; the PE part is the PE everywhere.
            const double embedding = kept ? e / keep + q : q;
            QVERIFY2(near(y(kEmbedding), embedding, 1e-5),
                     qPrintable(cell("embedding Y", r, c, embedding, y(kEmbedding))));
            if (!kept)
                QVERIFY2(std::abs(y(kEmbedding) - q) <= 1e-6,
                         qPrintable(cell("embedding dropped Y", r, c, q, y(kEmbedding))));
            QVERIFY2(std::abs(part(kEmbedding) - q) <= 1e-6,
                     qPrintable(cell("embedding PE part", r, c, q, part(kEmbedding))));
            // pe: Y = s·E + M ⊙ PE / (1 − p), every dropped cell s·E; the PE part is sum's.
            const double positional = kept ? e + q / keep : e;
            QVERIFY2(near(y(kPe), positional, 1e-5), qPrintable(cell("pe Y", r, c, positional, y(kPe))));
            if (!kept)
                QVERIFY2(y(kPe) == e, qPrintable(cell("pe dropped Y", r, c, e, y(kPe))));
            QVERIFY2(kept ? near(part(kPe), q / keep, 1e-5) : part(kPe) == 0.0,
                     qPrintable(cell("pe PE part", r, c, q / keep, part(kPe))));
            // protect-special: special rows are X exactly (as the engine forms it), neither dropped nor scaled.
            if (special) {
                RowMatrixXf xCell(1, 1);
                engine.computeBlock(Quantity::Input, {r, 1, c, 1}, xCell);
                QVERIFY2(data.modes[kProtect].output.at(int(r), int(c)) == xCell(0, 0),
                         qPrintable(cell("protected Y", r, c, xCell(0, 0), y(kProtect))));
                QVERIFY2(near(xCell(0, 0), x, 1e-5), qPrintable(cell("X", r, c, x, xCell(0, 0))));
                QVERIFY2(std::abs(part(kProtect) - q) <= 1e-6,
                         qPrintable(cell("protected PE part", r, c, q, part(kProtect))));
            } else {
                QVERIFY2(data.modes[kProtect].output.at(int(r), int(c)) == data.modes[kSum].output.at(int(r), int(c)),
                         qPrintable(cell("protect-special off its rows", r, c, y(kSum), y(kProtect))));
            }
            // masked-fill: padding rows are 0, and so is their PE part; the sequence as sum.
            if (padding) {
                QVERIFY2(y(kMaskedFill) == 0.0 && part(kMaskedFill) == 0.0,
                         qPrintable(cell("masked-fill padding", r, c, 0.0, y(kMaskedFill))));
            } else {
                QVERIFY2(data.modes[kMaskedFill].output.at(int(r), int(c))
                             == data.modes[kSum].output.at(int(r), int(c)),
                         qPrintable(cell("masked-fill sequence", r, c, y(kSum), y(kMaskedFill))));
                // [CLS] and [SEP] are dropped like any row: masked_fill protects nothing.
            }
        }
    }
    // The pe mode's PE part is sum's, its dropped cells marked as having no value (grey), as sum's
    // are: they were drawn as the 0 that s·E = 0 leaves, white.
    QVERIFY(!data.modes[kSum].pePart.marks.empty());
    QVERIFY(data.modes[kPe].pePart.marks == data.modes[kSum].pePart.marks);
}

void TestDropoutCompareFigure::maskedFillPaddingIsZeroInEvaluation()
{
    Params p = small();
    p.training = false;
    const DropoutCompareData data = compare(p);
    for (std::int64_t r = 0; r < p.maxLen; ++r)
        for (std::int64_t c = 0; c < p.dModel; ++c) {
            const float y = data.modes[kMaskedFill].output.at(int(r), int(c));
            if (r >= 30)
                QVERIFY2(y == 0.0f, qPrintable(cell("padding Y in evaluation", r, c, 0.0, y)));
            else
                QCOMPARE(y, data.modes[kSum].output.at(int(r), int(c))); // Y = X
        }
    QCOMPARE(DropoutCompareCompute::modeTitle(data.modes[kMaskedFill]), u"masked-fill\nY = masked_fill(X)"_s);
    QCOMPARE(DropoutCompareCompute::modeTitle(data.modes[kSum]), u"sum\nY = X"_s);
}

// The percentages lost and kept at one precision in every text (a slide's "lost: 10 %" and the
// window's "PE lost: 156 of 1,536 cells, 10 %"): two significant digits, the whole percent from 10
// up; 100 % whole, which two digits in compact form wrote "1e2".
void TestDropoutCompareFigure::percentagesAtOnePrecision()
{
    QCOMPARE(DropoutCompareCompute::percentText(1.0), u"100"_s);
    QCOMPARE(DropoutCompareCompute::percentText(0.102), u"10"_s);
    QCOMPARE(DropoutCompareCompute::percentText(0.897), u"90"_s);
    QCOMPARE(DropoutCompareCompute::percentText(0.0938), u"9.4"_s);
    QCOMPARE(DropoutCompareCompute::percentText(0.0), u"0"_s);
}

// PE lost and the PE energy in kept cells, over the sequence's cells in view (the padding, rows
// 30 to 39, left out), against the kept bits and float64 sin/cos.
void TestDropoutCompareFigure::peCountsAgainstReferences()
{
    const Params p = small(0.3);
    const DropoutCompareData data = compare(p);
    const DropoutMask mask(p);
    std::array<std::int64_t, kDropoutModeCount> lost {};
    std::array<double, kDropoutModeCount> kept {};
    double energy = 0.0;
    for (std::int64_t r = 0; r < 30; ++r) {
        const bool special = r == 0 || r == 4 || r == 29;
        for (std::int64_t c = 0; c < p.dModel; ++c) {
            const double q2 = pe(p, r, c) * pe(p, r, c);
            energy += q2;
            const bool bit = mask.kept(r, c);
            const std::array<bool, kDropoutModeCount> reaches {bit, true, bit, bit || special, bit && r < 30};
            for (std::size_t m = 0; m < kDropoutModeCount; ++m) {
                lost[m] += reaches[m] ? 0 : 1;
                kept[m] += reaches[m] ? q2 : 0.0;
            }
        }
    }
    QVERIFY(data.everyRow);
    QVERIFY(data.paddingInView);
    for (std::size_t m = 0; m < kDropoutModeCount; ++m) {
        const DropoutModePanel &panel = data.modes[m];
        QCOMPARE(panel.peCells, 30 * p.dModel);
        QCOMPARE(panel.peCellsLost, lost[m]);
        QVERIFY2(near(panel.peEnergy, energy, 1e-6), qPrintable(QString::number(panel.peEnergy)));
        QVERIFY2(near(panel.energyKeptFraction(), kept[m] / energy, 1e-6),
                 qPrintable(QString::number(panel.energyKeptFraction())));
    }
    QCOMPARE(data.modes[kEmbedding].peCellsLost, std::int64_t(0));
    // On the sequence's rows masked-fill is dropout(X): it protects nothing that sum drops.
    QCOMPARE(data.modes[kMaskedFill].peCellsLost, data.modes[kSum].peCellsLost);
    QCOMPARE(data.modes[kPe].peCellsLost, data.modes[kSum].peCellsLost);
    QVERIFY(data.modes[kProtect].peCellsLost < data.modes[kSum].peCellsLost);
}

// d 512, sigma 1, s sqrt(d): Y looks alike under sum and embedding, but sum loses the PE of a
// fraction p of the cells and embedding none.
void TestDropoutCompareFigure::realisticSettingsShowWhatEachModeLoses()
{
    Params p;
    p.dModel = 512;
    p.maxLen = 64;
    p.dropout = 0.1;
    const DropoutCompareData data = compare(p);
    // seq_len unset: the figure shows a sequence of 16 and counts its rows.
    const std::int64_t n = 16 * 512;
    const double sigma = std::sqrt(0.1 * 0.9 / double(n));
    QCOMPARE(data.modes[kSum].peCells, n);
    QVERIFY2(std::abs(data.modes[kSum].lostFraction() - 0.1) <= 4.0 * sigma,
             qPrintable(QString::number(data.modes[kSum].lostFraction())));
    QVERIFY2(std::abs(data.modes[kSum].energyKeptFraction() - 0.9) <= 0.01,
             qPrintable(QString::number(data.modes[kSum].energyKeptFraction())));
    QCOMPARE(data.modes[kEmbedding].lostFraction(), 0.0);
    QCOMPARE(data.modes[kEmbedding].energyKeptFraction(), 1.0);
    QVERIFY2(DropoutCompareCompute::peText(data.modes[kEmbedding]).contains(u"PE lost: 0 of 8,192 cells, 0\u00a0%"_s),
             qPrintable(DropoutCompareCompute::peText(data.modes[kEmbedding])));
}

// Under concat the PE is in the last pe-dims columns: a view of the s·E columns has no PE cell
// to lose, and its caption says so instead of "0 of 0 cells"; so does a view of padding only.
void TestDropoutCompareFigure::concatViewWithoutPeSaysSo()
{
    Params p = small(0.3);
    p.compose = Compose::Concat;
    p.peDims = p.dModel / 2;
    const Engine engine(p);
    HeatmapRequest visible;
    visible.pixelRows = visible.pixelCols = 400;
    visible.block = {0, p.maxLen, 0, p.dModel / 2};
    const auto embeddingOnly = DropoutCompareCompute::compute(engine, visible, Detail::Full, {1, nullptr});
    QVERIFY(embeddingOnly);
    for (const DropoutModePanel &panel : embeddingOnly->modes) {
        QCOMPARE(panel.peCells, std::int64_t(0));
        QCOMPARE(DropoutCompareCompute::peText(panel), u"its PE part\nno PE column in view"_s);
        QCOMPARE(DropoutCompareCompute::peText(panel, true), u"no PE column in view"_s);
    }
    visible.block = {0, p.maxLen, 0, p.dModel};
    const auto whole = DropoutCompareCompute::compute(engine, visible, Detail::Full, {1, nullptr});
    QVERIFY(whole);
    // The PE columns of the sequence's 30 rows.
    QCOMPARE(whole->modes[kSum].peCells, 30 * (p.dModel / 2));
    QVERIFY(DropoutCompareCompute::peText(whole->modes[kSum], true).startsWith(u"PE lost: "_s));
    // A view of the padding alone has nothing to count, and says why.
    visible.block = {30, p.maxLen - 30, 0, p.dModel};
    const auto padding = DropoutCompareCompute::compute(engine, visible, Detail::Full, {1, nullptr});
    QVERIFY(padding);
    for (const DropoutModePanel &panel : padding->modes) {
        QCOMPARE(panel.peCells, std::int64_t(0));
        QCOMPARE(DropoutCompareCompute::peText(panel), u"its PE part\nonly padding in view"_s);
    }
}

void TestDropoutCompareFigure::figureIsLabelledAndSharesScales()
{
    const FigureDescriptor &descriptor = FigureBuilds::figure(u"dropout-compare"_s);
    QCOMPARE(descriptor.model().inputs({}), QList<Quantity> {Quantity::Output});
    Params p;
    p.seqLen = 16; // d 512, L 1024, s sqrt(d), sigma 1: the lecturer's settings
    // Five modes side by side, each column wide enough (kNamedColumn) for the token roles' names.
    const auto built = FigureBuilds::build(u"dropout-compare"_s, p, FigureSize::fromPixels(QSize(1600, 860)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QStringList texts = FigureBuilds::texts(*built->plot());
    const QString all = texts.join(u"\n"_s);
    for (const QString &part :
         {u"sum\nY = dropout(X)"_s, u"embedding\nY = dropout(s·E) + PE"_s, u"pe\nY = dropout(PE) + s·E"_s,
          u"protect-special\n"_s, u"masked-fill\nY = dropout(masked_fill(X))"_s, u"p = 0.1, seed 0"_s,
          u"d = 512, L = 1,024"_s, u"s = √d = 22.63"_s, u"σ = 1"_s,
          u"[CLS] at 0, [SEP] at 15, padding 16–1,023 (hatched, seq_len 16)"_s})
        QVERIFY2(all.contains(part), qPrintable(part));
    const QString flat = QString(all).replace(u'\n', u' ');
    for (const QString &part :
         {u"under sum a dropped cell loses its PE, under embedding never, under pe as under sum"_s,
          u"masked-fill zeroes the padding and drops [CLS] and [SEP] like any row, protect-special "
          "keeps them whole"_s})
        QVERIFY2(flat.contains(part), qPrintable(part));
    // Five Y maps on one scale, five PE parts on another; the default view reaches 4 padding rows.
    QList<QCPColorMap *> maps;
    for (int i = 0; i < built->plot()->plottableCount(); ++i)
        if (auto *map = qobject_cast<QCPColorMap *>(built->plot()->plottable(i)))
            maps.append(map);
    QCOMPARE(maps.size(), 2 * int(kDropoutModeCount));
    QSet<QCPColorScale *> scales;
    for (QCPColorMap *map : maps) {
        scales.insert(map->colorScale());
        QCOMPARE(map->keyAxis()->range(), QCPRange(-0.5, 23.5));
        QCOMPARE(map->valueAxis()->range(), QCPRange(-0.5, 19.5));
    }
    QCOMPARE(scales.size(), 2);
    for (QCPColorScale *scale : scales) {
        QVERIFY(scale->dataRange().lower == -scale->dataRange().upper);
        QVERIFY(scale->dataRange().upper > 0.9);
    }
    // Token roles named on the panels' right axes, the padding rows hatched in each panel.
    const QCPAxis *names = maps.first()->keyAxis()->axisRect()->axis(QCPAxis::atRight);
    QVERIFY(names->visible());
    QVERIFY(names->tickVectorLabels().contains(u"[CLS]"_s));
    QVERIFY(names->tickVectorLabels().contains(u"[SEP]"_s));
    int hatched = 0;
    for (int i = 0; i < built->plot()->itemCount(); ++i)
        if (auto *rect = qobject_cast<QCPItemRect *>(built->plot()->item(i)))
            hatched += rect->brush().style() == Qt::BDiagPattern ? 1 : 0;
    QCOMPARE(hatched, 2 * int(kDropoutModeCount));
}

// With seq_len unset the sequence would fill the table and masked-fill would show no padding: the
// figure pads a sequence of 16 and says so; a seq_len given is kept.
void TestDropoutCompareFigure::unsetSequenceShowsPadding()
{
    Params p;
    p.dModel = 32;
    p.maxLen = 64;
    const DropoutCompareData data = compare(p);
    QVERIFY(data.choseSequence);
    QCOMPARE(data.params.sequenceLength(), std::int64_t(16));
    for (std::int64_t r = 0; r < p.maxLen; ++r)
        for (std::int64_t c = 0; c < p.dModel; ++c) {
            const float y = data.modes[kMaskedFill].output.at(int(r), int(c));
            if (r >= 16)
                QVERIFY2(y == 0.0f, qPrintable(cell("padding Y", r, c, 0.0, y)));
            else
                QCOMPARE(y, data.modes[kSum].output.at(int(r), int(c)));
        }
    // protect-special keeps [SEP], at 15, whole: Y there is X.
    const Engine engine(p);
    RowMatrixXf x(1, p.dModel);
    engine.computeBlock(Quantity::Input, {15, 1, 0, p.dModel}, x);
    for (std::int64_t c = 0; c < p.dModel; ++c)
        QCOMPARE(data.modes[kProtect].output.at(15, int(c)), x(0, c));
    // A special row named past 16 is inside the chosen sequence, and protect-special keeps it.
    Params named = p;
    named.special = {0, 40, -1};
    const DropoutCompareData reaching = compare(named);
    QVERIFY(reaching.choseSequence);
    QCOMPARE(reaching.params.sequenceLength(), std::int64_t(41));
    QCOMPARE(reaching.params.specialRows(), (std::vector<std::int64_t> {0, 40})); // 40 and -1 are one row
    const Engine namedEngine(named);
    namedEngine.computeBlock(Quantity::Input, {40, 1, 0, p.dModel}, x);
    for (std::int64_t c = 0; c < p.dModel; ++c)
        QCOMPARE(reaching.modes[kProtect].output.at(40, int(c)), x(0, c));
    Params given = p;
    given.seqLen = 64;
    QVERIFY(!compare(given).choseSequence);
    QCOMPARE(compare(given).params.sequenceLength(), std::int64_t(64));

    const auto built = FigureBuilds::build(u"dropout-compare"_s, Params {}, FigureSize::fromPixels(QSize(1400, 860)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QStringList texts = FigureBuilds::texts(*built->plot());
    const QString all = texts.join(u" "_s).replace(u'\n', u' ');
    QVERIFY2(all.contains(u"seq_len unset: 16 here, so that padding shows"_s), qPrintable(all));
    QVERIFY2(all.contains(u"padding 16–1,023 (hatched, seq_len 16)"_s), qPrintable(all));
}

// A quarter of a window: the role names and the long texts give way to the heatmaps, and no line
// is wider than the figure.
void TestDropoutCompareFigure::smallViewKeepsRoomForTheHeatmaps()
{
    const QSize size(640, 420);
    const auto built = FigureBuilds::build(u"dropout-compare"_s, Params {}, FigureSize::fromPixels(size));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QStringList texts;
    for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(e)) {
            texts.append(text->text());
            const QFontMetricsF metrics(text->font());
            for (const QString &line : text->text().split(u'\n'))
                QVERIFY2(metrics.horizontalAdvance(line) <= size.width(), qPrintable(line));
        }
    const QString all = texts.join(u" "_s).replace(u'\n', u' ');
    // 640 x 420 is short of room (FigureRoom::kShortRoom): a caption it shortens is kept whole in
    // the file's metadata.
    const QString kept = FigureBuilds::saidOrSetAside(*built->plot());
    QVERIFY2(kept.contains(u"PE lost: 0\u00a0% energy kept: 100\u00a0%"_s), qPrintable(kept));
    QVERIFY2(!all.contains(u"its PE part PE lost"_s), qPrintable(all));
    for (QCPAxisRect *rect : built->plot()->axisRects())
        QVERIFY(!rect->axis(QCPAxis::atRight)->visible());
}

// The masked-dropout lesson's table, 24 x 32 with a sequence of 16, shows whole at first, and
// its counts say they cover the sequence's 16 x 32 cells; a larger table shows its first cells,
// and a wide one of 24 rows all its rows.
void TestDropoutCompareFigure::smallTableShowsWholeAndCountsItsSequence()
{
    Params p;
    p.dModel = 32;
    p.maxLen = 24;
    p.seqLen = 16;
    QCOMPARE(DropoutCompareModel::defaultBlock(p), (Block {0, 24, 0, 32}));
    Params large = p;
    large.dModel = 512;
    large.maxLen = 64;
    QCOMPARE(DropoutCompareModel::defaultBlock(large), (Block {0, 20, 0, 24}));
    // The same 24 rows of a wide model (Transformer big's 1024 columns) show whole too: the lesson
    // names padding rows 16 to 23, which a block of 20 rows left out.
    Params wide = p;
    wide.dModel = 1024;
    QCOMPARE(DropoutCompareModel::defaultBlock(wide), (Block {0, 24, 0, 24}));
    for (const QSize size : {QSize(1200, 800), QSize(640, 420)}) {
        const auto built = FigureBuilds::build(u"dropout-compare"_s, p, FigureSize::fromPixels(size));
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        // Shown, or in the metadata where the page is short of room (FigureRoom::kShortRoom).
        const QString all = FigureBuilds::saidOrSetAside(*built->plot());
        QVERIFY2(all.contains(u"counted over the sequence's cells in view"_s), qPrintable(all));
        if (size.width() >= 800)
            QVERIFY2(all.contains(u"PE lost: 0 of 512 cells"_s), qPrintable(all)); // embedding mode
    }
}

void TestDropoutCompareFigure::exportsForASlide()
{
    Params p;
    p.seqLen = 16;
    // 25.4 x 14.29 cm, a 16:9 slide, at 150 dpi.
    const FigureSize size = FigureSize::fromInches(QSizeF(10.0, 14.29 / 2.54), 150.0);
    const auto built = FigureBuilds::build(u"dropout-compare"_s, p, size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QImage image = FigureExporter::image(built->plot(), size);
    QCOMPARE(image.size(), size.pixels());
}

// The masked-dropout lesson's slide (d 32, s = √d, σ 1, p 0.1): Y's colour range is ±(3·s·σ + 1)
// / (1 − p) = ±19.97, where a step of 20 left the bar one tick, 0. Both bars keep ticks on both
// sides of 0, inside their range.
void TestDropoutCompareFigure::aSlidesColourBarsAreTickedBothSides()
{
    Params p;
    p.dModel = 32;
    p.maxLen = 24;
    p.scaleKind = ScaleKind::Sqrt;
    p.dropout = 0.1;
    p.dropoutMode = DropoutMode::MaskedFill;
    p.special = {0, 5, -1};
    p.seqLen = 16;
    p.seed = 27;
    const FigureSize slide = FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.29 / 2.54), 150.0);
    FigureStyle style;
    style.fontPointSize = 14.0;
    const auto built = FigureBuilds::build(u"dropout-compare"_s, p, slide, {}, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    int scales = 0;
    for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true)) {
        auto *scale = qobject_cast<QCPColorScale *>(e);
        if (!scale)
            continue;
        ++scales;
        const QCPRange range = scale->axis()->range();
        int below = 0, above = 0;
        for (const double tick : scale->axis()->tickVector()) {
            below += tick < 0.0 && range.contains(tick);
            above += tick > 0.0 && range.contains(tick);
        }
        QVERIFY2(below >= 1 && above >= 1,
                 qPrintable(u"%1 on %2 .. %3: %4 below 0, %5 above"_s.arg(scale->axis()->label())
                                .arg(range.lower)
                                .arg(range.upper)
                                .arg(below)
                                .arg(above)));
    }
    QCOMPARE(scales, 2);
}

void TestDropoutCompareFigure::aSlidesPanelsNumberTheSameColumns_data()
{
    QTest::addColumn<qint64>("d");
    QTest::addColumn<QSizeF>("inches");
    // DiT-XL/2's width, the dropout-on-sum lesson's 64 positions.
    QTest::newRow("d 1152, 16:9") << qint64(1152) << QSizeF(10.0, 5.626);
    QTest::newRow("d 512, 16:9") << qint64(512) << QSizeF(10.0, 5.626);
    QTest::newRow("d 1152, 4:3") << qint64(1152) << QSizeF(10.0, 7.5);
}

// dropout-on-sum's 16:9 slide for DiT-XL/2 numbered the first panel's columns "0 5 10 15 20 j" and
// the others' "0 5 column j": the same columns (the panels' axes move together) read as two
// ranges. Every panel but the first of a row numbers the same columns; the first, whose axis alone
// is named, numbers the same up to where its name stands.
void TestDropoutCompareFigure::aSlidesPanelsNumberTheSameColumns()
{
    QFETCH(qint64, d);
    QFETCH(QSizeF, inches);
    Params p;
    p.dModel = d;
    p.maxLen = 64;
    p.dropout = 0.1;
    FigureState state;
    state.view.insert(u"positions"_s, {-0.5, 63.5});
    FigureStyle style;
    style.fontPointSize = 14.0;
    const FigureSize size = FigureSize::fromInches(inches, 300.0);
    const auto built = FigureBuilds::build(u"dropout-compare"_s, p, size, state, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    FigureExporter::image(built->plot(), size);
    // The numbers shown under each panel, by the row its panels' tops stand in, left to right.
    QMap<int, QList<std::pair<int, QStringList>>> rows;
    for (QCPAxisRect *rect : built->plot()->axisRects()) {
        QCPAxis *x = rect->axis(QCPAxis::atBottom);
        if (!rect->realVisibility() || rect->width() < 20 || !x->visible() || !x->tickLabels())
            continue;
        QStringList shown;
        for (const QString &label : x->tickVectorLabels())
            if (!label.isEmpty())
                shown.append(label);
        rows[rect->top()].append({rect->left(), shown});
    }
    QVERIFY(!rows.isEmpty());
    for (auto &row : rows) {
        std::sort(row.begin(), row.end());
        const QStringList &second = row.value(1).second;
        for (qsizetype i = 2; i < row.size(); ++i)
            QCOMPARE(row[i].second, second);
        // The first's numbers are the others' first: those past them give way to its axis's name.
        const QStringList &first = row.front().second;
        QVERIFY2(!first.isEmpty() && second.mid(0, first.size()) == first,
                 qPrintable(first.join(u' ') + u" | "_s + second.join(u' ')));
    }
}

POSENC_TEST_MAIN(TestDropoutCompareFigure)
} // namespace tst_dropoutcomparefigure
#include "tst_dropoutcomparefigure.moc"
