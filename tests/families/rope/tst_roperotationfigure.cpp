// The rope-rotation figure: the chosen pair's points on its circle are (cos p·theta_i,
// sin p·theta_i) times the attention factor, and the tables beside it hold the same, against
// float64 formulas written here, in both layouts; its pair option is checked with its range.
#include "render/FigureExporter.h"
#include "render/FigureFit.h"
#include "render/FigureRoom.h"
#include "render/figures/rope/RopeRotationFigure.h"
#include "support/TestMain.h"

#include "RopeSlides.h"
#include "support/FigureBuilds.h"
#include "support/RopeReference.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <numbers>

namespace tst_roperotationfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params small(RopeLayout layout, RopeType type = RopeType::Yarn)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = 64;
    p.maxLen = 300;
    p.rope.headDim = 32;
    p.rope.layout = layout;
    p.rope.type = type;
    if (type == RopeType::Yarn) {
        p.rope.factor = 4.0;
        p.rope.originalMaxLen = 64;
    }
    return p;
}

PanelExtent panel(QSize size, double x0, double x1, double y0, double y1)
{
    return {size, 1.0, {x0, x1}, {y0, y1}};
}

// The figure's data for the tables' view: columns [0, cols) and positions [0, rows), one pixel a cell.
std::shared_ptr<const RopeRotationData> compute(const Params &p, const FigureState &state, std::int64_t rows,
                                                std::int64_t cols)
{
    const auto engine = std::make_shared<const Engine>(p);
    FigureRequest request;
    request.engine = engine;
    request.state = state;
    const PanelExtent table
        = panel(QSize(int(cols) * 4, int(rows) * 2), -0.5, double(cols) - 0.5, -0.5, double(rows) - 0.5);
    request.panels = {panel(QSize(300, 300), -1, 1, -1, 1), table, table};
    const std::atomic<bool> cancel {false};
    const FigureResult result = FigureBuilds::figure(u"rope-rotation"_s).model().compute(request, cancel);
    return std::static_pointer_cast<const RopeRotationData>(result.data);
}

} // namespace

class TestRopeRotationFigure : public QObject
{
    Q_OBJECT

private slots:
    void circleIsTheRotation_data();
    void circleIsTheRotation();
    void tablesHoldTheRotation_data();
    void tablesHoldTheRotation();
    void manyPositionsAreTakenEveryStrideTh();
    void pairOptionIsChecked();
    void figureIsRegisteredAndExports();
    void aSmallFigureNamesItsPairWhole_data();
    void aSmallFigureNamesItsPairWhole();
    void llamaAndGptOssFitASlide();
    void fastPairsDrawnAsMeansAreNamed();
    void meansNamedAtDoubleColumn();
    void aSlideSaysWhatTheArrowsAre_data();
    void aSlideSaysWhatTheArrowsAre();
};

void TestRopeRotationFigure::circleIsTheRotation_data()
{
    QTest::addColumn<Params>("p");
    QTest::addColumn<QString>("pair");
    QTest::newRow("half, yarn, default pair") << small(RopeLayout::Half) << QString();
    QTest::newRow("interleaved, yarn, pair 3") << small(RopeLayout::Interleaved) << u"3"_s;
    QTest::newRow("half, default type, last pair") << small(RopeLayout::Half, RopeType::Default) << u"15"_s;
}

void TestRopeRotationFigure::circleIsTheRotation()
{
    QFETCH(Params, p);
    QFETCH(QString, pair);
    FigureState state;
    if (!pair.isEmpty())
        state.options.insert(u"pair"_s, pair);
    const auto d = compute(p, state, 200, 16);
    QVERIFY(d);
    const std::int64_t i = pair.isEmpty() ? 4 : pair.toLongLong(); // default: rotary dim / 8
    QCOMPARE(d->pair, i);
    const double theta = roperef::inv(p)[std::size_t(i)];
    const double a = roperef::attentionFactor(p);
    QVERIFY(std::abs(d->frequency - theta) <= 1e-15 * theta);
    QCOMPARE(d->attentionFactor, a);
    // The positions in view, up to one turn: ceil(2 pi / theta) + 1 points at most.
    const auto turn = qsizetype(std::ceil(roperef::kTwoPi / theta)) + 1;
    QCOMPARE(d->position.size(), std::min<qsizetype>(200, turn));
    QCOMPARE(d->oneTurn, turn < 200);
    QCOMPARE(d->stride, 1);
    for (qsizetype k = 0; k < d->position.size(); ++k) {
        const double angle = d->position[k] * theta;
        QVERIFY2(std::abs(d->x[k] - a * std::cos(angle)) < 1e-6 && std::abs(d->y[k] - a * std::sin(angle)) < 1e-6,
                 qPrintable(u"p %1: (%2, %3)"_s.arg(d->position[k]).arg(d->x[k]).arg(d->y[k])));
        // On the circle of radius a.
        QVERIFY(std::abs(std::hypot(d->x[k], d->y[k]) - a) < 1e-6);
    }
}

void TestRopeRotationFigure::tablesHoldTheRotation_data()
{
    QTest::addColumn<RopeLayout>("layout");
    QTest::newRow("half") << RopeLayout::Half;
    QTest::newRow("interleaved") << RopeLayout::Interleaved;
}

void TestRopeRotationFigure::tablesHoldTheRotation()
{
    QFETCH(RopeLayout, layout);
    const Params p = small(layout);
    // One pixel a cell: the grids are the tables' cells. Half: the pairs' h columns; interleaved:
    // all r, pair j/2 in column j.
    const std::int64_t cols = RopeRotationModel::shownColumns(p);
    QCOMPARE(cols, layout == RopeLayout::Half ? 16 : 32);
    const auto d = compute(p, {}, 120, cols);
    QVERIFY(d);
    QCOMPARE(d->cos.rows, 120);
    QCOMPARE(d->cos.cols, int(cols));
    const std::vector<double> inv = roperef::inv(p);
    const double a = roperef::attentionFactor(p);
    for (int row = 0; row < 120; ++row) {
        for (int col = 0; col < int(cols); ++col) {
            const double theta = inv[std::size_t(layout == RopeLayout::Half ? col : col / 2)];
            QVERIFY(std::abs(d->cos.at(row, col) - a * std::cos(row * theta)) < 1e-6);
            QVERIFY(std::abs(d->sin.at(row, col) - a * std::sin(row * theta)) < 1e-6);
        }
    }
}

void TestRopeRotationFigure::manyPositionsAreTakenEveryStrideTh()
{
    // The last pair turns once in ~35,000 positions: all 5,000 in view are within its turn, 512
    // points at most, every 10th.
    Params p = small(RopeLayout::Half, RopeType::Default);
    p.maxLen = 5000;
    FigureState slow;
    slow.options.insert(u"pair"_s, u"15"_s);
    const auto d = compute(p, slow, 5000, 16);
    QVERIFY(d);
    QVERIFY(!d->oneTurn);
    QCOMPARE(d->stride, 10);
    QCOMPARE(d->position.size(), 500);
    QCOMPARE(d->position[1], 10.0);
}

void TestRopeRotationFigure::pairOptionIsChecked()
{
    const FigureModel &model = FigureBuilds::figure(u"rope-rotation"_s).model();
    const Params p = small(RopeLayout::Half);
    QCOMPARE(model.defaultText(u"pair"_s, p), u"4"_s);
    for (const QString &bad : {u"16"_s, u"-1"_s, u"two"_s}) {
        FigureState state;
        state.options.insert(u"pair"_s, bad);
        const QList<ParamError> problems = model.check(p, state);
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems.front().key, u"pair"_s);
        QVERIFY2(problems.front().allowed.contains(u"[0, 15]"_s), qPrintable(problems.front().allowed));
    }
    FigureState last;
    last.options.insert(u"pair"_s, u"15"_s);
    QVERIFY(model.check(p, last).isEmpty());
}

void TestRopeRotationFigure::figureIsRegisteredAndExports()
{
    const FigureDescriptor &figure = FigureBuilds::figure(u"rope-rotation"_s);
    QCOMPARE(figure.model().inputs({}), (QList<Quantity> {Quantity::RopeCos, Quantity::RopeSin}));
    FigureState state;
    state.options.insert(u"pair"_s, u"20"_s);
    state.options.insert(u"positions"_s, u"0:400"_s);
    const FigureSize size = FigureSize::fromPixels(QSize(900, 500));
    const auto built = FigureBuilds::build(u"rope-rotation"_s, roperef::llama31(), size, state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(900, 500));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"pair 20"_s), qPrintable(texts));
}

void TestRopeRotationFigure::aSmallFigureNamesItsPairWhole_data()
{
    QTest::addColumn<QString>("size");
    QTest::addColumn<QString>("pair");
    // Sizes whose tables are given up, the circle's title shortened beside them first.
    for (const QString &size : {u"10x6cm"_s, u"11x7cm"_s, u"9x7cm"_s})
        for (const QString &pair : {u"12"_s, u"3"_s})
            QTest::newRow(qPrintable(u"%1, pair %2"_s.arg(size, pair))) << size << pair;
}

// On little room the circle's title is shortened, never its pair's number: "pair 12", not
// "pair 1…" (which reads as another pair) nor "pair …"; the tables given up, it takes their room.
void TestRopeRotationFigure::aSmallFigureNamesItsPairWhole()
{
    QFETCH(QString, size);
    QFETCH(QString, pair);
    const auto inches = FigureSizes::parsePhysical(size);
    QVERIFY(std::holds_alternative<QSizeF>(inches));
    FigureState state;
    state.options.insert(u"pair"_s, pair);
    FigureStyle style;
    style.fontPointSize = 9.0;
    const FigureSize page = FigureSize::fromInches(std::get<QSizeF>(inches), 300.0);
    const auto built = FigureBuilds::build(u"rope-rotation"_s, small(RopeLayout::Half), page, state, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    // The panels' titles shown: the circle's alone, the tables' given up with them.
    QStringList titles;
    for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(e);
            text && text->realVisibility() && FigureRoom::roleOf(text) == TextRole::PanelTitle)
            titles.append(FigureFit::unwrapped(text).replace(u'\n', u' '));
    QCOMPARE(titles.size(), 1);
    const QString circle = titles.front();
    QVERIFY2(QRegularExpression(u"^pair %1($|[^0-9])"_s.arg(pair)).match(circle).hasMatch(), qPrintable(circle));
    // With the tables' room, the positions it shows too.
    QVERIFY2(circle.startsWith(u"pair %1, p = 0–"_s.arg(pair)), qPrintable(circle));
}

void TestRopeRotationFigure::llamaAndGptOssFitASlide()
{
    RopeSlides::check(u"rope-rotation"_s);
}

// Where a pixel row of the tables averages several positions, the pairs that turn half a turn or
// more across them (θᵢ·positions ≥ π, θᵢ from the float64 formula) show a mean, not their wave:
// the data names the first and last, and the figure says so under its tables, in a file too.
void TestRopeRotationFigure::fastPairsDrawnAsMeansAreNamed()
{
    Params p = small(RopeLayout::Half, RopeType::Default);
    p.maxLen = 1200;
    const auto engine = std::make_shared<const Engine>(p);
    FigureRequest request;
    request.engine = engine;
    // 1,200 positions in 100 pixel rows: 12 a pixel.
    const PanelExtent table = panel(QSize(64, 100), -0.5, 15.5, -0.5, 1199.5);
    request.panels = {panel(QSize(300, 300), -1, 1, -1, 1), table, table};
    const std::atomic<bool> cancel {false};
    const auto d = std::static_pointer_cast<const RopeRotationData>(
        FigureBuilds::figure(u"rope-rotation"_s).model().compute(request, cancel).data);
    QVERIFY(d);
    QCOMPARE(d->positionsPerPixel, 12.0);
    const std::vector<double> inv = roperef::inv(p);
    std::int64_t last = -1;
    for (std::size_t i = 0; i < inv.size(); ++i)
        if (inv[i] * 12.0 >= std::numbers::pi)
            last = std::int64_t(i);
    QVERIFY(last >= 1 && last < 15);
    QCOMPARE(d->firstMeanPair, 0);
    QCOMPARE(d->lastMeanPair, last);
    // One pixel a cell: nothing is averaged, nothing said.
    const auto exact = compute(p, {}, 120, 16);
    QVERIFY(exact);
    QCOMPARE(exact->firstMeanPair, -1);

    FigureState state;
    // 4,000 positions in the tables' ~600 pixel rows: pairs 0 and 1 turn half a turn or more a pixel.
    p.maxLen = 4000;
    state.options.insert(u"positions"_s, u"0:4000"_s);
    const FigureSize size = FigureSize::fromPixels(QSize(1200, 800));
    const auto built = FigureBuilds::build(u"rope-rotation"_s, p, size, state);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(QRegularExpression(u"pairs 0–1 turn .*mean"_s).match(texts).hasMatch(), qPrintable(texts));
}

// Llama 3.1 over 65,536 positions on a paper's double column (17.5 x 9 cm at 9 pt): the tables'
// fast pairs are pixel means, and the page keeps the line that says so in its one-line form
// (FigureRoom's captionsInShorterForms) with the title whole, rather than dropping it with the
// captions as soon as the page was short.
void TestRopeRotationFigure::meansNamedAtDoubleColumn()
{
    FigureState state;
    state.options.insert(u"positions"_s, u"0:65536"_s);
    Params p = roperef::llama31();
    p.maxLen = 65536;
    FigureStyle style;
    style.fontPointSize = 9.0;
    const FigureSize page = FigureSize::fromInches(std::get<QSizeF>(FigureSizes::parsePhysical(u"double"_s)), 300.0);
    const auto built = FigureBuilds::build(u"rope-rotation"_s, p, page, state, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(QRegularExpression(u"pairs 0–\\d+ .*means of ~\\d+ positions"_s).match(texts).hasMatch(), qPrintable(texts));
    QVERIFY2(texts.contains(u"rope-cos"_s) && texts.contains(u"rope-sin"_s), qPrintable(texts));
}

void TestRopeRotationFigure::aSlideSaysWhatTheArrowsAre_data()
{
    QTest::addColumn<bool>("llama"); // Llama 3.1's parameters, else RoPE's defaults
    QTest::addColumn<QSizeF>("inches");
    QTest::newRow("llama 3.1, 16:9") << true << QSizeF(10.0, 5.626);
    QTest::newRow("defaults, 16:9") << false << QSizeF(10.0, 5.626);
    QTest::newRow("llama 3.1, 4:3") << true << QSizeF(10.0, 7.5);
}

// rope-relative's slide (pair 4, positions 0:128, 14 pt) cut the circle's title to "pair 4, p = 0–15":
// what its arrows are, which the lesson's text points at, went with its second line. The title
// keeps it in a shorter form, its pair's number whole.
void TestRopeRotationFigure::aSlideSaysWhatTheArrowsAre()
{
    QFETCH(bool, llama);
    QFETCH(QSizeF, inches);
    Params params = llama ? roperef::llama31() : Params();
    params.encoding = Encoding::Rope;
    FigureState state;
    state.options.insert(u"pair"_s, u"4"_s);
    state.view.insert(u"positions"_s, {-0.5, 127.5});
    FigureStyle style;
    style.fontPointSize = 14.0;
    const auto built
        = FigureBuilds::build(u"rope-rotation"_s, params, FigureSize::fromInches(inches, 300.0), state, style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QStringList titles;
    for (QCPLayoutElement *e : built->plot()->plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(e); text && text->realVisibility()
            && FigureRoom::roleOf(text) == TextRole::PanelTitle && text->text().startsWith(u"pair"_s))
            titles.append(FigureFit::unwrapped(text).replace(u'\n', u' '));
    QCOMPARE(titles.size(), 1);
    QVERIFY2(titles.front().startsWith(u"pair 4"_s) && titles.front().contains(u"arrows"_s)
                 && titles.front().contains(u"θᵢ apart"_s),
             qPrintable(titles.front()));
}

POSENC_TEST_MAIN(TestRopeRotationFigure)
} // namespace tst_roperotationfigure
#include "tst_roperotationfigure.moc"
