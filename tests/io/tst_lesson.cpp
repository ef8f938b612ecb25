// Lesson files: what makes a session a lesson, what is refused and why, and the lessons shipped
// in the program (resources/lessons through posenc.qrc): at least eight, each reading, with valid
// parameters, an explanation in 3 to 8 short steps (list items of one or two sentences) whose
// every {key} is a number LessonNumbers knows.
#include "io/Lesson.h"

#include "check/models/ModelLessonNumbers.h"
#include "core/LessonNumbers.h"
#include "core/ParamText.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

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

// The steps of an explanation: its list items, the live note aside.
QStringList steps(const QString &explanation)
{
    QStringList items;
    static const QRegularExpression item(u"<li>(.*?)</li>"_s);
    for (auto match = item.globalMatch(explanation); match.hasNext();)
        items.append(match.next().captured(1));
    return items;
}

} // namespace

class TestLesson : public QObject
{
    Q_OBJECT

private slots:
    void readsALesson();
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
    QCOMPARE(lesson.explanation, u"E {d}."_s);
    QVERIFY(lesson.code.isEmpty());
    QCOMPARE(lesson.mainFigure(), u"heatmap"_s);
    QCOMPARE(lesson.session.params.value(u"d-model"_s), u"64"_s);
    const auto params = lesson.params();
    QVERIFY(std::holds_alternative<Params>(params));
    QCOMPARE(std::get<Params>(params).dModel, 64);
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
        << u"\"explanation\" is 16385 characters long; it may hold at most 16384"_s;
    QTest::newRow("code too long") << lessonJson(R"({"name": "a", "title": "T", "question": "Q", "explanation": "E",
                                                 "code": ")"
                                                 + QByteArray(4001, 'c') + R"(", "main": 0})")
                                   << u"\"code\" is 4001 characters long; it may hold at most 4000"_s;
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
        QStringList unknown;
        const QString filled = LessonNumbers::fill(lesson.explanation, std::get<Params>(params), false, &unknown,
                                                    ModelLessonNumbers::entries());
        QVERIFY2(unknown.isEmpty(), qPrintable(what + u": not numbers: "_s + unknown.join(u", "_s)));
        QVERIFY2(!filled.contains(u'{'), qPrintable(what));
        const QStringList items = steps(lesson.explanation);
        QVERIFY2(items.size() >= 3 && items.size() <= 8, qPrintable(what + u": %1 steps"_s.arg(items.size())));
        for (const QString &item : items)
            QVERIFY2(sentences(item) >= 1 && sentences(item) <= 2, qPrintable(what + u": a step of "_s + item));
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

QTEST_GUILESS_MAIN(TestLesson)
#include "tst_lesson.moc"
