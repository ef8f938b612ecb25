// The man page (resources/posenc.1) matches the program: every option that `posenc --help`
// and each subcommand's --help name is in it, it names no option that none of them has, and
// its header carries the version `posenc --version` prints.
#include "CliRun.h"

#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

// The options a text names: --long-name and -x or -X (a single letter, as help and roff write them).
QSet<QString> optionsIn(const QString &text)
{
    static const QRegularExpression option(uR"((?<![\w-])(--[a-z][a-z0-9-]*[a-z0-9]|-[a-zA-Z])(?![\w-]))"_s);
    QSet<QString> found;
    for (auto it = option.globalMatch(text); it.hasNext();)
        found.insert(it.next().captured(1));
    return found;
}

// The manual as plain text: roff's escaped minus "\-" is a hyphen, font changes go.
QString manualText()
{
    QFile file(QStringLiteral(POSENC_MANUAL));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QString text = QString::fromUtf8(file.readAll());
    text.replace(u"\\-"_s, u"-"_s);
    static const QRegularExpression fonts(uR"(\\f[BIRP])"_s);
    text.remove(fonts);
    return text;
}

QString sorted(const QSet<QString> &set)
{
    QStringList list(set.begin(), set.end());
    list.sort();
    return list.join(u' ');
}

} // namespace

class TestManPage : public QObject
{
    Q_OBJECT

private slots:
    void everyHelpOptionIsInTheManual_data();
    void everyHelpOptionIsInTheManual();
    void theManualNamesNoOtherOption();
    void theManualCarriesTheVersion();
};

void TestManPage::everyHelpOptionIsInTheManual_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("posenc --help") << QStringList {u"--help"_s};
    QTest::newRow("posenc table --help") << QStringList {u"table"_s, u"--help"_s};
    QTest::newRow("posenc export --help") << QStringList {u"export"_s, u"--help"_s};
    QTest::newRow("posenc bench --help") << QStringList {u"bench"_s, u"--help"_s};
    QTest::newRow("posenc lessons --help") << QStringList {u"lessons"_s, u"--help"_s};
    QTest::newRow("posenc presets --help") << QStringList {u"presets"_s, u"--help"_s};
    QTest::newRow("posenc describe --help") << QStringList {u"describe"_s, u"--help"_s};
    QTest::newRow("posenc check --help") << QStringList {u"check"_s, u"--help"_s};
}

void TestManPage::everyHelpOptionIsInTheManual()
{
    QFETCH(QStringList, arguments);
    const Run run = posenc(arguments);
    QCOMPARE(run.exitCode, 0);
    const QSet<QString> help = optionsIn(run.out);
    QVERIFY(help.size() > 2);
    const QSet<QString> missing = help - optionsIn(manualText());
    QVERIFY2(missing.isEmpty(), qPrintable(u"not in posenc.1: "_s + sorted(missing)));
}

void TestManPage::theManualNamesNoOtherOption()
{
    QSet<QString> help;
    for (const QStringList &arguments :
         {QStringList {u"--help"_s}, QStringList {u"table"_s, u"--help"_s}, QStringList {u"export"_s, u"--help"_s},
          QStringList {u"bench"_s, u"--help"_s}, QStringList {u"lessons"_s, u"--help"_s},
          QStringList {u"presets"_s, u"--help"_s}, QStringList {u"describe"_s, u"--help"_s},
          QStringList {u"check"_s, u"--help"_s}})
        help += optionsIn(posenc(arguments).out);
    const QSet<QString> extra = optionsIn(manualText()) - help;
    QVERIFY2(extra.isEmpty(), qPrintable(u"in posenc.1 but in no --help: "_s + sorted(extra)));
}

void TestManPage::theManualCarriesTheVersion()
{
    const Run run = posenc({u"--version"_s});
    QCOMPARE(run.exitCode, 0);
    const QString version = run.out.trimmed(); // "posenc X.Y.Z"
    QVERIFY(version.startsWith(u"posenc "_s));
    QVERIFY2(manualText().contains(u".TH POSENC 1 "_s) && manualText().contains(u"\"%1\""_s.arg(version)),
             qPrintable(version));
}

QTEST_GUILESS_MAIN(TestManPage)
#include "tst_manpage.moc"
