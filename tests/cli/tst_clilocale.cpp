// Figures are the same file on every machine (docs/ARCHITECTURE.md, Exporting): every figure
// exported under LANG=de_DE.UTF-8 is byte for byte the one exported under C, as PNG and as SVG.
// Before, QCustomPlot's ticks followed the system locale: "0,5", "1E+03" and "1.000" in German,
// beside titles that print in English. Qt takes the locale from the environment, so the German
// locale needs no glibc locale generated on the machine.
#include "CliRun.h"
#include "support/TestMain.h"

#include "support/TestFamily.h"
#include "support/TestFiles.h"

#include "render/FigureRegistry.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace tst_clilocale {
using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

// Small enough to be quick, with ticks in the thousands (group separators) and below one
// (decimal separators), and a log axis (exponents).
const QStringList kParams = {u"--d-model"_s, u"64"_s, u"--max-len"_s, u"2000"_s, u"--dropout"_s, u"0.25"_s};

QProcessEnvironment inLocale(const QString &locale)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(u"LANGUAGE"_s);
    for (const QString &variable : {u"LANG"_s, u"LC_ALL"_s, u"LC_NUMERIC"_s})
        environment.insert(variable, locale);
    return environment;
}

} // namespace

class TestCliLocale : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void figuresAreTheSameInEveryLocale_data();
    void figuresAreTheSameInEveryLocale();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
    QString m_table; // a position table for the learned figure
};

void TestCliLocale::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_table = path(u"table.npy"_s);
    const Run written
        = CliRun::posenc({u"table"_s, u"input"_s, u"-o"_s, m_table, u"--d-model"_s, u"64"_s, u"--max-len"_s, u"200"_s});
    QVERIFY2(written.exitCode == 0, qPrintable(written.err));
}

void TestCliLocale::figuresAreTheSameInEveryLocale_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("extension");
    for (const QString &figure : posenc::FigureRegistry::names())
        for (const QString &extension : {u"png"_s, u"svg"_s})
            QTest::newRow(qPrintable(figure + u"."_s + extension)) << figure << extension;
}

void TestCliLocale::figuresAreTheSameInEveryLocale()
{
    QFETCH(QString, figure);
    QFETCH(QString, extension);
    QStringList extra = kParams;
    if (figure == u"learned"_s)
        extra = {u"--encoding"_s, u"learned"_s, u"--position-table"_s, m_table};
    else // a figure of families whose records give its parameters (tests/families/<family>/)
        extra += TestFamilies::flagsForFamilies(posenc::FigureRegistry::find(figure)->model().families(), 2000);
    QByteArray files[2];
    const QStringList locales = {u"C.UTF-8"_s, u"de_DE.UTF-8"_s};
    for (int i = 0; i < 2; ++i) {
        const QString file = path(u"%1-%2.%3"_s.arg(figure, locales[i], extension));
        const Run run = CliRun::posenc(
            QStringList {u"export"_s, figure, u"-o"_s, file, u"--width"_s, u"640"_s, u"--height"_s, u"480"_s} + extra,
            inLocale(locales[i]));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        files[i] = TestFiles::readAll(file);
        QVERIFY(!files[i].isEmpty());
    }
    if (extension == u"svg"_s) {
        // Where they differ, the texts say how: a tick as "0,5" against "0.5".
        const auto texts = [](const QByteArray &svg) {
            QStringList found;
            static const QRegularExpression text(u">([^<>]+)</text>"_s);
            for (const QRegularExpressionMatch &m : text.globalMatch(QString::fromUtf8(svg)))
                found << m.captured(1);
            return found;
        };
        QCOMPARE(texts(files[1]), texts(files[0]));
    }
    QVERIFY2(files[0] == files[1], "the German figure differs from the C one");
}

POSENC_TEST_MAIN(TestCliLocale)
} // namespace tst_clilocale
#include "tst_clilocale.moc"
