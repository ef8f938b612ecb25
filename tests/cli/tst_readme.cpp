// Every example command of the README runs as it stands, in a copy of the source tree as a fresh
// clone has it (its files linked, `build/release` the build under test), and exits with the code
// its comment gives ("# exit 1: ..."), 0 where it gives none: 5 of its 10 examples named files the
// clone did not have and exited 3. The examples are the shell blocks under the README's headings;
// the blocks above the first heading set the program up (the build, the test suite, the package),
// which CI runs itself (.ci/run). A command that opens the window is run with --screenshot, which
// draws it once, offscreen, and quits. The README starts with its two set-up commands, the second
// the test command CI runs, as .ci/readme-test-command finds it (it opened with two pipelines of
// 168 and 728 characters, and CI took the third line of its shell blocks).
#include "CliRun.h"
#include "support/TestMain.h"

#include "cli/Cli.h"
#include "cli/ConfigCheckCommand.h"
#include "support/TestFiles.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace tst_readme {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

struct Example
{
    QString line; // as the README gives it, continuation lines joined
    int exitCode = 0;
};

// The shell blocks' commands under the README's first heading.
QList<Example> examples(const QString &readme)
{
    QList<Example> found;
    bool headed = false, shell = false;
    QString pending;
    static const QRegularExpression exitComment(u"#.*\\bexit (\\d+)"_s);
    for (const QString &line : readme.split(u'\n')) {
        if (line.startsWith(u"## "_s))
            headed = true;
        if (line.startsWith(u"```"_s)) {
            shell = line == u"```sh"_s;
            continue;
        }
        if (!shell || !headed || line.trimmed().isEmpty() || line.trimmed().startsWith(u'#'))
            continue;
        pending += line.trimmed();
        if (pending.endsWith(u'\\')) {
            pending.chop(1);
            continue;
        }
        Example example {pending, 0};
        // A comment starts at " #" outside quotes.
        bool quoted = false;
        for (qsizetype i = 0; i < pending.size(); ++i) {
            if (pending[i] == u'\'')
                quoted = !quoted;
            if (!quoted && pending[i] == u'#' && i > 0 && pending[i - 1] == u' ') {
                const QRegularExpressionMatch m = exitComment.match(pending.mid(i));
                example.exitCode = m.hasMatch() ? m.captured(1).toInt() : 0;
                example.line = pending.left(i).trimmed();
                break;
            }
        }
        found.append(example);
        pending.clear();
    }
    return found;
}

// Whether `command` (a posenc command line) ends in the window.
bool opensTheWindow(const QString &command)
{
    const QStringList words = QProcess::splitCommand(command);
    if (words.isEmpty() || !(words[0] == u"posenc"_s || words[0].endsWith(u"/posenc"_s)))
        return false;
    const QStringList arguments = commandFirst(words);
    return !isSubcommand(arguments) || opensConfigWindow(arguments);
}

} // namespace

class TestReadme : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void theReadmeStartsWithItsTwoSetUpCommands();
    void everyExampleRunsFromAFreshClone_data();
    void everyExampleRunsFromAFreshClone();

private:
    QTemporaryDir m_clone;
};

void TestReadme::initTestCase()
{
    QVERIFY(m_clone.isValid());
    // The source tree's files as a clone has them, linked; its build/release the build under test.
    const QDir source(QStringLiteral(POSENC_SOURCE_DIR));
    for (const QString &entry : source.entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot)) {
        if (entry == u"build"_s || entry == u".git"_s)
            continue;
        QVERIFY(QFile::link(source.filePath(entry), m_clone.filePath(entry)));
    }
    QVERIFY(QDir(m_clone.path()).mkpath(u"build"_s));
    QVERIFY(QFile::link(QStringLiteral(POSENC_BINARY_DIR), m_clone.filePath(u"build/release"_s)));
}

// The README's first lines after its title are one shell block of two commands: the set-up,
// build and start (.ci/build posenc && build/release/app/posenc), then the test command, each
// script of the checkout; CI runs the second as .ci/readme-test-command prints it.
void TestReadme::theReadmeStartsWithItsTwoSetUpCommands()
{
    const QString source = QStringLiteral(POSENC_SOURCE_DIR);
    QStringList lines = QString::fromUtf8(TestFiles::readAll(source + u"/README.md"_s)).split(u'\n');
    lines.removeAll(QString());
    QVERIFY(lines.size() > 4);
    QVERIFY2(lines[0].startsWith(u"# "_s), qPrintable(lines[0]));
    QCOMPARE(lines[1], u"```sh"_s);
    QCOMPARE(lines[4], u"```"_s);
    const QString build = lines[2], test = lines[3];
    QVERIFY2(build.startsWith(u".ci/build "_s) && build.endsWith(u" && build/release/app/posenc"_s), qPrintable(build));
    QCOMPARE(test, u".ci/test-all"_s);
    for (const QString &command : {build, test}) {
        QVERIFY2(command.size() <= 60, qPrintable(command)); // short enough to read and type
        const QFileInfo script(source + u'/' + command.section(u' ', 0, 0));
        QVERIFY2(script.isFile() && script.isExecutable(), qPrintable(script.filePath()));
    }
    // What CI runs.
    QProcess find;
    find.start(source + u"/.ci/readme-test-command"_s, {});
    QVERIFY(find.waitForFinished(60000));
    QCOMPARE(find.exitCode(), 0);
    QCOMPARE(QString::fromUtf8(find.readAllStandardOutput()), test + u'\n');
    const QString run = QString::fromUtf8(TestFiles::readAll(source + u"/.ci/run"_s));
    QVERIFY(run.contains(u"test_command=$(.ci/readme-test-command)"_s));
    // The test command sets up as the first does, then runs the whole suite.
    const QString testAll = QString::fromUtf8(TestFiles::readAll(source + u"/.ci/test-all"_s));
    QVERIFY(testAll.contains(u"\n.ci/build\n"_s));
    QVERIFY(testAll.contains(u"\nctest --preset release\n"_s));
}

void TestReadme::everyExampleRunsFromAFreshClone_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<int>("exitCode");
    const QList<Example> found
        = examples(QString::fromUtf8(TestFiles::readAll(QStringLiteral(POSENC_SOURCE_DIR) + u"/README.md"_s)));
    QVERIFY(found.size() >= 10);
    int i = 0;
    for (const Example &example : found)
        QTest::newRow(qPrintable(u"%1 %2"_s.arg(++i).arg(example.line.left(80)))) << example.line << example.exitCode;
}

void TestReadme::everyExampleRunsFromAFreshClone()
{
    QFETCH(QString, command);
    QFETCH(int, exitCode);
    QString run = command;
    if (opensTheWindow(command))
        run += u" --screenshot readme-window.png"_s;
    QProcess shell;
    shell.setWorkingDirectory(m_clone.path());
    QProcessEnvironment environment = CliRun::windowEnvironment(m_clone.filePath(u"settings"_s));
    shell.setProcessEnvironment(environment);
    shell.start(u"/bin/sh"_s, {u"-c"_s, run});
    QVERIFY(shell.waitForFinished(600000));
    const QString err = QString::fromUtf8(shell.readAllStandardError());
    QVERIFY2(shell.exitStatus() == QProcess::NormalExit, qPrintable(err));
    QVERIFY2(
        shell.exitCode() == exitCode,
        qPrintable(u"%1: exit %2, the README says %3: %4"_s.arg(run).arg(shell.exitCode()).arg(exitCode).arg(err)));
    // A command that exits 0 says nothing on standard error.
    if (exitCode == 0)
        QVERIFY2(err.isEmpty(), qPrintable(err));
}

POSENC_TEST_GUILESS_MAIN(TestReadme)
} // namespace tst_readme
#include "tst_readme.moc"
