// A lesson's figure on a 14-pt slide draws every family its text names, for the lesson's own model
// and every shipped preset it applies to, as posenc export --lesson NAME --preset P --size slide
// --font-size 14 builds it. The families lesson's slide held six of its eight panels while its text
// went through all eight, DeBERTa's and Sandwich's among those left out. And the special rows a
// dropout figure names are the model's own: dropout-on-sum named [CLS] at 0 and [SEP] at 63 for
// Transformer base, Whisper's encoder and MAE, which has a cls row only.
#include "cli/LessonOptions.h"
#include "cli/LessonPage.h"
#include "cli/ParamOptions.h"
#include "support/TestMain.h"

#include "render/FigureRoom.h"
#include "render/TokenRoles.h"
#include "render/data/FamiliesModel.h"
#include "render/data/FamilyPanel.h"
#include "render/data/FigureText.h"
#include "support/FigureBuilds.h"

#include <QCommandLineParser>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <optional>

namespace tst_lessonfamilies {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// `lesson` read from the command line's `arguments` (after "posenc") as `posenc lessons` reads
// them; nothing where they do not parse.
std::optional<LessonOptions::Read> readLesson(const Lesson &lesson, const QStringList &arguments)
{
    QCommandLineParser parser;
    ParamOptions::add(parser);
    if (!parser.parse(QStringList {u"posenc"_s} + arguments))
        return std::nullopt;
    return LessonOptions::read(parser, lesson);
}

// A row for every preset.
void presetRows()
{
    QTest::addColumn<QString>("preset");
    for (const QString &preset : Presets::names())
        QTest::newRow(qPrintable(preset)) << preset;
}

} // namespace

class TestLessonFamilies : public QObject
{
    Q_OBJECT

private slots:
    void aSlideDrawsTheFamiliesItsTextNames_data();
    void aSlideDrawsTheFamiliesItsTextNames();
    void theSpecialRowsAreTheModels_data();
    void theSpecialRowsAreTheModels();
    void theFamiliesPanelsMaskAsTheModelAttends_data();
    void theFamiliesPanelsMaskAsTheModelAttends();
    void theDropoutSlidesSayWhosePIs_data();
    void theDropoutSlidesSayWhosePIs();
};

void TestLessonFamilies::aSlideDrawsTheFamiliesItsTextNames_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QStringList>("arguments");
    for (const Lesson &lesson : Lessons::all()) {
        const auto main = lesson.view().figure(lesson.mainView);
        if (!main || main->name != u"families"_s)
            continue;
        QTest::newRow(qPrintable(lesson.name)) << lesson.name << QStringList();
        for (const QString &preset : Presets::names())
            QTest::newRow(qPrintable(lesson.name + u" "_s + preset))
                << lesson.name << QStringList {u"--preset"_s, preset};
    }
}

void TestLessonFamilies::aSlideDrawsTheFamiliesItsTextNames()
{
    QFETCH(QString, lesson);
    QFETCH(QStringList, arguments);
    const Lesson &read = *Lessons::find(lesson);
    const auto parsed = readLesson(read, arguments);
    QVERIFY(parsed);
    const LessonOptions::Read &options = *parsed;
    if (options.result.exitCode() != 0)
        QSKIP("the lesson does not apply to this model");
    const LessonModel &model = options.model;
    const QString text = LessonText::plain(read.explain(model).html);
    const auto main = read.view(model.configName).figure(read.mainView);
    QVERIFY(main);
    const FigureSize slide = FigureSize::fromInches(QSizeF(25.4 / 2.54, 14.29 / 2.54), 150.0);
    FigureStyle style;
    style.fontPointSize = 14.0;
    const auto built = FigureBuilds::build(main->name, model.params, slide, FigureState::fromJson(main->state), style);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    // Each panel's name as drawn: its left axis's label, or where a room step moved it along its
    // tick labels or above its axis, that text (FigureRoom::shownLabel).
    QStringList drawn;
    for (const QCPAxisRect *rect : FigureBuild::plotRects(*built->plot()))
        drawn.append(FigureRoom::shownLabel(rect->axis(QCPAxis::atLeft)));
    for (const FamilySpec *family : FamiliesModel::panelFamilies()) {
        const FamilyPanel *panel = FamilyPanels::of(family->encoding);
        const QRegularExpression named(u"(^|[^\\w-])"_s + QRegularExpression::escape(panel->terseLabel) + u"\\b"_s);
        if (!named.match(text).hasMatch())
            continue;
        QVERIFY2(drawn.contains(panel->label) || drawn.contains(panel->terseLabel),
                 qPrintable(u"the text names %1, the slide draws %2: %3"_s.arg(panel->terseLabel,
                                                                                drawn.join(u", "_s), text)));
    }
}

void TestLessonFamilies::theSpecialRowsAreTheModels_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<bool>("drawn");
    for (const Lesson &lesson : Lessons::all()) {
        const QList<SessionView::Figure> views = lesson.view().views.value_or(QList<SessionView::Figure>());
        const bool dropout = std::any_of(views.cbegin(), views.cend(), [](const SessionView::Figure &figure) {
            return figure.name.startsWith(u"dropout"_s);
        });
        if (!dropout)
            continue;
        // Every preset's rows; a main figure that compares the modes, which names the rows in any
        // mode, drawn for the default and a model of each kind: an audio encoder, a patch table
        // with a cls row.
        const auto main = lesson.view().figure(lesson.mainView);
        const bool compares = main && main->name == u"dropout-compare"_s;
        QTest::newRow(qPrintable(lesson.name)) << lesson.name << QString() << compares;
        for (const QString &preset : Presets::names())
            QTest::newRow(qPrintable(lesson.name + u" "_s + preset))
                << lesson.name << preset
                << (compares && (preset == u"whisper-large-v3"_s || preset == u"mae-vit-b-16"_s));
    }
}

// The rows a lesson's dropout figures name are the special tokens the model has, as its preset
// says them: its "special" where it names it, a sin-cos patch table's cls row ("cls-token"),
// else none; the lesson's own only where it keeps them (masked-dropout's [MASK] at 5).
void TestLessonFamilies::theSpecialRowsAreTheModels()
{
    QFETCH(QString, lesson);
    QFETCH(QString, preset);
    QFETCH(bool, drawn);
    const Lesson &read = *Lessons::find(lesson);
    const auto parsed = readLesson(read, preset.isEmpty() ? QStringList() : QStringList {u"--preset"_s, preset});
    QVERIFY(parsed);
    const LessonOptions::Read &options = *parsed;
    if (options.result.exitCode() != 0)
        QSKIP("the lesson does not apply to this model");
    const Params &params = options.model.params;
    const Preset *model = Presets::find(preset.isEmpty() ? read.model : preset);
    const ParamTexts given = model ? model->params : ParamTexts();
    QString special = read.session.params.value(u"special"_s, u"0,-1"_s);
    if (model && !read.keep.contains(u"special"_s)) {
        const bool cls = given.value(u"encoding"_s) == u"sincos-2d"_s && given.value(u"cls-token"_s) == u"true"_s;
        special = given.value(u"special"_s, cls ? u"0"_s : u"none"_s);
    }
    // The rows expected, resolved against the sequence as the text names them.
    const std::int64_t n = params.sequenceLength();
    QList<std::int64_t> rows;
    if (special != u"none"_s) {
        for (const QString &part : special.split(u','))
            rows.append(part.toLongLong() < 0 ? n + part.toLongLong() : part.toLongLong());
    }
    std::sort(rows.begin(), rows.end());
    QList<std::int64_t> named;
    for (const TokenRole &role : TokenRoles::of(params))
        named.append(role.position);
    QCOMPARE(named, rows);
    const QString text = TokenRoles::text(params);
    QCOMPARE(text.contains(u"[SEP]"_s), rows.contains(n - 1) && n > 1);
    QCOMPARE(text.contains(u"[CLS]"_s), rows.contains(0));
    QCOMPARE(text.contains(u"no special token"_s), rows.isEmpty());
    if (!drawn)
        return;
    // The wide figure, as a 1920 x 1080 window draws it, says the same of its rows.
    const auto main = read.view(options.model.configName).figure(read.mainView);
    QVERIFY(main);
    const auto built = FigureBuilds::build(main->name, params, FigureSize::fromPixels(QSize(1600, 860)),
                                           FigureState::fromJson(main->state));
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    const QString all = FigureBuilds::texts(*built->plot()).join(u' ');
    QVERIFY2(all.contains(text), qPrintable(text + u" not in "_s + all));
    QCOMPARE(all.contains(u"[SEP]"_s), text.contains(u"[SEP]"_s));
}

void TestLessonFamilies::theFamiliesPanelsMaskAsTheModelAttends_data()
{
    presetRows();
}

// The families lesson's figure for each preset masks the keys after the query as the model does:
// none for a model its preset says attends both ways ("attention": "both-ways": MAE's ViT, whose
// models_mae.py Block runs timm's Attention unmasked; ModernBERT, DiT, the encoders), not even in
// the families whose own mask is causal (NoPE, ALiBi, Sandwich, KERPLE), each drawn as the encoder
// would run it; all of them for a model its preset leaves causal. Read from the figure's data.
void TestLessonFamilies::theFamiliesPanelsMaskAsTheModelAttends()
{
    QFETCH(QString, preset);
    const Lesson &read = *Lessons::find(u"families"_s);
    const auto parsed = readLesson(read, {u"--preset"_s, preset});
    QVERIFY(parsed);
    const LessonOptions::Read &options = *parsed;
    if (options.result.exitCode() != 0)
        QSKIP("the lesson does not apply to this model");
    const Params &params = options.model.params;
    // The preset's own word, independent of how posenc derives the mask from it.
    const bool bothWays = Presets::find(preset)->params.value(u"attention"_s) == u"both-ways"_s;
    if (!bothWays && Families::spec(params.encoding).bothWays(params))
        QSKIP("the family's own parameters set the mask");
    const std::int64_t q = FamiliesModel::defaultQuery(params), last = params.maxLen - 1 - q;
    const auto d = FamiliesModel::compute(params, q, -double(q) - 0.5, double(last) + 0.5, 400, nullptr);
    QVERIFY(d);
    for (const Encoding family : {Encoding::None, Encoding::Alibi, Encoding::Sandwich, Encoding::Kerple}) {
        const FamilyPanelData *panel = d->panel(family);
        QVERIFY(panel && !panel->problem);
        QVERIFY2(panel->maskedAfterQuery != bothWays, qPrintable(Families::word(family)));
        if (!bothWays)
            continue;
        // Drawn past the query, and both ways the bias of a key after it is that of the key as far
        // before it: ALiBi's −m·|k| (symmetric), KERPLE's −r1·log(1 + r2·|k|), Sandwich's on |k|.
        const FamilyCurve &curve = panel->lines.isEmpty() ? panel->curve : panel->lines.front().curve;
        QVERIFY2(!curve.offset.isEmpty() && curve.offset.back() > double(last) / 2.0,
                 qPrintable(Families::word(family)));
        if (family == Encoding::Alibi)
            QCOMPARE(curve.lo.back() / double(last), curve.lo.front() / double(q));
        if (family == Encoding::Kerple || family == Encoding::Sandwich)
            QVERIFY2(curve.lo.back() < 0.0, qPrintable(Families::word(family)));
    }
    const QString note = d->panel(Encoding::None)->note;
    QVERIFY2(note.contains(u"no order"_s) == bothWays, qPrintable(note));
}

void TestLessonFamilies::theDropoutSlidesSayWhosePIs_data()
{
    presetRows();
}

// The dropout figures' p on what-dropout-does' slide is the model's own where its preset names its
// "dropout", else the lesson's, which the title says (Qwen2.5, DiT and MAE drop nothing at their
// input: "p = 0.1" stood under their names as if it were theirs).
void TestLessonFamilies::theDropoutSlidesSayWhosePIs()
{
    QFETCH(QString, preset);
    const Lesson &read = *Lessons::find(u"what-dropout-does"_s);
    const auto parsed = readLesson(read, {u"--preset"_s, preset});
    QVERIFY(parsed);
    const LessonOptions::Read &options = *parsed;
    if (options.result.exitCode() != 0)
        QSKIP("the lesson does not apply to this model");
    const bool own = Presets::find(preset)->params.contains(u"dropout"_s);
    const QString owner = LessonModels::dropoutOwner(options.model);
    QCOMPARE(owner.isEmpty(), own);
    for (const QString &figure : {u"dropout-anatomy"_s, u"dropout-compare"_s, u"dropout"_s}) {
        FigureState state;
        if (!owner.isEmpty())
            state.options.insert(QString::fromUtf16(FigureText::kDropoutOwner), owner);
        const FigureSize wide = FigureSize::fromPixels(QSize(1600, 900));
        const auto built = FigureBuilds::build(figure, options.model.params, wide, state);
        QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
        const QString texts = FigureBuilds::texts(*built->plot()).join(u' ');
        const QString rate = u"p = %1"_s.arg(NumberText::compact(options.model.params.dropout));
        QVERIFY2(texts.contains(rate) && texts.contains(u"the lesson's"_s) != own,
                 qPrintable(figure + u": "_s + texts));
    }
}

POSENC_TEST_MAIN(TestLessonFamilies)
} // namespace tst_lessonfamilies
#include "tst_lessonfamilies.moc"
