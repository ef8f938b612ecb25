// Session files: what is saved reopens to the same parameters and saves to the same bytes, and a
// file that is not a session of a known version is refused with its reason, changing nothing.
#include "core/ParamText.h"
#include "core/Params.h"
#include "io/SessionFile.h"
#include "support/TestMain.h"

#include "support/TestFiles.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace tst_sessionfile {
using namespace Qt::StringLiterals;
using namespace TestFiles;
using namespace posenc;

namespace {

// Every parameter away from its default, so that a key lost on the way shows.
Params unusualParams()
{
    Params p;
    p.dModel = 77;
    p.maxLen = 3000;
    p.sinusoidal.base = 500.5;
    p.sinusoidal.layout = Layout::Split;
    p.sinusoidal.angles = Angles::Float32;
    p.scaleKind = ScaleKind::Custom;
    p.customScale = 0.125;
    p.init = InitKind::Custom;
    p.customSigma = 0.02;
    p.compose = Compose::Concat;
    p.peDims = 12;
    p.dropout = 0.3;
    p.dropoutMode = DropoutMode::ProtectSpecial;
    p.special = {0, 5, -1};
    p.seqLen = 2000;
    p.seed = 123456789012345ull;
    p.training = false;
    p.memoryBudget = std::uint64_t(3) << 30;
    return p;
}

Params applied(const Session &session)
{
    Params p;
    for (auto it = session.params.cbegin(); it != session.params.cend(); ++it) {
        if (const auto error = ParamText::set(p, it.key(), it.value()))
            qWarning("%s", qPrintable(error->sentence()));
    }
    return p;
}

} // namespace

class TestSessionFile : public QObject
{
    Q_OBJECT

private slots:
    void everyParameterSurvivesTheRoundTrip_data();
    void everyParameterSurvivesTheRoundTrip();
    void saveOpenSaveGivesTheSameBytes();
    void viewStateIsKeptAsItIs();
    void refusedContent_data();
    void refusedContent();
    void unreadablePathNamesPathAndReason();
    void aPipeIsNotASessionFile();
    void oversizedFileIsRefusedBeforeReading();
    void unwritablePathLeavesNothing();
};

void TestSessionFile::everyParameterSurvivesTheRoundTrip_data()
{
    QTest::addColumn<Params>("params");
    QTest::newRow("defaults") << Params();
    QTest::newRow("every parameter changed") << unusualParams();
    // The custom scale and sigma are only parameters while their kind is custom.
    Params autoDims = unusualParams();
    autoDims.peDims.reset();
    autoDims.seqLen.reset();
    autoDims.scaleKind = ScaleKind::One;
    autoDims.customScale = Params().customScale;
    autoDims.init = InitKind::ScaledNormal;
    autoDims.customSigma = Params().customSigma;
    QTest::newRow("unset optionals, named kinds") << autoDims;
}

void TestSessionFile::everyParameterSurvivesTheRoundTrip()
{
    QFETCH(Params, params);
    const Session saved = Session::fromParams(params);
    QCOMPARE(saved.params.keys().size(), ParamText::valueKeys().size());
    const auto reopened = parseSession(saved.toJson(), u"s.json"_s);
    QVERIFY(std::holds_alternative<Session>(reopened));
    QCOMPARE(std::get<Session>(reopened).params, saved.params);
    QVERIFY(applied(std::get<Session>(reopened)) == params);
}

void TestSessionFile::saveOpenSaveGivesTheSameBytes()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Session session = Session::fromParams(unusualParams());
    session.view.insert(u"colormap"_s, u"cividis"_s);
    session.view.insert(u"columns"_s, QJsonArray {0, 7, 63});
    const QString first = dir.filePath(u"first.json"_s);
    const QString second = dir.filePath(u"second.json"_s);
    QVERIFY(!writeSession(first, session));
    const auto opened = readSession(first);
    QVERIFY(std::holds_alternative<Session>(opened));
    QVERIFY(std::get<Session>(opened) == session);
    QVERIFY(!writeSession(second, std::get<Session>(opened)));
    QCOMPARE(readAll(second), readAll(first));
    QVERIFY(readAll(first).contains("\"format\": \"posenc-session\""));
}

void TestSessionFile::viewStateIsKeptAsItIs()
{
    const QByteArray json = R"({"format": "posenc-session", "version": 1, "params": {"d-model": "64"},
        "view": {"heatmap": {"x": [0, 511.5], "y": [10, 20]}, "colormap": "viridis"}})";
    const auto opened = parseSession(json, u"v.json"_s);
    QVERIFY(std::holds_alternative<Session>(opened));
    const Session &s = std::get<Session>(opened);
    QCOMPARE(s.params.value(u"d-model"_s), u"64"_s);
    QCOMPARE(s.params.size(), 1);
    QCOMPARE(s.view.value(u"colormap"_s).toString(), u"viridis"_s);
    QCOMPARE(s.view.value(u"heatmap"_s).toObject().value(u"x"_s).toArray().at(1).toDouble(), 511.5);
}

void TestSessionFile::refusedContent_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("message");
    const auto row = [](const char *name, const QByteArray &json, const QString &message) {
        QTest::newRow(name) << json << message;
    };
    row("empty file", "", u"not a session file: line 1, column 1"_s);
    row("not JSON", "d-model = 512\n", u"not a session file: line 1, column 2: illegal value"_s);
    row("truncated", "{\"format\": \"posenc-session\",\n \"version\": 1, \"params\": {", u"line 2"_s);
    row("array at the top", "[1, 2]", u"the top level is an array, not an object"_s);
    // Before: "illegal value", as if the file were not JSON.
    row("null at the top", "null", u"not a session file: the top level is null, not an object"_s);
    row("a number at the top", "1e3\n", u"not a session file: the top level is the number 1e3, not an object"_s);
    row("no format", R"({"version": 1, "params": {}})", u"\"format\" must be \"posenc-session\""_s);
    row("other format", R"({"format": "matplotlibrc", "version": 1, "params": {}})",
        u"\"format\" must be \"posenc-session\""_s);
    row("no version", R"({"format": "posenc-session", "params": {}})",
        u"\"version\" must be a whole number, got missing"_s);
    row("version as text", R"({"format": "posenc-session", "version": "1", "params": {}})",
        u"\"version\" must be a whole number, got a string"_s);
    row("fractional version", R"({"format": "posenc-session", "version": 1.5, "params": {}})",
        u"\"version\" must be a whole number, got a number"_s);
    row("newer version", R"({"format": "posenc-session", "version": 2, "params": {}})",
        u"session version 2 is not one this program reads (it reads version 1)"_s);
    row("unknown top-level key", R"({"format": "posenc-session", "version": 1, "params": {}, "extra": 0})",
        u"unknown key \"extra\" at the top level"_s);
    row("params missing", R"({"format": "posenc-session", "version": 1})",
        u"\"params\" must be an object, got missing"_s);
    row("params as a list", R"({"format": "posenc-session", "version": 1, "params": ["d-model", "512"]})",
        u"\"params\" must be an object, got an array"_s);
    row("unknown parameter", R"({"format": "posenc-session", "version": 1, "params": {"dmodel": "512"}})",
        u"\"dmodel\" is not a parameter; the nearest: d-model (posenc help parameters lists them)"_s);
    // Before: every one of the hundred parameters listed, a paragraph in the window's message.
    row("a key near none", R"({"format": "posenc-session", "version": 1, "params": {"frobnicate": "1"}})",
        u"\"frobnicate\" is not a parameter (posenc help parameters lists them)"_s);
    row("number value", R"({"format": "posenc-session", "version": 1, "params": {"d-model": 512}})",
        u"parameter \"d-model\" must be a string as on the command line (\"d-model\": \"...\"), got a number"_s);
    // Before: a key or a lesson's name of a megabyte echoed whole on the message's line.
    const QByteArray longKey(1000000, 'x');
    row("a long top-level key", R"({"format": "posenc-session", "version": 1, "params": {}, ")" + longKey + R"(": 0})",
        u"unknown key \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…\" (1000000 characters) at the top level"_s);
    row("a long parameter", R"({"format": "posenc-session", "version": 1, "params": {")" + longKey + R"(": "1"}})",
        u"…\" (1000000 characters) is not a parameter"_s);
    row("a key with a line end", R"({"format": "posenc-session", "version": 1, "params": {}, "a\nb": 0})",
        u"unknown key \"a\\nb\" at the top level"_s);
    row("view as text", R"({"format": "posenc-session", "version": 1, "params": {}, "view": "zoomed"})",
        u"\"view\" must be an object, got a string"_s);
    // The audit: a raw NUL inside a value was taken and cut the value short ("1\0" "6" read as 1).
    row("a raw NUL in a value",
        QByteArray("{\"format\": \"posenc-session\", \"version\": 1,\n\"params\": {\"d-model\": \"1\0006\"}}", 72),
        u"line 2, column 25: a NUL byte"_s);
    row("an escaped NUL in a value", R"({"format": "posenc-session", "version": 1, "params": {"seed": "7\u0000"}})",
        u"parameter \"seed\" holds the control character U+0000"_s);
    row("a line break in a value", R"({"format": "posenc-session", "version": 1, "params": {"seed": "7\n8"}})",
        u"parameter \"seed\" holds the control character U+000a"_s);
    // The audit: an invalid lesson block was dropped without a word; the file is refused with it.
    const QByteArray lesson = R"({"format": "posenc-session", "version": 1, "params": {},
        "view": {"views": [{"figure": "heatmap"}]}, "lesson": )";
    row("a lesson named with a space",
        lesson + R"({"name": "Bad Name", "title": "T", "question": "Q", "explanation": "E", "main": 0}})",
        u"\"name\" must be lowercase words joined by '-', got \"Bad Name\""_s);
    row("a lesson whose main view is not there",
        lesson + R"({"name": "a", "title": "T", "question": "Q", "explanation": "E", "main": 99}})",
        u"\"main\" must be the index of a view of \"view\": \"views\" that names a figure (0 to 0); got 99"_s);
    row("a lesson of a long name",
        lesson + R"({"name": ")" + QByteArray(1000000, 'A')
            + R"(", "title": "T", "question": "Q", "explanation": "E", "main": 0}})",
        u"…\" (1000000 characters)"_s);
    row("a lesson that loads a file",
        lesson + R"({"name": "a", "title": "T", "question": "Q", "explanation": "<img src=/dev/zero>", "main": 0}})",
        u"\"explanation\" uses <img src=/dev/zero>"_s);
}

void TestSessionFile::refusedContent()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, message);
    const auto result = parseSession(json, u"/tmp/bad.json"_s);
    QVERIFY(std::holds_alternative<SessionError>(result));
    const QString text = std::get<SessionError>(result).toString();
    QVERIFY2(text.startsWith(u"/tmp/bad.json: "_s), qPrintable(text));
    QVERIFY2(text.contains(message), qPrintable(text.left(2000)));
    QVERIFY2(text.size() < 4000, qPrintable(text.left(2000)));
}

void TestSessionFile::unreadablePathNamesPathAndReason()
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(u"nowhere.json"_s);
    const auto result = readSession(missing);
    QVERIFY(std::holds_alternative<SessionError>(result));
    const SessionError error = std::get<SessionError>(result);
    QCOMPARE(error.path, missing);
    QCOMPARE(error.reason, u"no such file"_s);
}

// The audit: `--session` on a FIFO waited for a writer for ever; like --embeddings, a session
// must be a regular file.
void TestSessionFile::aPipeIsNotASessionFile()
{
    QTemporaryDir dir;
    const QString fifo = dir.filePath(u"session.json"_s);
    QCOMPARE(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const auto result = readSession(fifo);
    QVERIFY(std::holds_alternative<SessionError>(result));
    QCOMPARE(std::get<SessionError>(result).toString(),
             fifo + u": not a regular file (a pipe, a socket or a device)"_s);
    // A directory is said to be one (before: "not a regular file", as a pipe).
    const auto folder = readSession(dir.path());
    QVERIFY(std::holds_alternative<SessionError>(folder));
    QCOMPARE(std::get<SessionError>(folder).toString(), dir.path() + u": a directory, not a regular file"_s);
}

void TestSessionFile::oversizedFileIsRefusedBeforeReading()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"huge.json"_s);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.resize(Session::kMaxFileBytes + 1)); // sparse: nothing is written
    f.close();
    const auto result = readSession(path);
    QVERIFY(std::holds_alternative<SessionError>(result));
    QVERIFY(std::get<SessionError>(result).reason.contains(u"too large for a session file"_s));
}

void TestSessionFile::unwritablePathLeavesNothing()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"missing-folder/s.json"_s);
    const auto error = writeSession(path, Session::fromParams(Params()));
    QVERIFY(error.has_value());
    QVERIFY2(error->toString().contains(path), qPrintable(error->toString()));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
}

POSENC_TEST_GUILESS_MAIN(TestSessionFile)
} // namespace tst_sessionfile
#include "tst_sessionfile.moc"
