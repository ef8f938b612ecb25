// The mrope-positions figure: every token's t, h and w ids against get_rope_index written in
// tests/support/MropeReference.h, its image and video spans, where the text after each starts,
// the first generated token at max + 1 (rope_deltas), an even sample of a prompt of a million
// tokens, and the figure at a window's size and as a 14-pt slide.
#include "render/FigureExporter.h"
#include "render/data/mrope/MropePositionsModel.h"
#include "support/TestMain.h"

#include "figures/RelativeSlides.h"
#include "support/FigureBuilds.h"
#include "support/MropeReference.h"

#include "core/Engine.h"
#include "core/ParamText.h"

#include <QTest>

namespace tst_mropepositionsfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params mrope(const QString &prompt, const QString &vision, const QString &era)
{
    Params p;
    p.encoding = Encoding::Mrope;
    const QList<std::pair<QString, QString>> values
        = {{u"prompt"_s, prompt}, {u"vision-positions"_s, vision}, {u"mrope-era"_s, era}};
    for (const auto &[key, text] : values) {
        if (const auto error = ParamText::set(p, key, text))
            qFatal("%s", qPrintable(error->sentence()));
    }
    return p;
}

// The prompt of the examples, text:5,image:1x4x6,text:3,video:2x4x4,text:2, the video at the
// default 1 s a grid.
const std::vector<mroperef::Segment> kPrompt
    = {{0, 5, 0, 0, 0, 0.0}, {1, 0, 1, 4, 6, 0.0}, {0, 3, 0, 0, 0, 0.0}, {2, 0, 2, 4, 4, 1.0}, {0, 2, 0, 0, 0, 0.0}};

} // namespace

class TestMropePositionsFigure : public QObject
{
    Q_OBJECT

private slots:
    void idsAreTheReferences_data();
    void idsAreTheReferences();
    void aMillionTokensAreSampled();
    void figureIsRegisteredAndExports();
    void qwenRulesFitASlide();
};

void TestMropePositionsFigure::idsAreTheReferences_data()
{
    QTest::addColumn<QString>("vision");
    QTest::addColumn<QString>("era");
    for (const QString &vision : {u"qwen2-vl"_s, u"qwen2.5-vl"_s, u"qwen3-vl"_s})
        for (const QString &era : {u"v4"_s, u"v5"_s})
            QTest::newRow(qPrintable(vision + u' ' + era)) << vision << era;
}

void TestMropePositionsFigure::idsAreTheReferences()
{
    QFETCH(QString, vision);
    QFETCH(QString, era);
    const Params p = mrope(u"text:5,image:1x4x6,text:3,video:2x4x4,text:2"_s, vision, era);
    const MropePositionsData d = MropePositionsModel::compute(Engine(p));
    // Defaults: merge 2, 2 tokens a second, 1 s a grid, timestamps of 6 tokens.
    const mroperef::Table want = mroperef::ropeIndex(kPrompt, vision, era, 2, 2.0, 6);
    QCOMPARE(d.tokens, std::int64_t(want.t.size()));
    QVERIFY(!d.sampled);
    QCOMPARE(d.rows.size(), qsizetype(want.t.size()));
    std::int64_t most = 0;
    for (qsizetype i = 0; i < d.rows.size(); ++i) {
        QCOMPARE(d.rows[i], double(i));
        QCOMPARE(d.t[i], double(want.t[std::size_t(i)]));
        QCOMPARE(d.h[i], double(want.h[std::size_t(i)]));
        QCOMPARE(d.w[i], double(want.w[std::size_t(i)]));
        most = std::max({most, want.t[std::size_t(i)], want.h[std::size_t(i)], want.w[std::size_t(i)]});
    }
    QCOMPARE(d.maxId, most);
    QCOMPARE(d.ropeDelta, most + 1 - d.tokens);
    // Each vision span, and the text after it starting where the reference puts it.
    QList<MropePositionsData::Span> spans;
    QList<double> startRows, startIds;
    for (std::size_t i = 0; i < want.kind.size(); ++i) {
        const bool vision = want.kind[i] != 0;
        const bool first = i == 0 || want.kind[i - 1] != want.kind[i];
        if (vision && first)
            spans.append({std::int64_t(i), std::int64_t(i) + 1, want.kind[i] == 2});
        else if (vision)
            spans.back().end = std::int64_t(i) + 1;
        if (!vision && first && i > 0) {
            startRows.append(double(i));
            startIds.append(double(want.t[i]));
        }
    }
    QCOMPARE(d.spans.size(), spans.size());
    for (qsizetype s = 0; s < spans.size(); ++s) {
        QCOMPARE(d.spans[s].first, spans[s].first);
        QCOMPARE(d.spans[s].end, spans[s].end);
        QCOMPARE(d.spans[s].video, spans[s].video);
    }
    QCOMPARE(d.startRows, startRows);
    QCOMPARE(d.startIds, startIds);
}

void TestMropePositionsFigure::aMillionTokensAreSampled()
{
    const Params p = mrope(u"text:999000,image:1x64x64,text:24"_s, u"qwen2-vl"_s, u"v4"_s);
    const MropePositionsData d = MropePositionsModel::compute(Engine(p));
    QCOMPARE(d.tokens, 999000 + 32 * 32 + 24);
    QVERIFY(d.sampled);
    QCOMPARE(d.rows.size(), qsizetype(MropePositionsData::kMaxPoints));
    QCOMPARE(d.rows.front(), 0.0);
    QCOMPARE(d.rows.back(), double(d.tokens - 1));
    // The last token: 24 text tokens after an image of 32 x 32 merged patches at 999000.
    QCOMPARE(d.t.back(), double(999000 + 32 + 23));
    QCOMPARE(d.maxId, 999000 + 32 + 23);
    QCOMPARE(d.spans.size(), 1);
    QCOMPARE(d.startIds, QList<double> {999000.0 + 32.0});
}

void TestMropePositionsFigure::figureIsRegisteredAndExports()
{
    const FigureSize size = FigureSize::fromPixels(QSize(1000, 600));
    const Params p = mrope(u"text:5,image:1x4x6,text:3,video:2x4x4,text:2"_s, u"qwen2.5-vl"_s, u"v4"_s);
    const auto built = FigureBuilds::build(u"mrope-positions"_s, p, size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(1000, 600));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"qwen2.5-vl, transformers v4"_s), qPrintable(texts));
    QVERIFY2(texts.contains(u"24 tokens, rope_deltas = −8"_s), qPrintable(texts));
    const auto &model = FigureBuilds::figure(u"mrope-positions"_s).model();
    QCOMPARE(model.inputs({}), QList<Quantity> {Quantity::MropePositions});
    const auto problems = model.check(Params(), {});
    QCOMPARE(problems.size(), 1);
    QCOMPARE(problems[0].key, u"encoding"_s);
    QVERIFY(problems[0].allowed.contains(u"mrope"_s));
}

void TestMropePositionsFigure::qwenRulesFitASlide()
{
    const QString prompt = u"text:5,image:1x4x6,text:3,video:2x4x4,text:2"_s;
    RelativeSlides::check(u"mrope-positions"_s,
                          {{u"qwen2.5-vl"_s, mrope(prompt, u"qwen2.5-vl"_s, u"v4"_s)},
                           {u"qwen3-vl"_s, mrope(prompt, u"qwen3-vl"_s, u"v5"_s)},
                           {u"long"_s, mrope(u"text:4000,image:2x64x64,text:8"_s, u"qwen2-vl"_s, u"v4"_s)}});
}

POSENC_TEST_MAIN(TestMropePositionsFigure)
} // namespace tst_mropepositionsfigure
#include "tst_mropepositionsfigure.moc"
