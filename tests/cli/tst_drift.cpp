// What the documents say of the program, against the program itself: the counts of lessons,
// presets, families, figures and quantities wherever a document gives one (the changelog said
// fifteen lessons and twenty configs of 18 and 46), the man page's exit codes against each
// command's help (they disagreed with posenc help check), the guide's tables against the lists
// they name entries of (its encodings and mistakes left out the newest), and every flag the
// README and the guide use against the options the help lists (--screenshot was in the guide and
// in no help). The guide's generated parts, the lessons' table among them, are tst_helptexts'.
#include "CliRun.h"
#include "support/TestMain.h"

#include "check/TableCheck.h"
#include "cli/Commands.h"
#include "cli/ParamOptions.h"
#include "core/FamilySpec.h"
#include "core/Quantity.h"
#include "io/Lesson.h"
#include "io/Preset.h"
#include "render/FigureRegistry.h"
#include "support/TestFiles.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <map>

namespace tst_drift {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

QString source(const QString &relative)
{
    return QString::fromUtf8(TestFiles::readAll(QStringLiteral(POSENC_SOURCE_DIR) + u'/' + relative));
}

// "eighteen", "Forty-six", "46": the number, or -1.
int numberOf(const QString &word)
{
    bool digits = false;
    const int value = word.toInt(&digits);
    if (digits)
        return value;
    static const QStringList units {u"zero"_s,    u"one"_s,     u"two"_s,       u"three"_s,    u"four"_s,
                                    u"five"_s,    u"six"_s,     u"seven"_s,     u"eight"_s,    u"nine"_s,
                                    u"ten"_s,     u"eleven"_s,  u"twelve"_s,    u"thirteen"_s, u"fourteen"_s,
                                    u"fifteen"_s, u"sixteen"_s, u"seventeen"_s, u"eighteen"_s, u"nineteen"_s};
    static const QStringList tens {u""_s,      u""_s,      u"twenty"_s,  u"thirty"_s, u"forty"_s,
                                   u"fifty"_s, u"sixty"_s, u"seventy"_s, u"eighty"_s, u"ninety"_s};
    const QStringList parts = word.toLower().split(u'-');
    if (parts.size() == 1 && units.contains(parts[0]))
        return int(units.indexOf(parts[0]));
    const qsizetype ten = tens.indexOf(parts[0]);
    if (ten < 2)
        return -1;
    if (parts.size() == 1)
        return int(ten) * 10;
    const qsizetype unit = units.indexOf(parts[1]);
    return parts.size() == 2 && unit >= 1 && unit <= 9 ? int(ten * 10 + unit) : -1;
}

// The things a document counts, and how many the program has.
std::map<QString, int> programCounts()
{
    return {{u"lessons"_s, int(Lessons::all().size())},
            {u"presets"_s, int(Presets::names().size())},
            {u"families"_s, int(Families::all().size())},
            {u"figures"_s, int(FigureRegistry::names().size())},
            {u"quantities"_s, int(Quantities::names().size())}};
}

// The first column's `code` terms of the guide's table under `header`.
QStringList firstColumn(const QString &guide, const QString &header)
{
    QStringList terms;
    const qsizetype at = guide.indexOf(header);
    if (at < 0)
        return terms;
    static const QRegularExpression code(u"`([^`]+)`"_s);
    const QStringList lines = guide.mid(at).split(u'\n');
    for (qsizetype i = 2; i < lines.size() && lines[i].startsWith(u'|'); ++i) {
        auto matches = code.globalMatch(lines[i].section(u'|', 1, 1));
        while (matches.hasNext())
            terms.append(matches.next().captured(1));
    }
    return terms;
}

// The items of the first Items block of `page`'s section whose heading is `heading` (empty: the
// opening sections too), each term split at ", ".
QStringList itemTerms(const HelpPage &page, const QString &heading)
{
    QStringList terms;
    for (const HelpSection &section : page.sections) {
        if (section.heading != heading)
            continue;
        for (const HelpBlock &block : section.blocks) {
            if (block.kind != HelpBlock::Kind::Items)
                continue;
            for (const HelpItem &item : block.items)
                terms += item.term.split(u", "_s);
            return terms;
        }
    }
    return terms;
}

// The man page's text as it reads: roff's escapes and fonts gone, whitespace folded.
QString manText(QString roff)
{
    roff.replace(u"\\-"_s, u"-"_s).replace(u"\\fB"_s, QString()).replace(u"\\fR"_s, QString());
    roff.replace(u"\\fI"_s, QString()).replace(u"\\e"_s, u"\\"_s).replace(u"\\&"_s, QString());
    static const QRegularExpression unicode(u"\\\\\\[u([0-9A-F]{4})\\]"_s);
    for (auto m = unicode.match(roff); m.hasMatch(); m = unicode.match(roff))
        roff.replace(m.capturedStart(), m.capturedLength(), QChar(m.captured(1).toUShort(nullptr, 16)));
    return roff;
}

} // namespace

class TestDrift : public QObject
{
    Q_OBJECT

private slots:
    void countsAreTheProgramsOwn_data();
    void countsAreTheProgramsOwn();
    void theChangelogsLinesFitLintiansWidth();
    void theManPageSaysEachCommandsExitCodes();
    void theGuidesTablesNameEveryEntry();
    void everyFlagTheDocsUseIsAnOptionTheHelpLists_data();
    void everyFlagTheDocsUseIsAnOptionTheHelpLists();
};

void TestDrift::countsAreTheProgramsOwn_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("mustCount"); // what the document must count at least once
    QTest::newRow("README.md") << source(u"README.md"_s) << QStringList();
    QTest::newRow("docs/GUIDE.md") << source(u"docs/GUIDE.md"_s) << QStringList();
    QTest::newRow("the metainfo") << source(u"resources/org.posenc.Explorer.metainfo.xml"_s) << QStringList();
    QTest::newRow("the package's description") << source(u"resources/CMakeLists.txt"_s) << QStringList();
    // The changelog as the build writes it from resources/changelog.in.
    QTest::newRow("the changelog") << QString::fromUtf8(TestFiles::readAll(QStringLiteral(POSENC_CHANGELOG)))
                                   << QStringList {u"lessons"_s, u"presets"_s, u"families"_s};
}

// "Eighteen lessons", "46 presets", "11 encoding families": a number and the thing counted, a word
// at most between them, is the program's number.
void TestDrift::countsAreTheProgramsOwn()
{
    QFETCH(QString, text);
    QFETCH(QStringList, mustCount);
    QVERIFY(!text.isEmpty());
    const std::map<QString, int> counts = programCounts();
    QStringList nouns;
    for (const auto &[noun, count] : counts)
        nouns.append(noun);
    // "with fifteen lessons" matches with "with" as the number and "fifteen" as the word between:
    // the word between is the number then.
    const QRegularExpression counted(
        u"\\b([0-9]+|[A-Za-z]+(?:-[a-z]+)?)\\s+(?:([A-Za-z-]+)\\s+)?(%1)\\b"_s.arg(nouns.join(u'|')),
        QRegularExpression::CaseInsensitiveOption);
    QStringList wrong;
    QSet<QString> found;
    for (auto matches = counted.globalMatch(text); matches.hasNext();) {
        const QRegularExpressionMatch m = matches.next();
        int said = numberOf(m.captured(1));
        if (said < 0 && m.hasCaptured(2))
            said = numberOf(m.captured(2));
        if (said < 0)
            continue;
        const QString noun = m.captured(3).toLower();
        found.insert(noun);
        if (said != counts.at(noun))
            wrong.append(u"'%1' where the program has %2"_s.arg(m.captured(0).simplified()).arg(counts.at(noun)));
    }
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u"; "_s)));
    for (const QString &noun : mustCount)
        QVERIFY2(found.contains(noun), qPrintable(u"no count of the "_s + noun));
}

// The changelog's lines once the counts are in, its trailer aside, fit the 80 columns lintian
// holds a Debian changelog to (debian-changelog-line-too-long fails the package's check in CI).
void TestDrift::theChangelogsLinesFitLintiansWidth()
{
    const QString text = QString::fromUtf8(TestFiles::readAll(QStringLiteral(POSENC_CHANGELOG)));
    QVERIFY(!text.isEmpty());
    QStringList tooLong;
    for (const QString &line : text.split(u'\n'))
        if (line.size() > 80 && !line.startsWith(u" -- "_s))
            tooLong.append(u"%1 columns: %2"_s.arg(line.size()).arg(line));
    QVERIFY2(tooLong.isEmpty(), qPrintable(tooLong.join(u'\n')));
}

// Each command's exit codes, as its help page lists them, are the man page's, word for word.
void TestDrift::theManPageSaysEachCommandsExitCodes()
{
    const CliRun::Run man = CliRun::posenc({u"help"_s, u"--generate"_s, u"man"_s});
    QCOMPARE(man.exitCode, 0);
    const QString roff = man.out;
    const qsizetype begin = roff.indexOf(u"\n.SH EXIT STATUS\n"_s);
    const qsizetype end = roff.indexOf(u"\n.SH "_s, begin + 1);
    QVERIFY(begin > 0 && end > begin);
    // Its entries: a code, then the lines under it.
    std::map<int, QString> section;
    int code = -1;
    const QStringList lines = roff.mid(begin, end - begin).split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines[i] == u".TP"_s && i + 1 < lines.size()) {
            code = manText(lines[++i]).toInt();
            continue;
        }
        if (code >= 0 && !lines[i].startsWith(u'.'))
            section[code] += manText(lines[i]).simplified() + u'\n';
    }
    QList<const Command *> commands {&Commands::window()};
    for (const Command &command : Commands::all())
        commands.append(&command);
    QStringList missing;
    QSet<int> listed;
    for (const Command *command : commands) {
        const QString name = command->name.isEmpty() ? u"posenc"_s : u"posenc "_s + command->name;
        for (const HelpSection &page : command->help().sections) {
            if (!page.heading.startsWith(u"Exit status"_s))
                continue;
            const QString who
                = name + QString(page.heading).mid(QStringLiteral("Exit status").size()).replace(u" of "_s, u" "_s);
            for (const HelpBlock &block : page.blocks) {
                for (const HelpItem &item : block.items) {
                    listed.insert(item.term.toInt());
                    const QString line = who + u": "_s + item.text.simplified() + u'\n';
                    if (!section[item.term.toInt()].contains(line))
                        missing.append(u"%1 %2"_s.arg(item.term, line.trimmed()));
                }
            }
        }
    }
    QVERIFY2(missing.isEmpty(), qPrintable(u"not in the man page's EXIT STATUS: "_s + missing.join(u"; "_s)));
    for (const auto &[manCode, text] : section)
        QVERIFY2(listed.contains(manCode),
                 qPrintable(u"the man page lists %1, which no command's help does"_s.arg(manCode)));
    QVERIFY(listed.contains(5) && listed.contains(7)); // check's own verdicts are among them
}

// The guide's tables that name the entries of a list name each of them: the presets, what posenc
// check finds, the mistakes it names, the quantities.
void TestDrift::theGuidesTablesNameEveryEntry()
{
    const QString guide = source(u"docs/GUIDE.md"_s);
    const QStringList presets = firstColumn(guide, u"| NAME | its main values |"_s);
    const QStringList names = Presets::names();
    QCOMPARE(QSet<QString>(presets.begin(), presets.end()), QSet<QString>(names.begin(), names.end()));
    const QStringList finds = firstColumn(guide, u"| encoding | what it finds |"_s);
    const QStringList whatItFinds = itemTerms(Commands::find(u"check"_s)->help(), u"What it finds"_s);
    QVERIFY(whatItFinds.size() > 8);
    QCOMPARE(QSet<QString>(finds.begin(), finds.end()), QSet<QString>(whatItFinds.begin(), whatItFinds.end()));
    const QStringList mistakes = firstColumn(guide, u"| id | mistake | how it is told |"_s);
    for (const QString &id : TableCheck::mistakeIds())
        QVERIFY2(mistakes.contains(id), qPrintable(u"the guide's table of mistakes has no "_s + id));
    // The tables of quantities name quantities; the section names every one.
    const qsizetype tables = guide.indexOf(u"\n## Tables\n"_s);
    const QString section = guide.mid(tables, guide.indexOf(u"\n## "_s, tables + 1) - tables);
    QVERIFY(tables > 0);
    for (qsizetype at = section.indexOf(u"| QUANTITY |"_s); at >= 0; at = section.indexOf(u"| QUANTITY |"_s, at + 1)) {
        for (const QString &name : firstColumn(section.mid(at), u"| QUANTITY |"_s))
            QVERIFY2(Quantities::fromName(name), qPrintable(name + u" is no quantity"_s));
    }
    for (const QString &name : Quantities::names())
        QVERIFY2(section.contains(u'`' + name + u'`'), qPrintable(u"## Tables does not name "_s + name));
}

void TestDrift::everyFlagTheDocsUseIsAnOptionTheHelpLists_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("README.md") << source(u"README.md"_s);
    // The guide up to its reference, which the program writes from the options themselves.
    const QString guide = source(u"docs/GUIDE.md"_s);
    QTest::newRow("docs/GUIDE.md") << guide.left(guide.indexOf(u"<!-- reference begins"_s));
}

// A flag of a posenc command line in a shell block, or of a `posenc ...` or `--flag` code span, is
// an option some help page lists.
void TestDrift::everyFlagTheDocsUseIsAnOptionTheHelpLists()
{
    QFETCH(QString, text);
    QSet<QString> options {u"--help"_s};
    QList<const Command *> commands {&Commands::window()};
    for (const Command &command : Commands::all())
        commands.append(&command);
    for (const Command *command : commands) {
        for (const CommandOption &option : command->allOptions()) {
            if (option.hidden)
                continue;
            for (const QString &name : option.names)
                options.insert((name.size() == 1 ? u"-"_s : u"--"_s) + name);
        }
    }
    QStringList spans;
    bool shell = false;
    for (const QString &line : text.split(u'\n')) {
        if (line.startsWith(u"```"_s)) {
            shell = line == u"```sh"_s;
            continue;
        }
        if (!shell || line.trimmed().startsWith(u'#'))
            continue;
        // The commands of the line that run posenc: "cmake ... && build/release/app/posenc ...".
        static const QRegularExpression separator(u"&&|\\|\\||;|\\|"_s);
        for (const QString &command : line.section(u" #"_s, 0, 0).split(separator)) {
            const QString program = command.trimmed().section(u' ', 0, 0);
            if (program == u"posenc"_s || program.endsWith(u"/posenc"_s))
                spans.append(command);
        }
    }
    static const QRegularExpression code(u"`([^`\\n]+)`"_s);
    for (auto m = code.globalMatch(text); m.hasNext();) {
        const QString span = m.next().captured(1);
        if (span.startsWith(u"posenc "_s) || span.startsWith(u"--"_s))
            spans.append(span);
    }
    static const QRegularExpression flag(u"(?<![\\w-])(--[a-z][a-z0-9-]*)"_s);
    QSet<QString> unknown;
    for (const QString &span : std::as_const(spans)) {
        for (auto m = flag.globalMatch(span); m.hasNext();) {
            const QString name = m.next().captured(1);
            if (!options.contains(name))
                unknown.insert(name);
        }
    }
    QVERIFY2(spans.size() > 5, qPrintable(QString::number(spans.size())));
    QStringList sorted(unknown.begin(), unknown.end());
    sorted.sort();
    QVERIFY2(sorted.isEmpty(), qPrintable(u"flags no help lists: "_s + sorted.join(u", "_s)));
}

POSENC_TEST_GUILESS_MAIN(TestDrift)
} // namespace tst_drift
#include "tst_drift.moc"
