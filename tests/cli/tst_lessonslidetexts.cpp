// Every lesson as a lecturer puts it on a slide (issue 58): `posenc export --lesson NAME [--preset P]
// --size slide --font-size 14`, and on a 4:3 slide 25.4 cm wide, read for its own model and for
// models of other families, and read back from its SVG as a reader sees it (docs/ARCHITECTURE.md,
// Exporting): every text at 14 pt (a table's cells down to 10.5), none overlapping another, outside
// the page or cut by its clip. A model a lesson does not apply to (ALiBi's lesson for a rotary
// model) is refused, and its row skipped.
#include "CliRun.h"
#include "support/SvgTexts.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

// The lesson's own model, the presets of the acceptance, and one or two of each other family, so
// that every lesson is read for three models at least.
const QStringList &presets()
{
    static const QStringList names {u""_s, u"qwen2-5-7b"_s, u"llama-4-scout"_s, u"transformer-big"_s,
                                    u"annotated-transformer"_s, u"bloom-560m"_s, u"mpt-7b"_s, u"flan-t5-base"_s,
                                    u"deberta-v3-base"_s, u"qwen2-vl-7b"_s, u"qwen3-vl-8b"_s, u"llama-3-1-8b"_s,
                                    u"gemma-3-4b"_s};
    return names;
}

// The rows still short of it, each with what it lacks.
const QStringList &shortfalls()
{
    static const QStringList rows {
        // The layer stack's top row of words ("full_attention") reaches 0.9 units past the plot's
        // top, where the layers' range ends half a row short of it.
        u"many-layers llama-3-1-8b 4:3"_s,
    };
    return rows;
}

} // namespace

class TestLessonSlideTexts : public QObject
{
    Q_OBJECT

private slots:
    void everyTextWholeAndApart_data();
    void everyTextWholeAndApart();
};

void TestLessonSlideTexts::everyTextWholeAndApart_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("size");
    const Run list = posenc({u"lessons"_s});
    QCOMPARE(list.exitCode, 0);
    QStringList lessons;
    for (const QString &line : list.out.split(u'\n', Qt::SkipEmptyParts))
        lessons.append(line.section(u'\t', 0, 0));
    QVERIFY(lessons.size() >= 20);
    // A 16:9 slide and a 4:3 one, 25.4 cm wide.
    for (const QString &size : {u"slide"_s, u"25.4x19.05cm"_s})
        for (const QString &lesson : std::as_const(lessons))
            for (const QString &preset : presets())
                QTest::addRow("%s %s %s", qPrintable(lesson), preset.isEmpty() ? "default" : qPrintable(preset),
                              size == u"slide"_s ? "16:9" : "4:3")
                    << lesson << preset << size;
}

void TestLessonSlideTexts::everyTextWholeAndApart()
{
    QFETCH(QString, lesson);
    QFETCH(QString, preset);
    QFETCH(QString, size);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString svg = dir.filePath(u"slide.svg"_s);
    QStringList arguments {u"export"_s, u"--lesson"_s, lesson, u"--size"_s, size, u"--font-size"_s, u"14"_s,
                           u"--quiet"_s, u"-o"_s, svg};
    if (!preset.isEmpty())
        arguments += {u"--preset"_s, preset};
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    const Run run = posenc(arguments, environment);
    if (run.exitCode != 0 && run.err.contains(u"the lesson %1 needs"_s.arg(lesson)))
        QSKIP("the lesson does not apply to this model");
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const SvgTexts::Page page = SvgTexts::read(file.readAll());
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
    QVERIFY(!page.texts.empty());
    // The words and numbers in a table's cells may be smaller, down to three quarters of the size
    // asked (CellNumbers::kMinFontScale: 10.5 pt, read from the back of a room).
    const QStringList problems = SvgTexts::problemsOf(page, 14.0, 0.75 * 14.0);
    const QString row = QString::fromLatin1(QTest::currentDataTag());
    if (!problems.isEmpty())
        qInfo("%s: %s", qPrintable(row), qPrintable(problems.join(u"; "_s)));
    if (shortfalls().contains(row))
        QEXPECT_FAIL("", "short of issue 58's acceptance on a 14-pt slide, open", Continue);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; "_s)));
}

QTEST_MAIN(TestLessonSlideTexts)
#include "tst_lessonslidetexts.moc"
