// The families' words files (docs/ARCHITECTURE.md, Adding an encoding family): every family has
// one, building every family, its rows and its check facet reads every key of every file (a misspelt key in a file
// is never read; a key the code asks for that a file lacks stops the program while the families are
// built), and what a file tells describe's help matches what describe prints.
#include "check/FamilyCheck.h"
#include "core/FamilySpec.h"
#include "core/FamilyWords.h"
#include "core/ParamTable.h"
#include "support/TestMain.h"

#include <QSet>
#include <QTest>

namespace tst_familywords {
using namespace posenc;
using namespace Qt::StringLiterals;

class TestFamilyWords : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyFamilyHasAFile();
    void everyKeyOfAFileIsRead_data();
    void everyKeyOfAFileIsRead();
    void describeMeansEveryKeyItPrints_data();
    void describeMeansEveryKeyItPrints();
    void aFamilyWithRowsHasAHeading();
};

void TestFamilyWords::initTestCase()
{
    // Every family, every row and every check facet, as the program builds them.
    FamilyWords::recordReads();
    for (const FamilySpec &family : Families::all()) {
        QVERIFY(!family.rows().isEmpty() || family.heading.isEmpty());
        (void)FamilyChecks::of(family.encoding);
    }
    QVERIFY(!ParamTable::rows().isEmpty());
}

void TestFamilyWords::everyFamilyHasAFile()
{
    QCOMPARE(FamilyWords::names().size(), Families::all().size());
    QSet<QString> words;
    for (const QString &name : FamilyWords::names())
        words.insert(FamilyWords(name).text(u"word"_s));
    for (const FamilySpec &family : Families::all())
        QVERIFY2(words.contains(family.word), qPrintable(family.word));
}

void TestFamilyWords::everyKeyOfAFileIsRead_data()
{
    QTest::addColumn<QString>("name");
    for (const QString &name : FamilyWords::names())
        QTest::newRow(qPrintable(name)) << name;
}

void TestFamilyWords::everyKeyOfAFileIsRead()
{
    QFETCH(QString, name);
    const QStringList unread = FamilyWords::unread(name);
    QVERIFY2(unread.isEmpty(), qPrintable(name + u"Words.json: no code reads "_s + unread.join(u", "_s)));
}

void TestFamilyWords::describeMeansEveryKeyItPrints_data()
{
    QTest::addColumn<QString>("word");
    for (const FamilySpec &family : Families::all())
        if (family.describe)
            QTest::newRow(qPrintable(family.word)) << family.word;
}

void TestFamilyWords::describeMeansEveryKeyItPrints()
{
    QFETCH(QString, word);
    const Encoding encoding = *Families::fromWord(word);
    const FamilySpec &family = Families::spec(encoding);
    QVERIFY(!family.describeSource.isEmpty());
    QStringList printed, meant;
    for (const auto &entry : family.describe(familyUnder(Params {}, encoding)))
        printed.append(entry.first);
    for (const auto &[keys, meaning] : family.describeKeys) {
        QVERIFY2(!meaning.isEmpty(), qPrintable(keys));
        meant += keys.split(u", "_s);
    }
    // The help may group keys out of describe's order (M-RoPE's fastest pairs and their frequencies).
    meant.sort();
    printed.sort();
    QCOMPARE(meant, printed);
}

void TestFamilyWords::aFamilyWithRowsHasAHeading()
{
    for (const FamilySpec &family : Families::all()) {
        QVERIFY2(!family.word.isEmpty() && !family.help.isEmpty() && !family.formula.isEmpty(),
                 qPrintable(family.word));
        if (!family.rows().isEmpty())
            QVERIFY2(!family.heading.isEmpty(), qPrintable(family.word));
    }
}

POSENC_TEST_GUILESS_MAIN(TestFamilyWords)
} // namespace tst_familywords
#include "tst_familywords.moc"
