// Lesson files: what makes a session a lesson, what is refused and why, and the lessons shipped
// in the program (resources/lessons through posenc.qrc): at least eight, each reading, with valid
// parameters, an explanation in 3 to 8 short steps (list items, each alternative of one or two
// sentences) whose every {key} is a number LessonNumbers knows, its own model a preset's.
#include "io/Lesson.h"
#include "io/LessonModels.h"
#include "support/TestMain.h"

#include "check/models/LayerLessonNumbers.h"
#include "core/LessonNumbers.h"
#include "core/ParamText.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace tst_lesson {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

QByteArray lessonJson(const QByteArray &block, const QByteArray &view = R"({"views": [{"figure": "heatmap"}]})")
{
    return R"({"format": "posenc-session", "version": 1, "params": {"d-model": "64"}, "view": )" + view
        + R"(, "lesson": )" + block + "}";
}

const QByteArray kGoodBlock
    = R"({"name": "a-lesson", "order": 3, "title": "T", "question": "Q?", "explanation": "E {d}.", "main": 0})";

// Sentences of a text: without markup, split after '.', '?' or '!' that end a word ("section 3.4"
// is not an end).
int sentences(QString text)
{
    text.remove(QRegularExpression(u"<[^>]*>"_s));
    static const QRegularExpression end(u"[.?!](\\s|$)"_s);
    return static_cast<int>(text.trimmed().count(end));
}

QByteArray itemsBlock(const QByteArray &explanation, const QByteArray &more = {})
{
    return R"({"name": "a", "order": 1, "title": "T", "question": "Q?", "explanation": )" + explanation + more
        + R"(, "main": 0})";
}

} // namespace

class TestLesson : public QObject
{
    Q_OBJECT

private slots:
    void readsALesson();
    void readsItemsAndTheirAlternatives();
    void showsTheFirstAlternativeTheModelFills();
    void readsTheModelItKeepsAndNeeds();
    void refusalNamesEveryFamilyItTakes();
    void refusesWhatIsNotALesson_data();
    void refusesWhatIsNotALesson();
    void aPlainSessionKeepsItsBytesAndALessonItsBlock();
    void theProgramShipsAtLeastEightLessons();
    void everyShippedLessonReadsAndValidates();
    void everyFileOfTheFolderIsShipped();
    void everyShippedLessonNamesItsFamily();
};

void TestLesson::readsALesson()
{
    const auto read = Lessons::parse(lessonJson(kGoodBlock), u"x.json"_s);
    QVERIFY(std::holds_alternative<Lesson>(read));
    const Lesson &lesson = std::get<Lesson>(read);
    QCOMPARE(lesson.name, u"a-lesson"_s);
    QCOMPARE(lesson.order, 3);
    QCOMPARE(lesson.title, u"T"_s);
    QCOMPARE(lesson.question, u"Q?"_s);
    QCOMPARE(lesson.text.raw, u"E {d}."_s);
    QVERIFY(lesson.model.isEmpty() && lesson.keep.isEmpty() && lesson.needs.isEmpty());
    QVERIFY(lesson.code.isEmpty());
    QCOMPARE(lesson.mainFigure(), u"heatmap"_s);
    QCOMPARE(lesson.session.params.value(u"d-model"_s), u"64"_s);
    const auto params = lesson.params();
    QVERIFY(std::holds_alternative<Params>(params));
    QCOMPARE(std::get<Params>(params).dModel, 64);
}

void TestLesson::readsItemsAndTheirAlternatives()
{
    const auto read = Lessons::parse(
        lessonJson(itemsBlock(R"(["One {d}.", ["Two {rope_pairs}.", {"needs": ["is_alibi"], "text": "Three."}, ""]])",
                              R"(, "note": "{dropout_note}")")),
        u"x.json"_s);
    QVERIFY(std::holds_alternative<Lesson>(read));
    const LessonText &text = std::get<Lesson>(read).text;
    QVERIFY(text.raw.isEmpty());
    QCOMPARE(text.items.size(), 2);
    QCOMPARE(text.items[0].size(), 1);
    QCOMPARE(text.items[1].size(), 3);
    QCOMPARE(text.items[1][1].needs, QStringList {u"is_alibi"_s});
    QCOMPARE(text.items[1][1].text, u"Three."_s);
    QVERIFY(text.items[1][1].panels.isEmpty());
    QVERIFY(text.items[1][2].text.isEmpty());
    QCOMPARE(text.note.size(), 1);
}

// A number the model lacks is never a hole in a sentence: its alternative is not shown, the next
// one is, and an item none of whose alternatives the model fills is listed as unfilled.
void TestLesson::showsTheFirstAlternativeTheModelFills()
{
    const auto read = Lessons::parse(
        lessonJson(itemsBlock(
            R"(["d is {d}.", ["It has {rope_pairs} pairs.", {"needs": ["is_alibi"], "text": "ALiBi."}, ""],
                ["Slope {alibi_slope_1}.", "No slope."], [{"needs": ["is_rope"], "text": "Only RoPE."}]])",
            R"(, "note": "{Model} here.")")),
        u"x.json"_s);
    const Lesson &lesson = std::get<Lesson>(read);
    Params rope;
    rope.encoding = Encoding::Rope;
    rope.dModel = 64;
    const LessonText::Rendered forRope = lesson.explain({rope, u"Some Model"_s, {}, {}, {}, {}});
    QCOMPARE(
        forRope.items,
        (QStringList {u"d is 64."_s, u"It has 64 pairs."_s, u"Slope 0.5."_s, u"Only RoPE."_s, u"Some Model here."_s}));
    QVERIFY(forRope.unfilled.isEmpty());
    Params alibi = rope;
    alibi.encoding = Encoding::Alibi;
    const LessonText::Rendered forAlibi = lesson.explain({alibi, {}, {}, {}, {}, {}});
    QCOMPARE(forAlibi.items, (QStringList {u"d is 64."_s, u"ALiBi."_s, u"Slope 0.5."_s, u"This model here."_s}));
    QCOMPARE(forAlibi.unfilled, QStringList {u"item 4: is_rope"_s});
    QVERIFY(!forAlibi.html.contains(u"not here"_s));
    Params sinusoid = rope;
    sinusoid.encoding = Encoding::Sinusoidal;
    const LessonText::Rendered forSinusoid = lesson.explain({sinusoid, {}, {}, {}, {}, {}});
    // "" says nothing: the item is left out of the list, not unfilled.
    QCOMPARE(forSinusoid.items.first(), u"d is 64."_s);
    QCOMPARE(forSinusoid.items[1], u"Slope 0.5."_s);
    QVERIFY(!forSinusoid.unfilled.join(u' ').contains(u"item 2"_s));
}

void TestLesson::readsTheModelItKeepsAndNeeds()
{
    const auto read
        = Lessons::parse(lessonJson(itemsBlock(R"(["{d}."])", R"(, "model": "llama-3-1-8b", "keep": ["max-len"],
                              "needs": {"keys": ["is_rope"], "what": "a RoPE model"})")),
                         u"x.json"_s);
    QVERIFY(std::holds_alternative<Lesson>(read));
    const Lesson &lesson = std::get<Lesson>(read);
    QCOMPARE(lesson.model, u"llama-3-1-8b"_s);
    QCOMPARE(lesson.keep, QStringList {u"max-len"_s});
    // Its parameters are its own model's, but for the length it keeps (its "params" give d_model 64
    // and the default max_len).
    const auto params = lesson.params();
    QVERIFY(std::holds_alternative<Params>(params));
    QCOMPARE(std::get<Params>(params).dModel, 4096);
    QCOMPARE(std::get<Params>(params).maxLen, Params {}.maxLen);
    QCOMPARE(std::get<Params>(params).rope.type, RopeType::Llama3);
    const LessonModel model
        = LessonModels::model(std::get<Params>(params), {*LessonModels::defaultOf(lesson)}, lesson.keep);
    QCOMPARE(model.name, u"Llama 3.1 8B"_s);
    QVERIFY(!lesson.refusal(model));
    Params t5 = std::get<Params>(params);
    t5.encoding = Encoding::T5;
    const auto refused = lesson.refusal({t5, u"T5-base"_s, {}, {}, {}, {}});
    QVERIFY(refused);
    QCOMPARE(*refused, u"the lesson a needs a RoPE model: for T5-base, its encoding is t5, not rope"_s);
}

void TestLesson::refusalNamesEveryFamilyItTakes()
{
    // A lesson that takes either of two families says both where the model has neither, and says
    // nothing where it has one of them.
    const auto read = Lessons::parse(lessonJson(itemsBlock(R"(["{d}."])", R"(, "model": "llama-3-1-8b",
                              "needs": {"any": ["is_sinusoidal", "is_rope"], "what": "angles"})")),
                                     u"x.json"_s);
    QVERIFY(std::holds_alternative<Lesson>(read));
    const Lesson &lesson = std::get<Lesson>(read);
    Params t5;
    t5.encoding = Encoding::T5;
    const auto refused = lesson.refusal({t5, u"T5-base"_s, {}, {}, {}, {}});
    QVERIFY(refused);
    QCOMPARE(*refused, u"the lesson a needs angles: for T5-base, its encoding is t5, not sinusoidal or rope"_s);
    for (const Encoding taken : {Encoding::Sinusoidal, Encoding::Rope}) {
        Params p;
        p.encoding = taken;
        QVERIFY(!lesson.refusal({p, u"M"_s, {}, {}, {}, {}}));
    }
}

void TestLesson::refusesWhatIsNotALesson_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("reason");
    QTest::newRow("a plain session") << QByteArray(R"({"format": "posenc-session", "version": 1, "params": {}})")
                                     << u"no \"lesson\" block"_s;
    QTest::newRow("lesson not an object") << lessonJson("[1]") << u"\"lesson\" must be an object"_s;
    QTest::newRow("name with a space") << lessonJson(R"({"name": "a lesson", "title": "T", "question": "Q",
                                          "explanation": "E", "main": 0})")
                                       << u"\"name\" must be lowercase words"_s;
    QTest::newRow("name in capitals") << lessonJson(R"({"name": "Sum", "title": "T", "question": "Q",
                                          "explanation": "E", "main": 0})")
                                      << u"\"name\" must be lowercase words"_s;
    QTest::newRow("no title") << lessonJson(R"({"name": "a", "question": "Q", "explanation": "E", "main": 0})")
                              << u"\"title\" must be a text"_s;
    QTest::newRow("empty question") << lessonJson(R"({"name": "a", "title": "T", "question": " ",
                                       "explanation": "E", "main": 0})")
                                    << u"\"question\" must be a text"_s;
    QTest::newRow("main past the views") << lessonJson(R"({"name": "a", "title": "T", "question": "Q",
                                            "explanation": "E", "main": 1})")
                                         << u"\"main\" must be the index of a view"_s;
    QTest::newRow("no views") << lessonJson(kGoodBlock, "{}") << u"\"main\" must be the index of a view"_s;
    QTest::newRow("main far past the views") << lessonJson(R"({"name": "a", "title": "T", "question": "Q",
                                                "explanation": "E", "main": 99})")
                                             << u"(0 to 0); got 99"_s;
    QTest::newRow("an explanation that reads a device") << lessonJson(
        R"({"name": "a", "title": "T", "question": "Q", "explanation": "<img src=/dev/zero>", "main": 0})")
                                                        << u"\"explanation\" uses <img src=/dev/zero>"_s;
    QTest::newRow("an explanation of tables") << lessonJson(
        R"({"name": "a", "title": "T", "question": "Q", "explanation": "<table><tr><td>x</td></tr></table>",
                      "main": 0})") << u"\"explanation\" uses <table>"_s;
    QTest::newRow("a title too long") << lessonJson(R"({"name": "a", "title": ")" + QByteArray(201, 'T')
                                                    + R"(", "question": "Q", "explanation": "E", "main": 0})")
                                      << u"\"title\" is 201 characters long; it may hold at most 200"_s;
    QTest::newRow("a question too long") << lessonJson(R"({"name": "a", "title": "T", "question": ")"
                                                       + QByteArray(1001, 'Q') + R"(", "explanation": "E", "main": 0})")
                                         << u"\"question\" is 1001 characters long"_s;
    QTest::newRow("an explanation too long")
        << lessonJson(R"({"name": "a", "title": "T", "question": "Q", "explanation": ")" + QByteArray(16385, 'E')
                      + R"(", "main": 0})")
        << u"\"explanation\" is 16385 characters long"_s;
    QTest::newRow("an item of no alternative")
        << lessonJson(itemsBlock(R"(["A.", []])")) << u"item 2: an item lists at least one alternative"_s;
    QTest::newRow("an alternative of other keys")
        << lessonJson(itemsBlock(R"([{"text": "A.", "when": ["x"]}])"))
        << u"an alternative has only \"needs\", \"panels\" and \"text\"; got \"when\""_s;
    QTest::newRow("a panel of no figure's name")
        << lessonJson(itemsBlock(R"([{"panels": ["The Heatmap"], "text": "A."}])"))
        << u"\"panels\" lists FIGURE or \"FIGURE: words of a panel's title or axis label\", each a text"_s;
    QTest::newRow("an alternative's markup") << lessonJson(itemsBlock(R"([["A.", "<img src=/dev/zero>"]])"))
                                             << u"\"explanation\" uses <img src=/dev/zero>"_s;
    QTest::newRow("a model that is no preset")
        << lessonJson(itemsBlock(R"(["A."])", R"(, "model": "gpt-9")")) << u"\"model\" must name a preset"_s;
    QTest::newRow("keep of no parameter") << lessonJson(itemsBlock(R"(["A."])", R"(, "keep": ["colour"])"))
                                          << u"\"keep\" must list parameter keys; got \"colour\""_s;
    QTest::newRow("needs without words") << lessonJson(itemsBlock(R"(["A."])", R"(, "needs": {"keys": ["is_rope"]})"))
                                         << u"\"needs\" must be"_s;
    QTest::newRow("code too long") << lessonJson(R"({"name": "a", "title": "T", "question": "Q", "explanation": "E",
                                                 "code": ")"
                                                 + QByteArray(4001, 'c') + R"(", "main": 0})")
                                   << u"\"code\" is 4001 characters long; it may hold at most 4000"_s;
    // The window shows one alternative: each is bounded, and so is their number.
    const QByteArray alternative = R"({"needs": ["is_rope"], "text": "c"})";
    QByteArray seventeen = alternative;
    for (int i = 1; i < 17; ++i)
        seventeen += ", " + alternative;
    QTest::newRow("too many alternatives")
        << lessonJson(R"({"name": "a", "title": "T", "question": "Q", "explanation": "E", "code": [)" + seventeen
                      + R"(], "main": 0})")
        << u"\"code\" has 17 alternatives; it may have at most 16"_s;
    QTest::newRow("an alternative too long")
        << lessonJson(R"({"name": "a", "title": "T", "question": "Q", "explanation": "E", "code": [)" + alternative
                      + R"(, {"text": ")" + QByteArray(4001, 'c') + R"("}], "main": 0})")
        << u"\"code\"'s longest alternative is 4001 characters long; it may hold at most 4000"_s;
}

void TestLesson::refusesWhatIsNotALesson()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, reason);
    const auto read = Lessons::parse(json, u"bad.json"_s);
    QVERIFY(std::holds_alternative<SessionError>(read));
    const SessionError &error = std::get<SessionError>(read);
    QCOMPARE(error.path, u"bad.json"_s);
    QVERIFY2(error.reason.contains(reason), qPrintable(error.reason));
}

void TestLesson::aPlainSessionKeepsItsBytesAndALessonItsBlock()
{
    Session plain;
    plain.params.insert(u"d-model"_s, u"64"_s);
    QVERIFY(!plain.toJson().contains("lesson"));
    const auto lesson = Lessons::parse(lessonJson(kGoodBlock), u"x.json"_s);
    const Session &session = std::get<Lesson>(lesson).session;
    const auto again = Lessons::parse(session.toJson(), u"y.json"_s);
    QVERIFY(std::holds_alternative<Lesson>(again));
    QCOMPARE(std::get<Lesson>(again).session, session);
}

void TestLesson::theProgramShipsAtLeastEightLessons()
{
    for (const SessionError &error : Lessons::errors())
        qWarning() << error.toString();
    QVERIFY(Lessons::errors().isEmpty());
    QVERIFY2(Lessons::all().size() >= 8, qPrintable(QString::number(Lessons::all().size())));
    // The eight the program promises, each answering its question.
    for (const QString &name :
         {u"dropout-on-sum"_s, u"masked-dropout"_s, u"sum-vs-concat"_s, u"why-sqrt-d"_s, u"what-dropout-does"_s,
          u"frequencies"_s, u"relative-position"_s, u"float32-precision"_s})
        QVERIFY2(Lessons::find(name), qPrintable(name));
    QVERIFY(!Lessons::find(u"no-such-lesson"_s));
}

void TestLesson::everyShippedLessonReadsAndValidates()
{
    QSet<QString> names;
    QSet<int> orders;
    int previousOrder = -1;
    for (const Lesson &lesson : Lessons::all()) {
        const QString what = lesson.name;
        QVERIFY2(!names.contains(lesson.name), qPrintable(what));
        QVERIFY2(!orders.contains(lesson.order), qPrintable(what + u": order taken"_s));
        names.insert(lesson.name);
        orders.insert(lesson.order);
        QVERIFY2(lesson.order > previousOrder, qPrintable(what + u": listed out of order"_s));
        previousOrder = lesson.order;
        // The file is named after the lesson.
        const auto reread = Lessons::read(u"%1/%2.json"_s.arg(QString::fromUtf16(Lessons::kDirectory), lesson.name));
        QVERIFY2(std::holds_alternative<Lesson>(reread), qPrintable(what));
        const auto params = lesson.params();
        if (const auto *problems = std::get_if<QList<ParamError>>(&params))
            QFAIL(qPrintable(what + u": "_s + problems->front().key + u" "_s + problems->front().sentence()));
        // Read for its own model, every item is filled, each alternative one or two sentences.
        std::optional<ModelChoice> own = LessonModels::defaultOf(lesson);
        const LessonModel model = LessonModels::model(
            std::get<Params>(params), own ? QList<ModelChoice> {*own} : QList<ModelChoice> {}, lesson.keep);
        QVERIFY2(!lesson.refusal(model), qPrintable(what));
        const LessonText::Rendered text = lesson.explain(model);
        QVERIFY2(text.unfilled.isEmpty(), qPrintable(what + u": "_s + text.unfilled.join(u"; "_s)));
        QVERIFY2(!text.html.contains(u'{'), qPrintable(what));
        // Its own model is named, a preset's while the parameters are its own.
        QVERIFY2(!own || model.name == own->name, qPrintable(what));
        QVERIFY2(lesson.text.items.size() >= 3 && lesson.text.items.size() <= 8,
                 qPrintable(what + u": %1 steps"_s.arg(lesson.text.items.size())));
        for (const LessonText::Item &item : lesson.text.items) {
            for (const LessonText::Alternative &alternative : item) {
                QVERIFY2(alternative.text.isEmpty()
                             || (sentences(alternative.text) >= 1 && sentences(alternative.text) <= 2),
                         qPrintable(what + u": a step of "_s + alternative.text));
                const QList<LessonNumbers::Entry> &layers = LayerLessonNumbers::entries();
                for (const QString &key : LessonNumbers::keysIn(alternative.text, layers) + alternative.needs)
                    QVERIFY2(LessonNumbers::number(key, model, layers), qPrintable(what + u": not a number: "_s + key));
            }
        }
        QVERIFY2(lesson.question.endsWith(u'?'), qPrintable(what));
    }
}

// A lesson is about one encoding family and names it, so that its parameters stay its own when
// the window's family is another.
void TestLesson::everyShippedLessonNamesItsFamily()
{
    for (const Lesson &lesson : Lessons::all()) {
        QVERIFY2(lesson.session.params.contains(u"encoding"_s), qPrintable(lesson.name));
        const auto params = lesson.params();
        QVERIFY(std::holds_alternative<Params>(params));
        QCOMPARE(ParamText::get(std::get<Params>(params), u"encoding"_s), lesson.session.params.value(u"encoding"_s));
    }
}

void TestLesson::everyFileOfTheFolderIsShipped()
{
    // resources/posenc.qrc lists every lesson of resources/lessons, byte for byte.
    const QString folder = QFINDTESTDATA("../../resources/lessons");
    QVERIFY(!folder.isEmpty());
    const QStringList onDisk = QDir(folder).entryList({u"*.json"_s}, QDir::Files, QDir::Name);
    const QDir shippedFolder(QString::fromUtf16(Lessons::kDirectory));
    QCOMPARE(shippedFolder.entryList({u"*.json"_s}, QDir::Files, QDir::Name), onDisk);
    for (const QString &name : onDisk) {
        QFile disk(QDir(folder).filePath(name));
        QFile shipped(shippedFolder.filePath(name));
        QVERIFY(disk.open(QIODevice::ReadOnly) && shipped.open(QIODevice::ReadOnly));
        QCOMPARE(shipped.readAll(), disk.readAll());
    }
}

POSENC_TEST_GUILESS_MAIN(TestLesson)
} // namespace tst_lesson
#include "tst_lesson.moc"
