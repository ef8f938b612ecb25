// What dropout does, cell by cell: every cell's output lies on the line of its fate (slope
// 1/(1-p) kept, 0 dropped, 1 passed through, 0 zeroed padding) against float64 references; the
// drop fraction at each p lies within p +- 4 sqrt(p(1-p)/n) and the same cells stay dropped as p
// grows; evaluation is the identity (masked-fill's padding aside); the titles name p, 1/(1-p), n.
#include "render/FigureExporter.h"
#include "render/SwatchLegend.h"
#include "render/figures/DropoutAnatomyFigure.h"
#include "support/TestMain.h"

#include "../core/Reference.h"
#include "support/FigureBuilds.h"

#include <QTest>

#include <algorithm>

#include <cmath>
#include <limits>
#include <memory>

namespace tst_dropoutanatomyfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params params(DropoutMode mode, double p, std::uint64_t seed = 5)
{
    Params params;
    params.dModel = 32;
    params.maxLen = 60;
    params.dropout = p;
    params.dropoutMode = mode;
    params.seed = seed;
    params.seqLen = 40;
    return params;
}

DropoutAnatomyData anatomy(const Params &params, Block block)
{
    const Engine engine(params);
    HeatmapRequest visible;
    visible.block = block;
    visible.pixelRows = visible.pixelCols = 500;
    const auto data = DropoutAnatomyCompute::compute(engine, visible, Detail::Full, {1, nullptr});
    if (!data)
        qFatal("not computed");
    return *data;
}

bool near(double got, double expected, double tolerance)
{
    return std::abs(got - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

} // namespace

class TestDropoutAnatomyFigure : public QObject
{
    Q_OBJECT

private slots:
    void everyCellLiesOnItsLine_data();
    void everyCellLiesOnItsLine();
    void dropFractionsLieWithinTheBand_data();
    void dropFractionsLieWithinTheBand();
    void evaluationIsTheIdentity();
    void fullProbabilityKeepsAnHonestScale();
    void titlesNameTheirNumbers();
    void smallViewKeepsRoomForThePanels();
    void aSlideKeepsTheSlopesWhole();
    void nonFiniteCellsAreLeftOutAndCounted();
    void atZeroNothingIsDropped();
};

void TestDropoutAnatomyFigure::everyCellLiesOnItsLine_data()
{
    QTest::addColumn<Params>("p");
    QTest::newRow("sum p 0.3") << params(DropoutMode::Sum, 0.3);
    QTest::newRow("embedding p 0.5") << params(DropoutMode::Embedding, 0.5);
    QTest::newRow("pe p 0.5") << params(DropoutMode::Positional, 0.5);
    Params special = params(DropoutMode::ProtectSpecial, 0.2);
    special.special = {0, 7, -1};
    QTest::newRow("protect-special") << special;
    QTest::newRow("masked-fill") << params(DropoutMode::MaskedFill, 0.4);
}

void TestDropoutAnatomyFigure::everyCellLiesOnItsLine()
{
    QFETCH(Params, p);
    const DropoutAnatomyData data = anatomy(p, {0, 60, 0, 32});
    const double slope = 1.0 / (1.0 - p.dropout);
    QCOMPARE(data.scatterCells, std::int64_t(60 * 32));
    QVERIFY(data.scatterEveryRow);
    QCOMPARE(data.kept.size() + data.dropped.size() + data.passed.size() + data.zeroed.size(), qsizetype(60 * 32));
    // The inputs against float64: X = s E + PE, or s E alone in embedding mode.
    const Engine engine(p);
    RowMatrixXf sE(60, 32);
    engine.computeBlock(Quantity::Embedding, {0, 60, 0, 32}, sE);
    for (qsizetype i = 0; i < data.kept.size(); ++i)
        QVERIFY2(near(data.kept.y[i], slope * data.kept.x[i], 1e-5),
                 qPrintable(u"kept (%1, %2)"_s.arg(data.kept.x[i]).arg(data.kept.y[i])));
    for (qsizetype i = 0; i < data.dropped.size(); ++i)
        QVERIFY2(std::abs(data.dropped.y[i]) <= 1e-5 * std::max(1.0, std::abs(data.dropped.x[i])),
                 qPrintable(u"dropped (%1, %2)"_s.arg(data.dropped.x[i]).arg(data.dropped.y[i])));
    for (qsizetype i = 0; i < data.passed.size(); ++i)
        QCOMPARE(data.passed.y[i], data.passed.x[i]);
    for (qsizetype i = 0; i < data.zeroed.size(); ++i)
        QCOMPARE(data.zeroed.y[i], 0.0);
    // The points are the cells, row by row: check the first row's inputs against the definition.
    // The dropout's input: s·E in embedding mode, the PE in pe mode, else X.
    const bool embedding = p.dropoutMode == DropoutMode::Embedding;
    const bool positional = p.dropoutMode == DropoutMode::Positional;
    QList<double> inputs;
    for (const ScatterPoints *points : {&data.kept, &data.dropped, &data.passed, &data.zeroed})
        inputs += points->x;
    for (std::int64_t c = 0; c < 32; ++c) {
        const double q = reference::exactValue(0, c, 32, p.sinusoidal.base, p.sinusoidal.layout);
        const double x = embedding ? double(sE(0, c)) : positional ? q : double(sE(0, c)) + q;
        QVERIFY2(std::any_of(inputs.cbegin(), inputs.cend(), [&](double v) { return near(v, x, 1e-5); }),
                 qPrintable(u"no point at x = %1"_s.arg(x)));
    }
    const qsizetype special = p.dropoutMode == DropoutMode::ProtectSpecial ? 3 * 32 : 0;
    const qsizetype padding = p.dropoutMode == DropoutMode::MaskedFill ? 20 * 32 : 0;
    QCOMPARE(data.passed.size(), special);
    QCOMPARE(data.zeroed.size(), padding);
    QCOMPARE(data.countedCells, std::int64_t(60 * 32 - special - padding));
}

void TestDropoutAnatomyFigure::dropFractionsLieWithinTheBand_data()
{
    QTest::addColumn<Params>("p");
    QTest::addColumn<Block>("block");
    for (const std::uint64_t seed : {1u, 2u, 3u})
        QTest::addRow("16 x 24 cells, seed %d", int(seed))
            << params(DropoutMode::Sum, 0.1, seed) << Block {0, 16, 0, 24};
    QTest::newRow("60 x 32 cells, masked-fill") << params(DropoutMode::MaskedFill, 0.7) << Block {0, 60, 0, 32};
    Params large = params(DropoutMode::Sum, 0.25);
    large.maxLen = 4000;
    large.dModel = 64;
    QTest::newRow("4000 x 64 cells, evenly spaced rows") << large << Block {0, 4000, 0, 64};
}

void TestDropoutAnatomyFigure::dropFractionsLieWithinTheBand()
{
    QFETCH(Params, p);
    QFETCH(Block, block);
    const DropoutAnatomyData data = anatomy(p, block);
    const std::int64_t n = data.countedCells;
    QVERIFY(n > 0);
    QCOMPARE(data.probabilities.size(), qsizetype(41));
    QCOMPARE(data.probabilities.first(), 0.0);
    QCOMPARE(data.probabilities.last(), 1.0);
    double previous = -1.0;
    for (qsizetype i = 0; i < data.probabilities.size(); ++i) {
        const double at = data.probabilities[i];
        const double measured = data.dropFractions[i];
        const double band = 4.0 * std::sqrt(at * (1.0 - at) / double(n));
        QVERIFY2(std::abs(measured - at) <= band + 1e-12,
                 qPrintable(u"p = %1: %2 outside %1 +- %3 (n = %4)"_s.arg(at).arg(measured).arg(band).arg(n)));
        // The same cells and seed at every p: a cell dropped at p stays dropped at any larger p.
        QVERIFY(measured >= previous);
        previous = measured;
        QVERIFY(std::abs(DropoutAnatomyCompute::sigma(at, n) - std::sqrt(at * (1.0 - at) / double(n))) < 1e-15);
    }
    // At the parameters' p, the fraction of the cells as the mask has them.
    const Engine engine(p);
    RowMatrixXf mask(block.rows, block.cols);
    engine.computeBlock(Quantity::Mask, block, mask);
    if (block.rows * block.cols == n)
        QCOMPARE(data.measuredAtP, double((mask.array() == 0.0f).count()) / double(n));
}

void TestDropoutAnatomyFigure::evaluationIsTheIdentity()
{
    const DropoutAnatomyData sum = anatomy(params(DropoutMode::Sum, 0.3), {0, 60, 0, 32});
    QCOMPARE(sum.evaluation.values, sum.input.values); // Y = X, cell for cell
    QVERIFY(sum.training.values != sum.input.values);
    const DropoutAnatomyData masked = anatomy(params(DropoutMode::MaskedFill, 0.3), {0, 60, 0, 32});
    for (int r = 0; r < 60; ++r)
        for (int c = 0; c < 32; ++c) {
            const float expected = r >= 40 ? 0.0f : masked.input.at(r, c);
            QCOMPARE(masked.evaluation.at(r, c), expected);
            if (r >= 40)
                QCOMPARE(masked.training.at(r, c), 0.0f);
        }
}

// At p = 1 Y is zero: the shared scale stays X's, and the kept slope is not drawn.
void TestDropoutAnatomyFigure::fullProbabilityKeepsAnHonestScale()
{
    const auto built = FigureBuilds::build(u"dropout-anatomy"_s, params(DropoutMode::Sum, 1.0),
                                           FigureSize::fromPixels(QSize(1300, 900)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCPColorScale *shared = nullptr;
    for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true))
        if (auto *scale = qobject_cast<QCPColorScale *>(e); scale && scale->realVisibility())
            shared = scale;
    QVERIFY(shared);
    QVERIFY2(shared->dataRange().upper > 0.5, qPrintable(QString::number(shared->dataRange().upper)));
    QCOMPARE(shared->dataRange().lower, -shared->dataRange().upper);
}

void TestDropoutAnatomyFigure::titlesNameTheirNumbers()
{
    const FigureDescriptor &descriptor = FigureBuilds::figure(u"dropout-anatomy"_s);
    QVERIFY(descriptor.model().option(u"positions"_s));
    Params p = params(DropoutMode::MaskedFill, 0.1);
    p.dModel = 512;
    p.maxLen = 1024;
    p.seqLen = 12;
    const auto built = FigureBuilds::build(u"dropout-anatomy"_s, p, FigureSize::fromPixels(QSize(1300, 900)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QStringList texts = FigureBuilds::texts(*built->plot());
    const QString all = texts.join(u" "_s).replace(u'\n', u' ');
    // 16 positions, 4 past seq_len 12, by 24 columns: 12 x 24 cells under dropout.
    for (const QString &part :
         {u"p = 0.1"_s, u"1/(1−p) = 1.111"_s, u"n = 288 cells"_s, u"384 cells in view"_s, u"mode masked-fill"_s,
          u"d = 512, L = 1,024"_s, u"Y = masked_fill(X)"_s, u"padding 12–1,023 (hatched, seq_len 12)"_s})
        QVERIFY2(all.contains(part), qPrintable(part + u" not in: "_s + all));
    int legends = 0;
    for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true))
        if (auto *legend = qobject_cast<QCPLegend *>(e); legend && legend->itemCount() == 3)
            ++legends; // the mask's kept, dropped and padding
    QVERIFY(legends >= 1);
    const QImage image = FigureExporter::image(built->plot(), FigureSize::fromPixels(QSize(1300, 900)));
    QCOMPARE(image.size(), QSize(1300, 900));
}

// A quarter of a window: one-line chart titles, the roles outlined without names, no line wider
// than the figure; nothing is called hatched where no row is.
void TestDropoutAnatomyFigure::smallViewKeepsRoomForThePanels()
{
    const QSize size(640, 420);
    Params p = params(DropoutMode::Sum, 0.1);
    p.seqLen.reset(); // the sequence fills the table: no padding
    const auto built = FigureBuilds::build(u"dropout-anatomy"_s, p, FigureSize::fromPixels(size));
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
    QVERIFY2(all.contains(u"fraction dropped against p, n = "_s), qPrintable(all));
    QVERIFY2(!all.contains(u"the same cells and seed at every p"_s), qPrintable(all));
    QVERIFY2(!all.contains(u"hatched"_s), qPrintable(all));
    for (QCPAxisRect *rect : built->plot()->axisRects())
        QVERIFY(!rect->axis(QCPAxis::atRight)->visible());
}

// On a 14-pt slide the scatter's name was cut to "output against input, slopes 1.111 (kept) …":
// short of room it keeps the slopes whole, 1/(1 − p) and 0, what its dots are read against.
void TestDropoutAnatomyFigure::aSlideKeepsTheSlopesWhole()
{
    Params p = params(DropoutMode::Sum, 0.1);
    p.seqLen.reset();
    FigureStyle style;
    style.fontPointSize = 14.0;
    const auto built = FigureBuilds::build(u"dropout-anatomy"_s, p,
                                           FigureSize::fromInches(QSizeF(25.4, 14.29) / 2.54, 300.0), {}, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString slopes = u"slopes %1 (kept) and 0 (dropped)"_s.arg(QString::number(1.0 / 0.9, 'g', 4));
    const QStringList texts = FigureBuilds::texts(*built->plot());
    const bool whole = std::any_of(texts.cbegin(), texts.cend(), [&](const QString &text) {
        return QString(text).replace(u'\n', u' ').contains(slopes);
    });
    QVERIFY2(whole, qPrintable(texts.join(u" | "_s)));
}

// The audit: a NaN row of a loaded matrix crashed the figure (SIGSEGV drawing its scatter). Its
// cells are no points of the scatter, their count is in the title, and the figure draws.
void TestDropoutAnatomyFigure::nonFiniteCellsAreLeftOutAndCounted()
{
    RowMatrixXf matrix = RowMatrixXf::Constant(16, 8, 0.5f);
    matrix.row(0).setConstant(std::numeric_limits<float>::quiet_NaN());
    matrix(5, 3) = std::numeric_limits<float>::infinity();
    Params p;
    p.dModel = 8;
    p.maxLen = 16;
    p.dropout = 0.25;
    p.embeddings = std::make_shared<const EmbeddingMatrix>(EmbeddingMatrix {matrix, u"nan.npy"_s, QString()});
    const DropoutAnatomyData data = anatomy(p, {0, 16, 0, 8});
    QCOMPARE(data.nonFiniteCells, 9);
    QCOMPARE(data.kept.size() + data.dropped.size() + data.passed.size() + data.zeroed.size(), 16 * 8 - 9);
    for (const ScatterPoints *points : {&data.kept, &data.dropped, &data.passed, &data.zeroed})
        for (qsizetype i = 0; i < points->size(); ++i)
            QVERIFY(std::isfinite(points->x[i]) && std::isfinite(points->y[i]));
    // Drawn on screen, where the markers are stamped, and for a file.
    const auto built = FigureBuilds::build(u"dropout-anatomy"_s, p, FigureSize::fromPixels(QSize(1300, 900)));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    bool named = false;
    for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(e); text && text->text().contains(u"9 not finite left out"_s))
            named = true;
    QVERIFY(named);
    QVERIFY(!FigureExporter::png(built->plot(), built->size()).isEmpty());
}

// ModernBERT's input dropout is p = 0 (its preset's): nn.Dropout(0) zeroes nothing, yet the scatter
// drew a line of slope 0 and named "dropped: 0 (0)", and the mask's key named a "dropped" colour no
// cell has. At p = 0 the figure says once that nothing is dropped and draws the slope-1 line alone.
void TestDropoutAnatomyFigure::atZeroNothingIsDropped()
{
    Params p = params(DropoutMode::Sum, 0.0);
    p.seqLen.reset();
    const DropoutAnatomyData data = anatomy(p, {0, 60, 0, 32});
    QCOMPARE(data.dropped.size(), qsizetype(0)); // torch.nn.functional.dropout(x, 0.0) is x
    for (qsizetype i = 0; i < data.kept.size(); ++i)
        QCOMPARE(data.kept.y[i], data.kept.x[i]);
    for (const QSize size : {QSize(1300, 900), QSize(640, 420)}) {
        const auto built = FigureBuilds::build(u"dropout-anatomy"_s, p, FigureSize::fromPixels(size));
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        QStringList entries;
        for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true))
            if (auto *legend = qobject_cast<QCPLegend *>(e))
                for (int i = 0; i < legend->itemCount(); ++i) {
                    QCPAbstractLegendItem *item = legend->item(i);
                    if (auto *named = qobject_cast<QCPPlottableLegendItem *>(item))
                        entries.append(named->plottable()->name());
                    else
                        entries.append(SwatchLegend::label(item));
                }
        QVERIFY2(std::none_of(entries.cbegin(), entries.cend(),
                              [](const QString &entry) { return entry.contains(u"dropped"_s); }),
                 qPrintable(entries.join(u" | "_s)));
        // Whole where the key has room (a small view shortens its entries to "kept").
        QVERIFY2(size.width() < 1000
                     || std::any_of(entries.cbegin(), entries.cend(),
                                    [](const QString &entry) { return entry.startsWith(u"kept: × 1 ("_s); }),
                 qPrintable(entries.join(u" | "_s)));
        // No line of slope 0 is drawn: every visible graph of two points through the origin has slope 1.
        for (int g = 0; g < built->plot()->graphCount(); ++g) {
            QCPGraph *graph = built->plot()->graph(g);
            if (!graph->realVisibility() || graph->dataCount() != 2 || graph->pen().style() == Qt::NoPen)
                continue;
            const auto first = graph->data()->at(0), last = graph->data()->at(1);
            if (first->key == last->key)
                continue;
            const double slope = (last->value - first->value) / (last->key - first->key);
            QVERIFY2(std::abs(slope - 1.0) < 1e-9, qPrintable(u"a line of slope %1"_s.arg(slope)));
        }
        const QString all = FigureBuilds::texts(*built->plot()).join(u" "_s).replace(u'\n', u' ');
        QVERIFY2(all.contains(u"p = 0: slope 1, nothing dropped"_s), qPrintable(all));
        QVERIFY2(!all.contains(u"(dropped)"_s), qPrintable(all));
    }
}

POSENC_TEST_MAIN(TestDropoutAnatomyFigure)
} // namespace tst_dropoutanatomyfigure
#include "tst_dropoutanatomyfigure.moc"
