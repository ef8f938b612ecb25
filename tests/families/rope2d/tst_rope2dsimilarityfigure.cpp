// The rope-2d-similarity figure: each panel's score of the chosen patch against the grid equals
// the float64 mean of cos(angle(p) - angle(p0)) of tests/support/Rope2dReference.h, for the
// parameters' own style and for each other style at its model's head and theta, and M-RoPE's
// chunked and interleaved splits of an image (tests/support/MropeReference.h); a grid of 1024 x
// 1024 patches sampled; each panel drawn at the grid's aspect; a window's size and a 14-pt slide.
#include "render/FigureBuild.h"
#include "render/FigureExporter.h"
#include "render/data/rope2d/Rope2dSimilarityModel.h"
#include "support/TestMain.h"

#include "figures/RelativeSlides.h"
#include "support/FigureBuilds.h"
#include "support/MropeReference.h"
#include "support/Rope2dReference.h"

#include "core/ParamText.h"

#include <QTest>

#include <cmath>

namespace tst_rope2dsimilarityfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params rope2d(const QString &style, const QString &grid, const QString &patch)
{
    Params p;
    p.encoding = Encoding::Rope2d;
    const QList<std::pair<QString, QString>> values
        = {{u"rope-2d-style"_s, style}, {u"grid"_s, grid}, {u"patch"_s, patch}};
    for (const auto &[key, text] : values) {
        if (const auto error = ParamText::set(p, key, text))
            qFatal("%s", qPrintable(error->sentence()));
    }
    return p;
}

// The pairs a panel draws: the parameters' own for their style, else the style's model's.
std::vector<rope2dref::Pair> stylePairs(const Params &params, Rope2dStyle style)
{
    Params p = params;
    if (style != params.rope2d.style) {
        const std::int64_t heads[] = {80, 64, 128, 64}; // Qwen2-VL's ViT, Pixtral-12B, FLUX.1, RoPE-ViT
        const double thetas[] = {1e4, 1e4, 1e4, 100.0};
        p.rope.headDim = heads[int(style)];
        p.rope.theta = thetas[int(style)];
        p.rope2d.axesDim = {16, 56, 56};
    }
    p.rope2d.style = style;
    return rope2dref::pairs(p);
}

// M-RoPE's pairs on an image: h on the rows, w on the columns, t constant; theta 1e6, head 128.
std::vector<rope2dref::Pair> mropePairs(bool interleaved)
{
    const mroperef::Ids section = interleaved ? mroperef::Ids {24, 20, 20} : mroperef::Ids {16, 24, 24};
    const std::vector<int> axes = interleaved ? mroperef::interleavedAxes(section, 64) : mroperef::chunkedAxes(section);
    std::vector<rope2dref::Pair> pairs;
    for (std::size_t j = 0; j < axes.size(); ++j)
        pairs.push_back({axes[j], 1.0 / std::pow(1e6, double(2 * j) / 128.0)});
    return pairs;
}

} // namespace

class TestRope2dSimilarityFigure : public QObject
{
    Q_OBJECT

private slots:
    void scoresAreTheReferences_data();
    void scoresAreTheReferences();
    void aLargeGridIsSampled();
    void panelsKeepTheGridsAspect_data();
    void panelsKeepTheGridsAspect();
    void figureIsRegisteredAndExports();
    void stylesFitASlide();
};

void TestRope2dSimilarityFigure::scoresAreTheReferences_data()
{
    QTest::addColumn<QString>("style");
    QTest::addColumn<QString>("grid");
    QTest::addColumn<QString>("patch");
    QTest::newRow("qwen-vit 16 x 16") << u"qwen-vit"_s << u"16,16"_s << u"5,9"_s;
    QTest::newRow("pixtral 12 x 20") << u"pixtral"_s << u"12,20"_s << u"0,19"_s;
    QTest::newRow("flux 16 x 24") << u"flux"_s << u"16,24"_s << u"8,8"_s;
    QTest::newRow("axial 10 x 10") << u"axial"_s << u"10,10"_s << u"9,0"_s;
}

void TestRope2dSimilarityFigure::scoresAreTheReferences()
{
    QFETCH(QString, style);
    QFETCH(QString, grid);
    QFETCH(QString, patch);
    const Params p = rope2d(style, grid, patch);
    const Rope2dSimilarityData d = Rope2dSimilarityModel::compute(p);
    QCOMPARE(d.panels.size(), 6);
    const std::int64_t r0 = p.rope2d.patch[0], c0 = p.rope2d.patch[1];
    const std::int64_t quarter = std::max(p.sincos2d.grid[0], p.sincos2d.grid[1]) / 4;
    QCOMPARE(d.quarter, quarter);
    for (qsizetype i = 0; i < 6; ++i) {
        const Rope2dSimilarityData::Panel &panel = d.panels[i];
        const std::vector<rope2dref::Pair> pairs = i < 4 ? stylePairs(p, Rope2dStyle(i)) : mropePairs(i == 5);
        QCOMPARE(panel.chosen, i < 4 && Rope2dStyle(i) == p.rope2d.style);
        QCOMPARE(panel.rows.size(), qsizetype(p.sincos2d.grid[0]));
        QCOMPARE(panel.columns.size(), qsizetype(p.sincos2d.grid[1]));
        for (qsizetype r = 0; r < panel.rows.size(); ++r) {
            for (qsizetype c = 0; c < panel.columns.size(); ++c) {
                const double want = rope2dref::score(pairs, r, c, r0, c0);
                const double got = panel.score[r * panel.columns.size() + c];
                QVERIFY2(std::abs(got - want) <= 1e-12,
                         qPrintable(u"panel %1, (%2, %3): %4 vs %5"_s.arg(i).arg(r).arg(c).arg(got).arg(want)));
            }
        }
        QVERIFY(std::abs(panel.along - rope2dref::score(pairs, 0, quarter, 0, 0)) <= 1e-12);
        QVERIFY(std::abs(panel.across - rope2dref::score(pairs, quarter, 0, 0, 0)) <= 1e-12);
    }
}

void TestRope2dSimilarityFigure::aLargeGridIsSampled()
{
    const Params p = rope2d(u"axial"_s, u"1024,1024"_s, u"333,700"_s);
    const Rope2dSimilarityData d = Rope2dSimilarityModel::compute(p);
    const std::vector<rope2dref::Pair> pairs = stylePairs(p, Rope2dStyle::Axial);
    for (const Rope2dSimilarityData::Panel &panel : d.panels) {
        // kMaxSide even lines and the patch's own.
        QCOMPARE(panel.rows.size(), qsizetype(Rope2dSimilarityData::kMaxSide + 1));
        QVERIFY(panel.rows.contains(333) && panel.columns.contains(700));
        QCOMPARE(panel.rows.front(), 0);
        QCOMPARE(panel.rows.back(), 1023);
    }
    const Rope2dSimilarityData::Panel &axial = d.panels[3];
    const qsizetype r = axial.rows.indexOf(333), c = axial.columns.indexOf(700);
    QVERIFY(std::abs(axial.score[r * axial.columns.size() + c] - 1.0) <= 1e-12);
    const qsizetype last = axial.score.size() - 1;
    QVERIFY(std::abs(axial.score[last] - rope2dref::score(pairs, 1023, 1023, 333, 700)) <= 1e-12);
}

void TestRope2dSimilarityFigure::panelsKeepTheGridsAspect_data()
{
    QTest::addColumn<QString>("grid");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("across");
    QTest::newRow("square grid, wide view: 3 across") << u"32,32"_s << QSize(1400, 800) << 3;
    QTest::newRow("wide grid, wide view: 2 across") << u"16,64"_s << QSize(1400, 800) << 2;
    QTest::newRow("tall grid, tall view: 3 across") << u"48,16"_s << QSize(700, 1100) << 3;
    QTest::newRow("square grid, tall view: 2 across") << u"32,32"_s << QSize(700, 1100) << 2;
}

void TestRope2dSimilarityFigure::panelsKeepTheGridsAspect()
{
    QFETCH(QString, grid);
    QFETCH(QSize, size);
    QFETCH(int, across);
    const Params p = rope2d(u"flux"_s, grid, u"0,0"_s);
    const auto built = FigureBuilds::build(u"rope-2d-similarity"_s, p, FigureSize::fromPixels(size));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QList<QCPAxisRect *> rects = FigureBuild::plotRects(*built->plot());
    QCOMPARE(rects.size(), 6);
    const double aspect = double(p.sincos2d.grid[1]) / double(p.sincos2d.grid[0]);
    QSet<int> lefts;
    for (const QCPAxisRect *rect : rects) {
        // A patch is square: the rect's sides in the grid's ratio, to a pixel's rounding.
        const QRect r = rect->rect();
        QVERIFY2(std::abs(r.width() - aspect * r.height()) <= 1.0 + aspect,
                 qPrintable(u"%1 x %2 for %3"_s.arg(r.width()).arg(r.height()).arg(aspect)));
        lefts.insert(r.center().x() / 20);
    }
    QCOMPARE(lefts.size(), across);
}

void TestRope2dSimilarityFigure::figureIsRegisteredAndExports()
{
    const FigureSize size = FigureSize::fromPixels(QSize(1200, 700));
    const auto built = FigureBuilds::build(u"rope-2d-similarity"_s, rope2d(u"pixtral"_s, u"32,32"_s, u"16,16"_s), size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(1200, 700));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"grid 32 × 32, patch (16, 16), q all ones"_s), qPrintable(texts));
    QVERIFY2(texts.contains(u"M-RoPE chunked 16,24,24"_s), qPrintable(texts));
    const auto &model = FigureBuilds::figure(u"rope-2d-similarity"_s).model();
    QCOMPARE(model.inputs({}), QList<Quantity> {Quantity::Rope2dScore});
    const auto problems = model.check(Params(), {});
    QCOMPARE(problems.size(), 1);
    QCOMPARE(problems[0].key, u"encoding"_s);
    QVERIFY(problems[0].allowed.contains(u"rope-2d"_s));
}

void TestRope2dSimilarityFigure::stylesFitASlide()
{
    RelativeSlides::check(u"rope-2d-similarity"_s,
                          {{u"qwen-vit"_s, rope2d(u"qwen-vit"_s, u"32,32"_s, u"16,16"_s)},
                           {u"flux-wide"_s, rope2d(u"flux"_s, u"16,48"_s, u"8,10"_s)}});
}

POSENC_TEST_MAIN(TestRope2dSimilarityFigure)
} // namespace tst_rope2dsimilarityfigure
#include "tst_rope2dsimilarityfigure.moc"
