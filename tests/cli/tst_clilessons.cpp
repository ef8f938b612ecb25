// The lessons on the command line, as users and scripts meet them: `posenc lessons` lists at least
// eight, NAME<TAB>TITLE; `posenc --lesson NAME` opens the window on each as its file opened as a
// session does, and the window remembers the user's own parameters on close, not the lesson's;
// `posenc export --lesson NAME` writes the lesson's figure, the same image as the figure exported
// with the lesson's parameters and options given as flags, which a flag overrides; a name that is
// not a lesson exits 2 naming them. The start panel never shows under --screenshot unless asked
// for.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRect>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace tst_clilessons {
using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

QString lessonPath(const QString &name)
{
    return QStringLiteral(POSENC_LESSONS) + u"/"_s + name + u".json"_s;
}

QJsonObject lessonFile(const QString &name)
{
    QFile file(lessonPath(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

// The main figure and its options (each a text, or "true" for a switch) as FIGURE and flags.
QStringList figureArguments(const QJsonObject &lesson)
{
    const int main = lesson.value(u"lesson"_s).toObject().value(u"main"_s).toInt();
    const QJsonObject view = lesson.value(u"view"_s).toObject().value(u"views"_s).toArray().at(main).toObject();
    QStringList arguments {view.value(u"figure"_s).toString()};
    for (auto it = view.begin(); it != view.end(); ++it) {
        if (it.key() == u"figure"_s)
            continue;
        if (it.value().toString() == u"true"_s)
            arguments << u"--"_s + it.key();
        else
            arguments << u"--"_s + it.key() << it.value().toString();
    }
    return arguments;
}

// The lesson as `posenc lessons NAME --json` reads it for its own model: its parameters and views.
QJsonObject lessonRead(const QString &name)
{
    return QJsonDocument::fromJson(posenc({u"lessons"_s, name, u"--json"_s}).out.toUtf8()).object();
}

// The lesson's file as a session of the parameters and views it is read with.
QJsonObject asSession(const QString &name)
{
    const QJsonObject read = lessonRead(name);
    QJsonObject session = lessonFile(name);
    session[u"params"_s] = read.value(u"params"_s);
    session[u"view"_s] = read.value(u"view"_s);
    return session;
}

QStringList lessonNames()
{
    QStringList names;
    for (const QString &line : posenc({u"lessons"_s}).out.split(u'\n', Qt::SkipEmptyParts))
        names.append(line.section(u'\t', 0, 0));
    return names;
}

// Copies the files under `from` to the same places under `to`.
bool copyTree(const QString &from, const QString &to)
{
    QDirIterator files(from, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QString source = files.next();
        const QString target = to + source.mid(from.size());
        if (!QDir().mkpath(QFileInfo(target).path()) || !QFile::copy(source, target))
            return false;
    }
    return true;
}

// Where two images differ, as the rectangle bounding every differing pixel and its size, to say in a
// failure (the window's files are kept then, their folder named).
QString differences(const QImage &a, const QImage &b)
{
    if (a.size() != b.size())
        return u"sizes %1x%2 and %3x%4"_s.arg(a.width()).arg(a.height()).arg(b.width()).arg(b.height());
    QRect box;
    qsizetype pixels = 0;
    for (int y = 0; y < a.height(); ++y) {
        for (int x = 0; x < a.width(); ++x) {
            if (a.pixel(x, y) != b.pixel(x, y)) {
                box |= QRect(x, y, 1, 1);
                ++pixels;
            }
        }
    }
    return u"%1 pixels differ within x %2-%3, y %4-%5"_s.arg(pixels)
        .arg(box.left())
        .arg(box.right())
        .arg(box.top())
        .arg(box.bottom());
}

} // namespace

class TestCliLessons : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void listsAtLeastEightLessons();
    void eachLessonOpensTheWindow_data();
    void eachLessonOpensTheWindow();
    void eachLessonExportsItsFigure_data();
    void eachLessonExportsItsFigure();
    void flagsOverrideTheLesson();
    void aNameThatIsNotALessonExitsTwoNamingThem();
    void startPanelOnlyWhenAskedUnderScreenshot();

private:
    QString path(const QString &name) const { return m_dir->filePath(name); }
    QProcessEnvironment windowEnvironment(const QString &config) const
    {
        return CliRun::windowEnvironment(m_dir->filePath(config));
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    // The user's own parameters, remembered by an earlier start: its configuration and its
    // window, made once and copied for each lesson.
    QTemporaryDir m_own;
};

void TestCliLessons::initTestCase()
{
    QVERIFY(m_own.isValid());
    const QStringList own {u"--d-model"_s, u"96"_s, u"--max-len"_s, u"300"_s, u"--seed"_s, u"7"_s};
    QCOMPARE(posenc(own + QStringList {u"--screenshot"_s, m_own.filePath(u"own.png"_s)},
                    CliRun::windowEnvironment(m_own.filePath(u"config"_s)))
                 .exitCode,
             0);
    QVERIFY(!rememberedSettings(m_own.filePath(u"config"_s)).isEmpty());
}

void TestCliLessons::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestCliLessons::listsAtLeastEightLessons()
{
    const Run run = posenc({u"lessons"_s});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
    const QStringList lines = run.out.split(u'\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.size() >= 8, qPrintable(run.out));
    static const QRegularExpression line(u"^[a-z0-9]+(-[a-z0-9]+)*\t\\S.*$"_s);
    QStringList names;
    for (const QString &text : lines) {
        QVERIFY2(line.match(text).hasMatch(), qPrintable(text));
        const QString name = text.section(u'\t', 0, 0);
        QVERIFY(!names.contains(name));
        names.append(name);
        // The title printed is the lesson's own.
        QCOMPARE(text.section(u'\t', 1), lessonFile(name).value(u"lesson"_s).toObject().value(u"title"_s).toString());
    }
    QCOMPARE(posenc({u"lessons"_s, u"--help"_s}).exitCode, 0);
    QCOMPARE(posenc({u"lessons"_s, u"extra"_s}).exitCode, 2);
    QVERIFY(posenc({u"--help"_s}).out.contains(u"posenc lessons"_s));
}

void TestCliLessons::eachLessonOpensTheWindow_data()
{
    QTest::addColumn<QString>("name");
    for (const QString &name : lessonNames())
        QTest::newRow(qPrintable(name)) << name;
}

void TestCliLessons::eachLessonOpensTheWindow()
{
    QFETCH(QString, name);
    QVERIFY(copyTree(m_own.filePath(u"config"_s), path(u"config"_s)));
    const QString shot = path(name + u".png"_s);
    const Run run = posenc({u"--lesson"_s, name, u"--screenshot"_s, shot}, windowEnvironment(u"config"_s));
    QCOMPARE(run.exitCode, 0);
    const QImage image(shot);
    QVERIFY(image.width() >= 800 && image.height() >= 600);
    // The window showed the lesson: the same as its file opened as a session of the parameters and
    // views `posenc lessons NAME --json` reads it with, parameters, views and panel.
    const QString sessionFile = path(name + u"-session.json"_s);
    QFile file(sessionFile);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(asSession(name)).toJson());
    file.close();
    const QString bySession = path(name + u"-session.png"_s);
    QCOMPARE(
        posenc({u"--session"_s, sessionFile, u"--screenshot"_s, bySession}, windowEnvironment(u"config"_s)).exitCode,
        0);
    const QImage session(bySession);
    if (image != session)
        m_dir->setAutoRemove(false);
    QVERIFY2(image == session, qPrintable(differences(image, session) + u" (kept in "_s + m_dir->path() + u')'));
    QVERIFY(image != QImage(m_own.filePath(u"own.png"_s)));
    // A lesson is a detour: the window remembered the user's parameters on close, not the lesson's.
    const QByteArray remembered = rememberedSettings(path(u"config"_s));
    for (const char *setting : {"\nd-model=96\n", "\nmax-len=300\n", "\nseed=7\n"})
        QVERIFY2(remembered.contains(setting), setting);
    // A screenshot never shows the start panel: nothing was decided about it.
    QVERIFY(!remembered.contains("showAtStart"));
}

void TestCliLessons::eachLessonExportsItsFigure_data()
{
    eachLessonOpensTheWindow_data();
}

void TestCliLessons::eachLessonExportsItsFigure()
{
    QFETCH(QString, name);
    const QString byLesson = path(u"lesson.png"_s);
    // The lesson's own export: its main figure, beside the views and panels its text names.
    const Run own = posenc({u"export"_s, u"--lesson"_s, name, u"-o"_s, byLesson});
    QCOMPARE(own.exitCode, 0);
    QVERIFY2(own.err.isEmpty(), qPrintable(own.err));
    QCOMPARE(QImage(byLesson).size(), QSize(1200, 800));
    // Its main figure, named, is the same as the figure with the lesson's parameters (for its own
    // model) and options typed out.
    const QJsonObject lesson = asSession(name);
    const Run run = posenc(
        {u"export"_s, u"--lesson"_s, name, figureArguments(lesson).constFirst(), u"-o"_s, byLesson, u"--force"_s});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
    const QImage image(byLesson);
    QCOMPARE(image.size(), QSize(1200, 800));
    const QString byFlags = path(u"flags.png"_s);
    QCOMPARE(posenc(QStringList {u"export"_s} + figureArguments(lesson) + parameterFlags(lesson) << u"-o"_s << byFlags)
                 .exitCode,
             0);
    QVERIFY(image == QImage(byFlags));
}

void TestCliLessons::flagsOverrideTheLesson()
{
    const QJsonObject lesson = asSession(u"frequencies"_s);
    const QString lessonOnly = path(u"lesson.png"_s);
    const QString overridden = path(u"overridden.png"_s);
    const QString byFlags = path(u"flags.png"_s);
    QCOMPARE(posenc({u"export"_s, u"--lesson"_s, u"frequencies"_s, u"-o"_s, lessonOnly}).exitCode, 0);
    QCOMPARE(posenc({u"export"_s, u"--lesson"_s, u"frequencies"_s, u"-o"_s, overridden, u"--d-model"_s, u"16"_s,
                     u"--dims"_s, u"0,2"_s, u"--size"_s, u"17.5x9cm"_s})
                 .exitCode,
             0);
    QCOMPARE(posenc(QStringList {u"export"_s} + figureArguments(lesson) + parameterFlags(lesson)
                    << u"-o"_s << byFlags << u"--d-model"_s << u"16"_s << u"--dims"_s << u"0,2"_s << u"--size"_s
                    << u"17.5x9cm"_s)
                 .exitCode,
             0);
    const QImage image(overridden);
    QVERIFY(!image.isNull());
    QVERIFY(image == QImage(byFlags));
    QVERIFY(image.size() != QImage(lessonOnly).size());
    // A parameter out of range is named with the lesson it came from when the lesson gave it.
    const Run refused
        = posenc({u"export"_s, u"--lesson"_s, u"frequencies"_s, u"-o"_s, path(u"x.png"_s), u"--max-len"_s, u"0"_s});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains(u"--max-len"_s), qPrintable(refused.err));
    QVERIFY(!QFile::exists(path(u"x.png"_s)));
}

void TestCliLessons::aNameThatIsNotALessonExitsTwoNamingThem()
{
    // Refused before any screen is needed.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(u"QT_QPA_PLATFORM"_s);
    environment.remove(u"DISPLAY"_s);
    const QStringList names = lessonNames();
    QVERIFY(names.size() >= 8);
    for (const QStringList &arguments :
         {QStringList {u"--lesson"_s, u"no-such-lesson"_s},
          QStringList {u"export"_s, u"--lesson"_s, u"no-such-lesson"_s, u"-o"_s, path(u"x.png"_s)}}) {
        const Run run = posenc(arguments, environment);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(u"--lesson"_s) && run.err.contains(u"no-such-lesson"_s), qPrintable(run.err));
        for (const QString &name : names)
            QVERIFY2(run.err.contains(name), qPrintable(run.err));
    }
    QFile session(path(u"s.json"_s));
    QVERIFY(session.open(QIODevice::WriteOnly));
    session.write(R"({"format": "posenc-session", "version": 1, "params": {}})");
    session.close();
    const Run both = posenc({u"--lesson"_s, names.first(), u"--session"_s, session.fileName()}, environment);
    QCOMPARE(both.exitCode, 2);
    QVERIFY2(both.err.contains(u"--session"_s), qPrintable(both.err));
}

void TestCliLessons::startPanelOnlyWhenAskedUnderScreenshot()
{
    QCOMPARE(posenc({u"--screenshot"_s, path(u"plain.png"_s)}, windowEnvironment(u"plain"_s)).exitCode, 0);
    QVERIFY(!rememberedSettings(path(u"plain"_s)).isEmpty());
    QVERIFY(!rememberedSettings(path(u"plain"_s)).contains("showAtStart"));
    // Asked for: a first start shows it, and from then on it is no longer the first.
    const QString shot = path(u"panel.png"_s);
    QCOMPARE(posenc({u"--start-panel"_s, u"--screenshot"_s, shot}, windowEnvironment(u"asked"_s)).exitCode, 0);
    QVERIFY(rememberedSettings(path(u"asked"_s)).contains("showAtStart=false"));
    QVERIFY(QImage(shot) != QImage(path(u"plain.png"_s)));
}

POSENC_TEST_GUILESS_MAIN(TestCliLessons)
} // namespace tst_clilessons
#include "tst_clilessons.moc"
