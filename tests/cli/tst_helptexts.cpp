// Every help text comes from one source (docs/ARCHITECTURE.md, Command line, "One source for every
// help text"), and each says what the program takes: `posenc --help` is short (40 lines at most,
// six examples); every page fits the terminal's width, or 100 columns; the man page and the three
// shells' completions the build installs are the program's own output, and name every parameter
// of the parameter table, every option of every command and the words they take; the completions
// parse, and complete. Before: --help was 145 lines of up to 229 columns with no example, the man
// page was written by hand, and there was no completion.
#include "cli/Commands.h"
#include "cli/Completions.h"
#include "cli/GuideReference.h"
#include "cli/ManPage.h"
#include "cli/ParamOptions.h"
#include "support/TestMain.h"

#include "check/ConfigFindings.h"
#include "core/ParamTable.h"
#include "core/Quantity.h"
#include "io/Lesson.h"
#include "render/FigureRegistry.h"

#include "CliRun.h"
#include "support/TestFiles.h"

#include <QCoreApplication>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace tst_helptexts {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

QString generated(const QString &kind)
{
    return QString::fromUtf8(TestFiles::readAll(QStringLiteral(POSENC_GENERATED "/posenc.") + kind));
}

// The help a user sees at `columns` (unset: standard output is a pipe, so 100).
CliRun::Run helpAt(const QStringList &arguments, const QString &columns)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(u"COLUMNS"_s);
    if (!columns.isEmpty())
        environment.insert(u"COLUMNS"_s, columns);
    return CliRun::posenc(arguments, environment);
}

qsizetype widest(const QString &text)
{
    qsizetype widest = 0;
    for (const QString &line : text.split(u'\n'))
        widest = std::max(widest, line.size());
    return widest;
}

// The window, then every command.
QList<const Command *> everyCommand()
{
    QList<const Command *> all {&Commands::window()};
    for (const Command &command : Commands::all())
        all.append(&command);
    return all;
}

// The man page as a reader sees its words: roff's escaped minus signs and backslashes, its
// characters past ASCII and its font changes read back.
QString manualWords(QString text)
{
    static const QRegularExpression unicode(uR"(\\\[u([0-9A-F]{4})\])"_s);
    for (auto match = unicode.match(text); match.hasMatch(); match = unicode.match(text))
        text.replace(match.capturedStart(), match.capturedLength(), QChar(match.captured(1).toUShort(nullptr, 16)));
    text.replace(u"\\-"_s, u"-"_s).replace(u"\\fB"_s, QString()).replace(u"\\fR"_s, QString());
    return text.replace(u"\\fI"_s, QString()).replace(u"\\&"_s, QString()).replace(u"\\e"_s, u"\\"_s);
}

// A shell's environment: fish writes its configuration and history under the XDG directories,
// which go to `home` (a test's temporary directory).
QProcessEnvironment shellEnvironment(const QString &home)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &name : {u"XDG_CONFIG_HOME"_s, u"XDG_DATA_HOME"_s, u"XDG_CACHE_HOME"_s, u"HOME"_s})
        environment.insert(name, home);
    return environment;
}

// What a shell offers for `line` (the word being completed last), or nothing without the shell.
std::optional<QStringList> completed(const QString &shell, const QString &line, const QString &home)
{
    const QString program = QStandardPaths::findExecutable(shell);
    if (program.isEmpty())
        return std::nullopt;
    QString script;
    if (shell == u"bash"_s) {
        QStringList words = line.split(u' ');
        QString array;
        for (const QString &word : words)
            array += u" '"_s + word + u"'"_s;
        script = u"source '%1'; COMP_WORDS=(%2); COMP_CWORD=%3; _posenc; printf '%s\\n' \"${COMPREPLY[@]}\""_s
                     .arg(QStringLiteral(POSENC_GENERATED "/posenc.bash"), array)
                     .arg(words.size() - 1);
    } else {
        script = u"source '%1'; complete -C '%2'"_s.arg(QStringLiteral(POSENC_GENERATED "/posenc.fish"), line);
    }
    QProcess process;
    process.setProcessEnvironment(shellEnvironment(home));
    process.start(program, {u"-c"_s, script});
    if (!process.waitForFinished(60000) || process.exitCode() != 0)
        return QStringList {u"(failed: %1)"_s.arg(QString::fromUtf8(process.readAllStandardError()))};
    QStringList words;
    for (const QString &entry : QString::fromUtf8(process.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts))
        words.append(entry.section(u'\t', 0, 0)); // fish: "word<TAB>description"
    return words;
}

} // namespace

class TestHelpTexts : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void shortHelpFitsFortyLinesWithSixExamples();
    void noLineWiderThanTheTerminal_data();
    void noLineWiderThanTheTerminal();
    void aCommandsHelpIsItsTopic();
    void checksPageIsReadableAndWholeWithAll();
    void manPageIsTheProgramsOwn();
    void manPageNamesEveryParameterAndOption();
    void manPageHasNoRoffWarnings();
    void completionsAreTheProgramsOwn_data();
    void completionsAreTheProgramsOwn();
    void completionsParse_data();
    void completionsParse();
    void completionsOfferEveryOptionAndWord_data();
    void completionsOfferEveryOptionAndWord();
    void shellsComplete_data();
    void shellsComplete();
    void guideHoldsTheProgramsReference();
};

void TestHelpTexts::initTestCase()
{
    // As app/main.cpp names the program: the man page's header carries the version.
    QCoreApplication::setApplicationName(u"posenc"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(POSENC_VERSION));
}

void TestHelpTexts::shortHelpFitsFortyLinesWithSixExamples()
{
    const CliRun::Run run = helpAt({u"--help"_s}, QString());
    QCOMPARE(run.exitCode, 0);
    const QStringList lines = run.out.trimmed().split(u'\n');
    QVERIFY2(lines.size() <= 40, qPrintable(QString::number(lines.size())));
    QVERIFY(widest(run.out) <= 100);
    const qsizetype examples = lines.indexOf(u"Examples:"_s);
    QVERIFY(examples > 0);
    int count = 0;
    for (qsizetype i = examples + 1; i < lines.size() && !lines[i].isEmpty(); ++i)
        count += lines[i].startsWith(u"  posenc"_s) ? 1 : 0;
    QCOMPARE(count, 6);
    // Eight options, each a flag a command takes (a long line, --encoding's list of the families,
    // may take two).
    const qsizetype options = lines.indexOf(u"Options:"_s);
    QVERIFY(options > 0);
    int flags = 0;
    for (qsizetype i = options + 1; i < lines.size() && !lines[i].isEmpty(); ++i)
        flags += lines[i].startsWith(u"  -"_s) ? 1 : 0;
    QCOMPARE(flags, 8);
    QCOMPARE(helpAt({u"help"_s}, QString()).out, run.out);
}

void TestHelpTexts::noLineWiderThanTheTerminal_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("columns");
    QTest::addColumn<int>("width");
    QList<QStringList> pages {{u"--help"_s}, {u"help"_s, u"check"_s, u"--all"_s}};
    for (const QString &topic : Commands::names() + QStringList {u"parameters"_s, u"window"_s, u"environment"_s})
        pages.append({u"help"_s, topic});
    for (const Command &command : Commands::all())
        pages.append({command.name, u"--help"_s});
    for (const QStringList &page : pages) {
        for (const int width : {100, 80, 72, 60, 40}) {
            QTest::newRow(qPrintable(u"%1 at %2"_s.arg(page.join(u' ')).arg(width)))
                << page << QString::number(width) << width;
        }
        QTest::newRow(qPrintable(page.join(u' ') + u" at 200: 100"_s)) << page << u"200"_s << 100;
        QTest::newRow(qPrintable(page.join(u' ') + u" in a pipe: 100"_s)) << page << QString() << 100;
    }
}

void TestHelpTexts::noLineWiderThanTheTerminal()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, columns);
    QFETCH(int, width);
    const CliRun::Run run = helpAt(arguments, columns);
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.size() > 100);
    for (const QString &line : run.out.split(u'\n'))
        QVERIFY2(line.size() <= width, qPrintable(u"%1 > %2: %3"_s.arg(line.size()).arg(width).arg(line)));
}

void TestHelpTexts::aCommandsHelpIsItsTopic()
{
    for (const Command &command : Commands::all()) {
        const CliRun::Run page = helpAt({command.name, u"--help"_s}, u"90"_s);
        QCOMPARE(page.exitCode, 0);
        QCOMPARE(helpAt({u"help"_s, command.name}, u"90"_s).out, page.out);
    }
    const CliRun::Run unknown = helpAt({u"help"_s, u"nothing"_s}, QString());
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains(u"parameters"_s) && unknown.err.contains(u"export"_s), qPrintable(unknown.err));
}

// posenc help check was 619 lines at 100 columns: every option's reference and the checks of a
// config and of position ids. The terminal's page is one a user reads: the usage, the common
// options, the examples and the verdicts' exit codes, then what it leaves out and where it is; the
// whole page (--all, the man page, the guide) has every option.
void TestHelpTexts::checksPageIsReadableAndWholeWithAll()
{
    const CliRun::Run page = helpAt({u"help"_s, u"check"_s}, QString());
    QCOMPARE(page.exitCode, 0);
    const QStringList lines = page.out.trimmed().split(u'\n');
    QVERIFY2(lines.size() <= 100, qPrintable(QString::number(lines.size())));
    for (const QString &heading : {u"Common options:"_s, u"Examples:"_s, u"Exit status:"_s})
        QVERIFY2(lines.contains(heading), qPrintable(heading));
    QVERIFY(!lines.contains(u"Options:"_s));
    for (const QString &verdict : {u"correct"_s, u"mistake"_s, u"variant"_s, u"learned"_s, u"unknown"_s})
        QVERIFY2(page.out.contains(verdict + u':'), qPrintable(verdict));
    QVERIFY2(page.out.simplified().contains(u"posenc help check --all"_s), qPrintable(page.out));
    QCOMPARE(helpAt({u"check"_s, u"--help"_s}, QString()).out, page.out);

    const CliRun::Run whole = helpAt({u"help"_s, u"check"_s, u"--all"_s}, QString());
    QCOMPARE(whole.exitCode, 0);
    QVERIFY(whole.out.size() > 3 * page.out.size());
    QVERIFY(!whole.out.contains(u"Common options:"_s));
    const qsizetype options = whole.out.indexOf(u"\nOptions:\n"_s);
    QVERIFY(options > 0);
    const QString optionsSection = whole.out.mid(options);
    const Command &check = *Commands::find(u"check"_s);
    for (const CommandOption &option : check.options()) {
        if (!option.hidden)
            QVERIFY2(whole.out.contains(option.spelling()), qPrintable(option.spelling()));
    }
    // Each common option is one of check's, and the whole page says it (under Options, or in the
    // text of the option it goes with: --preset with --expect).
    const qsizetype common = lines.indexOf(u"Common options:"_s);
    const QList<CommandOption> checkOptions = check.options();
    int shown = 0;
    for (qsizetype i = common + 1; i < lines.size() && !lines[i].isEmpty(); ++i) {
        if (!lines[i].startsWith(u"  -"_s))
            continue;
        const QString flag = lines[i].trimmed().section(u' ', 0, 0);
        const bool taken = std::any_of(checkOptions.cbegin(), checkOptions.cend(),
                                       [&flag](const CommandOption &o) { return o.spelling().startsWith(flag); });
        QVERIFY2(taken && optionsSection.contains(flag), qPrintable(flag));
        ++shown;
    }
    QVERIFY2(shown >= 6, qPrintable(QString::number(shown)));
    // The man page and the guide are whole: check's config findings are in both, not in the
    // terminal's page.
    QVERIFY(!page.out.contains(u"Findings:"_s));
    QVERIFY(whole.out.contains(u"Findings:"_s));
    QVERIFY(ManPage::text().contains(u"Findings"_s));
}

void TestHelpTexts::manPageIsTheProgramsOwn()
{
    const QString page = generated(u"man"_s);
    QCOMPARE(page, ManPage::text());
    QVERIFY(page.contains(u"\"posenc %1\" \"User Commands\""_s.arg(QStringLiteral(POSENC_VERSION))));
    // ASCII only, as roff takes it without preconv.
    for (const QChar c : page)
        QVERIFY2(c.unicode() < 0x80, qPrintable(u"U+%1"_s.arg(c.unicode(), 4, 16, QChar(u'0'))));
}

void TestHelpTexts::manPageNamesEveryParameterAndOption()
{
    const QString words = manualWords(generated(u"man"_s));
    for (const QString &key : ParamTable::flagKeys()) {
        const ParamSpec &row = *ParamTable::find(key);
        QVERIFY2(words.contains(u".TP\n"_s + row.flag() + u'\n' + row.helpLine().simplified() + u'\n'),
                 qPrintable(key));
    }
    for (const Command *command : everyCommand()) {
        for (const CommandOption &option : command->options()) {
            if (!option.hidden)
                QVERIFY2(words.contains(u".TP\n"_s + option.spelling() + u'\n'),
                         qPrintable(command->name + u": "_s + option.spelling()));
        }
        for (const QString &line : command->synopsis())
            QVERIFY2(words.contains(line), qPrintable(line));
    }
    for (const QString &name : FigureRegistry::names() + Quantities::names())
        QVERIFY2(words.contains(u".TP\n"_s + name + u'\n'), qPrintable(name));
    for (const ConfigFindings::Kind &kind : ConfigFindings::catalogue())
        QVERIFY2(words.contains(u".TP\n"_s + kind.id + u'\n'), qPrintable(kind.id));
}

// As lintian reads it: man's own warnings, none.
void TestHelpTexts::manPageHasNoRoffWarnings()
{
    const QString man = QStandardPaths::findExecutable(u"man"_s);
    if (man.isEmpty())
        QSKIP("man is not installed");
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"MANWIDTH"_s, u"80"_s);
    environment.insert(u"LC_ALL"_s, u"C.UTF-8"_s);
    process.setProcessEnvironment(environment);
    process.start(man,
                  {u"--warnings"_s, u"-E"_s, u"UTF-8"_s, u"-l"_s, u"-Tutf8"_s, u"-Z"_s,
                   QStringLiteral(POSENC_GENERATED "/posenc.man")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    QCOMPARE(QString::fromUtf8(process.readAllStandardError()), QString());
    QVERIFY(process.readAllStandardOutput().size() > 10000);
}

void TestHelpTexts::completionsAreTheProgramsOwn_data()
{
    QTest::addColumn<QString>("shell");
    QTest::addColumn<QString>("text");
    QTest::newRow("bash") << u"bash"_s << Completions::bash();
    QTest::newRow("zsh") << u"zsh"_s << Completions::zsh();
    QTest::newRow("fish") << u"fish"_s << Completions::fish();
}

void TestHelpTexts::completionsAreTheProgramsOwn()
{
    QFETCH(QString, shell);
    QFETCH(QString, text);
    QCOMPARE(generated(shell), text);
}

void TestHelpTexts::completionsParse_data()
{
    completionsAreTheProgramsOwn_data();
}

void TestHelpTexts::completionsParse()
{
    QFETCH(QString, shell);
    const QString program = QStandardPaths::findExecutable(shell);
    if (program.isEmpty())
        QSKIP("the shell is not installed");
    QTemporaryDir home;
    QProcess process;
    process.setProcessEnvironment(shellEnvironment(home.path()));
    process.start(program, {u"-n"_s, QStringLiteral(POSENC_GENERATED "/posenc.") + shell});
    QVERIFY(process.waitForFinished(60000));
    QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
}

void TestHelpTexts::completionsOfferEveryOptionAndWord_data()
{
    completionsAreTheProgramsOwn_data();
}

void TestHelpTexts::completionsOfferEveryOptionAndWord()
{
    QFETCH(QString, shell);
    QFETCH(QString, text);
    for (const Command &command : Commands::all())
        QVERIFY2(text.contains(command.name), qPrintable(command.name));
    // A hidden option is not offered, unless another command has a visible one of its name (the
    // window's hidden --size and export's --size).
    QSet<QString> visible;
    for (const Command *command : everyCommand())
        for (const CommandOption &option : command->allOptions())
            if (!option.hidden)
                visible.insert(option.names.constLast());
    for (const Command *command : everyCommand()) {
        for (const CommandOption &option : command->allOptions()) {
            if (option.hidden) {
                if (!visible.contains(option.names.constLast()))
                    QVERIFY2(!text.contains(u"-"_s + option.names.constLast() + u' '), qPrintable(option.spelling()));
                continue;
            }
            for (const QString &name : option.names) {
                // bash lists --name, zsh '--name[...]', fish -l name.
                const QString spelled = shell == u"fish"_s ? (name.size() == 1 ? u"-s "_s : u"-l "_s) + name
                                                           : (name.size() == 1 ? u"-"_s : u"--"_s) + name;
                QVERIFY2(text.contains(spelled), qPrintable(command->name + u": "_s + spelled));
            }
            for (const QString &word : option.values)
                QVERIFY2(text.contains(word), qPrintable(option.spelling() + u": "_s + word));
        }
    }
    for (const QString &key : ParamTable::flagKeys())
        QVERIFY2(text.contains(key), qPrintable(key));
    for (const QString &name : FigureRegistry::names() + Quantities::names())
        QVERIFY2(text.contains(QRegularExpression(u"[ '(]%1[ ')]"_s.arg(QRegularExpression::escape(name)))),
                 qPrintable(name));
}

void TestHelpTexts::shellsComplete_data()
{
    QTest::addColumn<QString>("shell");
    QTest::addColumn<QString>("line");
    QTest::addColumn<QStringList>("expected");
    for (const QString &shell : {u"bash"_s, u"fish"_s}) {
        const auto row = [&](const QString &line, const QStringList &expected) {
            QTest::newRow(qPrintable(shell + u": "_s + line)) << shell << line << expected;
        };
        row(u"posenc ex"_s, {u"export"_s});
        row(u"posenc export hea"_s, {u"heatmap"_s});
        row(u"posenc table rope-c"_s, {u"rope-cos"_s});
        row(u"posenc --encoding r"_s, {u"rope"_s});
        row(u"posenc export heatmap --colormap R"_s, {u"RdBu_r"_s});
        row(u"posenc export heatmap --size s"_s, {u"slide"_s});
        row(u"posenc --preset llama-3-1"_s, {u"llama-3-1-8b"_s});
        row(u"posenc help --generate f"_s, {u"fish"_s});
        row(u"posenc table pe --rope-t"_s, {u"--rope-theta"_s, u"--rope-type"_s});
    }
}

void TestHelpTexts::shellsComplete()
{
    QFETCH(QString, shell);
    QFETCH(QString, line);
    QFETCH(QStringList, expected);
    QTemporaryDir home;
    const auto offered = completed(shell, line, home.path());
    if (!offered)
        QSKIP("the shell is not installed");
    for (const QString &word : expected)
        QVERIFY2(offered->contains(word), qPrintable(offered->join(u' ')));
}

// docs/GUIDE.md holds the reference as the program writes it (docs/update_generated.sh writes it
// again), and the reference names every parameter and every finding.
void TestHelpTexts::guideHoldsTheProgramsReference()
{
    const QString guide = QString::fromUtf8(TestFiles::readAll(QStringLiteral(POSENC_GUIDE)));
    // Each part the program writes (the lessons' table, the reference) as the program writes it.
    QString reference;
    for (const GuideReference::Block &block : GuideReference::blocks()) {
        const qsizetype begin = guide.indexOf(GuideReference::beginMarker(block.name));
        const qsizetype end = guide.indexOf(GuideReference::endMarker(block.name));
        QVERIFY2(begin > 0 && end > begin, qPrintable(u"docs/GUIDE.md has no "_s + block.name + u" between markers"_s));
        QVERIFY2(
            guide.mid(begin, end + GuideReference::endMarker(block.name).size() - begin) + u'\n' == block.text,
            qPrintable(u"docs/GUIDE.md's "_s + block.name + u" is not the program's: run docs/update_generated.sh"_s));
        if (block.name == u"reference"_s)
            reference = block.text;
    }
    // The lessons' table names every lesson.
    for (const QString &name : Lessons::names())
        QVERIFY2(guide.contains(u"| `"_s + name + u"` |"_s), qPrintable(name));
    for (const QString &key : ParamTable::flagKeys())
        QVERIFY2(reference.contains(u"| `"_s + ParamTable::find(key)->flag().replace(u'|', u"\\|"_s) + u"` |"_s),
                 qPrintable(key));
    for (const ConfigFindings::Kind &kind : ConfigFindings::catalogue())
        QVERIFY2(reference.contains(u"| `"_s + kind.id + u"` |"_s), qPrintable(kind.id));
    for (const QString &name : FigureRegistry::names() + Quantities::names())
        QVERIFY2(reference.contains(u"| `"_s + name + u"` |"_s), qPrintable(name));
}

POSENC_TEST_GUILESS_MAIN(TestHelpTexts)
} // namespace tst_helptexts
#include "tst_helptexts.moc"
