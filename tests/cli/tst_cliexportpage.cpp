// posenc export of several figures on one page (FIGURE,FIGURE... and --lesson NAME all): the page
// is the size asked for, each figure keeps its own options and --config, and every refusal names
// its flag with exit 2 and writes nothing.
#include "CliRun.h"

#include "support/TestFiles.h"

#include <QDir>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace TestFiles;
using namespace CliRun;

class TestCliExportPage : public QObject
{
    Q_OBJECT

private slots:
    // Two figures of one model on a slide: the PNG is the slide's pixels, its title names both, and
    // the PDF's page is the slide.
    void aModelsFiguresOnASlide()
    {
        const QString png = m_dir.filePath(u"slide.png"_s), pdf = m_dir.filePath(u"slide.pdf"_s);
        for (const QString &file : {png, pdf}) {
            const Run run = posenc({u"export"_s, u"layer-stack,query-scale"_s, u"-o"_s, file, u"--size"_s, u"slide"_s,
                                    u"--dpi"_s, u"96"_s, u"--config"_s, u"llama-4-scout"_s});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        }
        const QImage image(png);
        // 25.4 x 14.29 cm at 96 dpi.
        QCOMPARE(image.size(), QSize(960, 540));
        const QString title = image.text(u"Title"_s);
        QVERIFY2(title.contains(u"Layer stack"_s) && title.contains(u"Query scale"_s), qPrintable(title));
        QVERIFY2(title.contains(u"Llama-4-Scout"_s), qPrintable(title)); // both drew the config given
        const auto box = mediaBox(readAll(pdf));
        QVERIFY(box);
        QVERIFY2(std::abs(box->width() - 720) <= 1 && std::abs(box->height() - 405) <= 2,
                 qPrintable(u"%1 x %2"_s.arg(box->width()).arg(box->height())));
    }

    // A lesson's figures, all of them: one page, and an option only some figures take goes to them.
    void aLessonsFiguresAndAnOptionOfOne()
    {
        const QString file = m_dir.filePath(u"lesson.png"_s);
        Run run = posenc({u"export"_s, u"--lesson"_s, u"rope-scaling"_s, u"all"_s, u"-o"_s, file, u"--width"_s,
                          u"1200"_s, u"--height"_s, u"700"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(QImage(file).size(), QSize(1200, 700));
        // --quantity is the heatmap's, not the curves': both drawn, the heatmap of the quantity.
        const QString two = m_dir.filePath(u"two.png"_s);
        run = posenc({u"export"_s, u"heatmap,curves"_s, u"--quantity"_s, u"pe"_s, u"-o"_s, two, u"--d-model"_s, u"64"_s,
                      u"--max-len"_s, u"100"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(QImage(two).text(u"Title"_s).contains(u"; "_s));
    }

    // A lesson's figures read for a model of another family: a figure drawn for other families only
    // (rope-score, for a sinusoidal or a 2-D RoPE model) is left out and named, the others drawn.
    void aLessonsFiguresForAModelOfAnotherFamily_data()
    {
        QTest::addColumn<QString>("lesson");
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("family");
        QTest::newRow("left padding, sinusoidal") << u"left-padding"_s << u"transformer-big"_s << u"sinusoidal"_s;
        QTest::newRow("families, 2-D RoPE") << u"families"_s << u"flux-1-dev"_s << u"rope-2d"_s;
    }

    void aLessonsFiguresForAModelOfAnotherFamily()
    {
        QFETCH(QString, lesson);
        QFETCH(QString, preset);
        QFETCH(QString, family);
        const QString file = m_dir.filePath(lesson + u".png"_s);
        const Run run = posenc({u"export"_s, u"--lesson"_s, lesson, u"all"_s, u"--preset"_s, preset, u"-o"_s, file,
                                u"--width"_s, u"1200"_s, u"--height"_s, u"700"_s});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.startsWith(u"posenc export: all: "_s) && run.err.contains(u"rope-score"_s)
                     && run.err.contains(u"left out: drawn for other families than "_s + family),
                 qPrintable(run.err));
        const QString title = QImage(file).text(u"Title"_s);
        QVERIFY2(!title.isEmpty() && !title.contains(u"RoPE score"_s, Qt::CaseInsensitive), qPrintable(title));
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("says");
        QTest::newRow("a name that is no figure") << QStringList {u"heatmap,nope"_s} << u"got 'nope'"_s;
        QTest::newRow("ten figures") << QStringList {u"heatmap,curves,heatmap,curves,heatmap,curves,heatmap,curves,"
                                                     "heatmap,curves"_s}
                                     << u"FIGURE: at most 9 figures on one page; got 10"_s;
        QTest::newRow("a title for several")
            << QStringList {u"heatmap,curves"_s, u"--title"_s, u"T"_s} << u"--title: replaces one figure's title"_s;
        QTest::newRow("an option none of them takes") << QStringList {u"heatmap,curves"_s, u"--axis"_s, u"t"_s}
                                                      << u"--axis: none of the figures takes it; position-ids"_s;
        QTest::newRow("all without a lesson") << QStringList {u"all"_s} << u"got 'all'"_s;
        QTest::newRow("too small for its figures")
            << QStringList {u"heatmap,curves,similarity,magnitudes"_s, u"--width"_s, u"120"_s, u"--height"_s, u"80"_s}
            << u"--size: "_s;
    }

    void refusals()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, says);
        const QString file = m_dir.filePath(u"refused.png"_s);
        const Run run = posenc(QStringList {u"export"_s} + arguments + QStringList {u"-o"_s, file});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(says), qPrintable(run.err));
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY(!QFile::exists(file));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestCliExportPage)
#include "tst_cliexportpage.moc"
