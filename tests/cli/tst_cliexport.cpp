// posenc export (docs/ARCHITECTURE.md, Command line) as scripts meet it: every figure in every format, the
// size in pixels or at a dpi, exit 2 for every invalid option naming it, 3 for a path that
// cannot be written, 4 over the memory budget, and no partial or changed file when refused.
#include "CliRun.h"
#include "support/TestMain.h"

#include "support/TestFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <csignal>
#include <limits>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tst_cliexport {
using namespace Qt::StringLiterals;
using namespace TestFiles;
using namespace CliRun;

namespace {

const QStringList kSmall = {u"--d-model"_s, u"64"_s, u"--max-len"_s, u"200"_s};

} // namespace

class TestCliExport : public QObject
{
    Q_OBJECT

private slots:
    void everyFigureInEveryFormat_data();
    void everyFigureInEveryFormat();
    void printSizeAtDpi();
    void namedSizesAreTheDialogsPresets_data();
    void namedSizesAreTheDialogsPresets();
    void matplotlibsNameOfTheDivergingMap();
    void aLongTitleIsShortenedAndKeptWhole();
    void sessionGivesTheParameters();
    void invalidUsage_data();
    void invalidUsage();
    void unwritablePathLeavesNothing_data();
    void unwritablePathLeavesNothing();
    void overBudget();
    void refusedRunLeavesTheFileUnchanged();
    void existingFileIsReplacedWholeOnlyWithForce();
    void everyFigureDrawsAMatrixWithNonFiniteValues_data();
    void everyFigureDrawsAMatrixWithNonFiniteValues();
    void aRefusedWriteIsNamedAndLeavesNothing();
    void aPipeGivenAsOutputIsFedNotReplaced();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QStringList entries() const { return QDir(m_dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot); }

    QTemporaryDir m_dir;
};

void TestCliExport::everyFigureInEveryFormat_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("extension");
    QTest::addColumn<QString>("label");
    const QList<std::pair<QString, QString>> figures = {{u"heatmap"_s, u"column j"_s},
                                                        {u"curves"_s, u"position p"_s},
                                                        {u"magnitudes"_s, u"std and |mean|"_s},
                                                        {u"dropout"_s, u"keep mask M"_s},
                                                        {u"learned"_s, u"position q"_s}};
    for (const auto &[figure, label] : figures)
        for (const QString &extension : {u"png"_s, u"svg"_s, u"pdf"_s})
            QTest::newRow(qPrintable(figure + u"."_s + extension)) << figure << extension << label;
}

void TestCliExport::everyFigureInEveryFormat()
{
    QFETCH(QString, figure);
    QFETCH(QString, extension);
    QFETCH(QString, label);
    const QString file = path(figure + u"."_s + extension);
    QStringList extra;
    if (figure == u"learned"_s) {
        // A position table to compare: a table of our own, written by posenc table.
        const QString table = path(u"table.npy"_s);
        const Run written = posenc(QStringList {u"table"_s, u"input"_s, u"-o"_s, table} + kSmall);
        QVERIFY2(written.exitCode == 0, qPrintable(written.err));
        extra = {u"--encoding"_s, u"learned"_s, u"--position-table"_s, table};
    }
    const Run run
        = posenc(QStringList {u"export"_s, figure, u"-o"_s, file, u"--width"_s, u"720"_s, u"--height"_s, u"480"_s}
                 + kSmall + extra);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QByteArray bytes = readAll(file);
    if (extension == u"png"_s) {
        const QImage image = QImage::fromData(bytes, "png");
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(720, 480));
    } else if (extension == u"svg"_s) {
        QXmlStreamReader xml(bytes);
        QString root, text;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && root.isEmpty())
                root = xml.name().toString();
            if (xml.isCharacters())
                text += xml.text();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(root, u"svg"_s);
        QVERIFY2(text.contains(label), qPrintable(text.left(500)));
    } else {
        QVERIFY(bytes.startsWith("%PDF-"));
        const auto box = mediaBox(bytes);
        QVERIFY(box);
        // 720 x 480 pixels laid out as on a 96 dpi screen: 540 x 360 points.
        QVERIFY2(std::abs(box->width() - 540) <= 1 && std::abs(box->height() - 360) <= 1,
                 qPrintable(u"%1 x %2"_s.arg(box->width()).arg(box->height())));
    }
    QCOMPARE(entries().filter(u".tmp"_s, Qt::CaseInsensitive), QStringList());
    QFile::remove(path(u"table.npy"_s));
}

void TestCliExport::printSizeAtDpi()
{
    const QString png = path(u"print.png"_s);
    const QString pdf = path(u"print.pdf"_s);
    for (const QString &file : {png, pdf}) {
        const Run run = posenc(
            QStringList {u"export"_s, u"heatmap"_s, u"-o"_s, file, u"--size"_s, u"8.5x6cm"_s, u"--dpi"_s, u"300"_s}
            + kSmall);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    }
    const QImage image(png);
    QVERIFY(!image.isNull());
    QVERIFY2(std::abs(image.width() - 1004) <= 2 && std::abs(image.height() - 709) <= 2,
             qPrintable(u"%1 x %2"_s.arg(image.width()).arg(image.height())));
    QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 300);
    const auto box = mediaBox(readAll(pdf));
    QVERIFY(box);
    QVERIFY2(std::abs(box->width() - 8.5 / 2.54 * 72) <= 1 && std::abs(box->height() - 6 / 2.54 * 72) <= 1,
             qPrintable(u"%1 x %2"_s.arg(box->width()).arg(box->height())));
    // The default dpi of a physical size is 300.
    const QString byDefault = path(u"default-dpi.png"_s);
    const Run run
        = posenc(QStringList {u"export"_s, u"curves"_s, u"-o"_s, byDefault, u"--size"_s, u"3.5x2.5in"_s} + kSmall);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(std::abs(QImage(byDefault).width() - 1050) <= 2, qPrintable(QString::number(QImage(byDefault).width())));
}

void TestCliExport::namedSizesAreTheDialogsPresets_data()
{
    // The Export figure dialog's Slide, Single column and Double column, in cm.
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("size");
    QTest::newRow("slide") << u"slide"_s << u"25.4x14.2875cm"_s;
    QTest::newRow("column") << u"column"_s << u"8.5x6cm"_s;
    QTest::newRow("double") << u"double"_s << u"17.5x9cm"_s;
}

// Before: --size slide was refused (exit 2); only WxH with a unit was taken.
void TestCliExport::namedSizesAreTheDialogsPresets()
{
    QFETCH(QString, name);
    QFETCH(QString, size);
    const QString named = path(name + u".pdf"_s);
    const QString spelled = path(name + u"-spelled.pdf"_s);
    for (const auto &[file, text] : {std::pair {named, name}, std::pair {spelled, size}}) {
        const Run run = posenc(QStringList {u"export"_s, u"curves"_s, u"-o"_s, file, u"--size"_s, text} + kSmall);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    }
    const auto box = mediaBox(readAll(named));
    QVERIFY(box);
    QCOMPARE(box, mediaBox(readAll(spelled)));
    const QStringList cm = size.chopped(2).split(u'x');
    QVERIFY2(std::abs(box->width() - cm[0].toDouble() / 2.54 * 72) <= 1
                 && std::abs(box->height() - cm[1].toDouble() / 2.54 * 72) <= 1,
             qPrintable(u"%1 x %2"_s.arg(box->width()).arg(box->height())));
    QFile::remove(named);
    QFile::remove(spelled);
}

// matplotlib's RdBu_r is our diverging map entry for entry (tst_colormaps): the name is taken, and
// draws the same bytes; so does RdBu, its reverse, as diverging_r. coolwarm and every map's NAME_r
// are taken too. Before: RdBu, coolwarm and every _r refused (exit 2).
void TestCliExport::matplotlibsNameOfTheDivergingMap()
{
    const QList<std::pair<QString, QString>> sameMaps {{u"diverging"_s, u"RdBu_r"_s}, {u"diverging_r"_s, u"RdBu"_s}};
    for (const auto &[ourName, theirName] : sameMaps) {
        const QString ours = path(ourName + u".png"_s);
        const QString theirs = path(theirName + u"-mpl.png"_s);
        for (const auto &[file, name] : {std::pair {ours, ourName}, std::pair {theirs, theirName}}) {
            const Run run
                = posenc(QStringList {u"export"_s, u"heatmap"_s, u"-o"_s, file, u"--colormap"_s, name} + kSmall);
            QVERIFY2(run.exitCode == 0, qPrintable(name + u": "_s + run.err));
        }
        QCOMPARE(readAll(theirs), readAll(ours));
        QFile::remove(ours);
        QFile::remove(theirs);
    }
    for (const QString &name : {u"coolwarm"_s, u"coolwarm_r"_s, u"viridis_r"_s}) {
        const QString file = path(name + u".png"_s);
        const Run run = posenc(QStringList {u"export"_s, u"heatmap"_s, u"-o"_s, file, u"--colormap"_s, name} + kSmall);
        QVERIFY2(run.exitCode == 0, qPrintable(name + u": "_s + run.err));
        QFile::remove(file);
    }
    // A name that is none of our tables stays refused, naming the maps.
    const Run refused = posenc(
        QStringList {u"export"_s, u"heatmap"_s, u"-o"_s, path(u"jet.png"_s), u"--colormap"_s, u"jet"_s} + kSmall);
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains(u"--colormap"_s) && refused.err.contains(u"coolwarm_r"_s), qPrintable(refused.err));
}

void TestCliExport::aLongTitleIsShortenedAndKeptWhole()
{
    // Before: "a shorter --title", exit 2. A title longer than its page is shortened on it, and the
    // file's metadata keeps it whole.
    const QString title = QStringList(20, u"position term"_s).join(u' '); // 279 of the 300 allowed
    const QString file = path(u"titled.svg"_s);
    const Run run = posenc(
        QStringList {u"export"_s, u"magnitudes"_s, u"-o"_s, file, u"--size"_s, u"8.5x6cm"_s, u"--title"_s, title}
        + kSmall);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QXmlStreamReader xml(readAll(file));
    QString metadata;
    while (metadata.isEmpty() && !xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("title"))
            metadata = xml.readElementText();
    QCOMPARE(metadata, title);
    QFile::remove(file);
}

void TestCliExport::sessionGivesTheParameters()
{
    // The same parameters from a session and from flags draw the same pixels.
    QFile session(path(u"s.json"_s));
    QVERIFY(session.open(QIODevice::WriteOnly));
    session.write(R"({"format": "posenc-session", "version": 1, "params": {"d-model": "48", "max-len": "96",
        "layout": "split"}})");
    session.close();
    const QString a = path(u"from-session.png"_s);
    const QString b = path(u"from-flags.png"_s);
    Run run = posenc({u"export"_s, u"heatmap"_s, u"-o"_s, a, u"--session"_s, session.fileName()});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    run = posenc({u"export"_s, u"heatmap"_s, u"-o"_s, b, u"--d-model"_s, u"48"_s, u"--max-len"_s, u"96"_s,
                  u"--layout"_s, u"split"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(QImage(a), QImage(b));
    const QString c = path(u"interleaved.png"_s);
    run = posenc(
        {u"export"_s, u"heatmap"_s, u"-o"_s, c, u"--session"_s, session.fileName(), u"--layout"_s, u"interleaved"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(QImage(a) != QImage(c));
}

void TestCliExport::invalidUsage_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("named");
    const QString out = u"x.png"_s;
    QTest::newRow("no figure") << QStringList {u"-o"_s, out} << u"FIGURE"_s;
    QTest::newRow("unknown figure") << QStringList {u"spectrum"_s, u"-o"_s, out} << u"spectrum"_s;
    QTest::newRow("no output") << QStringList {u"heatmap"_s} << u"--output"_s;
    QTest::newRow("unknown extension") << QStringList {u"heatmap"_s, u"-o"_s, u"x.jpg"_s} << u"x.jpg"_s;
    QTest::newRow("width alone") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--width"_s, u"300"_s} << u"--height"_s;
    QTest::newRow("width zero alone") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--width"_s, u"0"_s}
                                      << u"--width: must be a whole number of pixels"_s;
    QTest::newRow("width not a number") << QStringList {u"heatmap"_s, u"-o"_s,       out,     u"--width"_s,
                                                        u"wide"_s,    u"--height"_s, u"300"_s}
                                        << u"--width"_s;
    QTest::newRow("height too large") << QStringList {u"heatmap"_s, u"-o"_s,       out,       u"--width"_s,
                                                      u"300"_s,     u"--height"_s, u"99999"_s}
                                      << u"--height"_s;
    QTest::newRow("size and width") << QStringList {u"heatmap"_s, u"-o"_s,  out,           u"--size"_s, u"8x6cm"_s,
                                                    u"--width"_s, u"300"_s, u"--height"_s, u"200"_s}
                                    << u"--size"_s;
    QTest::newRow("size without unit") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--size"_s, u"8x6"_s}
                                       << u"--size"_s;
    QTest::newRow("dpi zero") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--size"_s, u"8x6cm"_s, u"--dpi"_s, u"0"_s}
                              << u"--dpi"_s;
    QTest::newRow("too many pixels") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--size"_s, u"90x90in"_s}
                                     << u"megapixels"_s;
    // Below the least size (6 x 4 cm fits at any font size up to 9 pt), what the text cannot fit.
    QTest::newRow("too small for its text")
        << QStringList {u"magnitudes"_s, u"-o"_s, out, u"--size"_s, u"1x0.7cm"_s} << u"at least"_s;
    // The learned figure chooses its family, which needs its table.
    QTest::newRow("learned without its table") << QStringList {u"learned"_s, u"-o"_s, out} << u"--position-table"_s;
    QTest::newRow("learned under another family")
        << QStringList {u"learned"_s, u"-o"_s, out, u"--encoding"_s, u"rope"_s} << u"--encoding"_s;
    QTest::newRow("dims on learned") << QStringList {u"learned"_s,    u"-o"_s,     out,     u"--encoding"_s,
                                                     u"sinusoidal"_s, u"--dims"_s, u"0:4"_s}
                                     << u"--dims"_s;
    QTest::newRow("buckets: t5 or deberta")
        << QStringList {u"buckets"_s, u"-o"_s, out} << u"--encoding t5 or --encoding deberta"_s;
    QTest::newRow("unknown colormap") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--colormap"_s, u"jet"_s}
                                      << u"--colormap"_s;
    QTest::newRow("colormap on curves") << QStringList {u"curves"_s, u"-o"_s, out, u"--colormap"_s, u"viridis"_s}
                                        << u"--colormap"_s;
    QTest::newRow("unknown quantity") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--quantity"_s, u"logits"_s}
                                      << u"--quantity"_s;
    QTest::newRow("a record, not a map") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--quantity"_s,
                                                         u"rope-frequencies"_s}
                                         << u"--quantity"_s;
    QTest::newRow("another family's quantity")
        << QStringList {u"heatmap"_s, u"-o"_s, out, u"--encoding"_s, u"sinusoidal"_s, u"--quantity"_s, u"rope-cos"_s}
        << u"--quantity: the rope-cos table is not defined here"_s;
    QTest::newRow("quantity on dropout") << QStringList {u"dropout"_s, u"-o"_s, out, u"--quantity"_s, u"pe"_s}
                                         << u"--quantity"_s;
    QTest::newRow("font size") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--font-size"_s, u"100"_s}
                               << u"--font-size"_s;
    QTest::newRow("positions outside") << (QStringList {u"heatmap"_s, u"-o"_s, out, u"--positions"_s, u"100:300"_s}
                                           + kSmall)
                                       << u"--positions"_s;
    QTest::newRow("dims outside") << (QStringList {u"curves"_s, u"-o"_s, out, u"--dims"_s, u"0,64"_s} + kSmall)
                                  << u"--dims"_s;
    QTest::newRow("d-model zero") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--d-model"_s, u"0"_s} << u"d-model"_s;
    QTest::newRow("dropout above one") << QStringList {u"dropout"_s, u"-o"_s, out, u"--dropout"_s, u"1.5"_s}
                                       << u"dropout"_s;
    QTest::newRow("unknown option") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--colour"_s, u"red"_s} << u"colour"_s;
    // The audit: a 100,000-character title was blamed on --size, whose advice could not help.
    QTest::newRow("a title too long") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--title"_s, QString(100000, u'x')}
                                      << u"--title: must be at most 300 characters; got 100000"_s;
    // The audit: `--size 1e9x1e9cm` gave the format without the range.
    QTest::newRow("size far too large") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--size"_s, u"1e9x1e9cm"_s}
                                        << u"between 0.25 in (0.635 cm) and 100 in (254 cm)"_s;
    QTest::newRow("size not a size") << QStringList {u"heatmap"_s, u"-o"_s, out, u"--size"_s, u"big"_s}
                                     << u"between 0.25 in (0.635 cm) and 100 in (254 cm)"_s;
    // The audit: a table of no columns was "over the memory budget" (exit 4).
    QTest::newRow("a quantity with no columns")
        << QStringList {u"heatmap"_s, u"-o"_s,         out,    u"--compose"_s, u"concat"_s, u"--pe-dims"_s,
                        u"0"_s,       u"--quantity"_s, u"pe"_s}
        << u"--quantity: the pe table has no columns at these parameters (the concatenation gives the PE none)"_s;
    // Before: "the concatenation gives the PE none", of the embeddings' table.
    QTest::newRow("the embeddings with no columns")
        << QStringList {u"heatmap"_s, u"-o"_s,         out,           u"--compose"_s, u"concat"_s, u"--pe-dims"_s,
                        u"512"_s,     u"--quantity"_s, u"embedding"_s}
        << u"--quantity: the embedding table has no columns at these parameters (the concatenation gives the "
           "embeddings none)"_s;
}

void TestCliExport::invalidUsage()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, named);
    const QStringList before = entries();
    QDir::setCurrent(m_dir.path());
    const Run run = posenc(QStringList {u"export"_s} + arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(named), qPrintable(run.err));
    QCOMPARE(entries(), before);
}

void TestCliExport::unwritablePathLeavesNothing_data()
{
    QTest::addColumn<QString>("extension");
    QTest::newRow("png") << u"png"_s;
    QTest::newRow("svg") << u"svg"_s;
    QTest::newRow("pdf") << u"pdf"_s;
}

void TestCliExport::unwritablePathLeavesNothing()
{
    QFETCH(QString, extension);
    // A directory that is a file: no one can write below it, root included.
    QFile blocker(path(u"blocker"_s));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const QStringList before = entries();
    const QString target = path(u"blocker/figure."_s + extension);
    const Run run = posenc(QStringList {u"export"_s, u"magnitudes"_s, u"-o"_s, target} + kSmall);
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.err.contains(target), qPrintable(run.err));
    QCOMPARE(entries(), before);
}

void TestCliExport::overBudget()
{
    const QString file = path(u"budget.png"_s);
    const Run run = posenc({u"export"_s, u"heatmap"_s, u"-o"_s, file, u"--d-model"_s, u"4096"_s, u"--max-len"_s,
                            u"64"_s, u"--memory-budget"_s, u"0.000001"_s});
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(u"GiB"_s), qPrintable(run.err));
    QVERIFY(!QFile::exists(file));
}

void TestCliExport::refusedRunLeavesTheFileUnchanged()
{
    const QString file = path(u"keep.png"_s);
    QFile existing(file);
    QVERIFY(existing.open(QIODevice::WriteOnly));
    existing.write("an earlier figure");
    existing.close();
    for (const QStringList &refused : {QStringList {u"--d-model"_s, u"-3"_s}, QStringList {u"--font-size"_s, u"1"_s},
                                       QStringList {u"--memory-budget"_s, u"0.000001"_s, u"--d-model"_s, u"4096"_s}}) {
        const Run run = posenc(QStringList {u"export"_s, u"heatmap"_s, u"-o"_s, file, u"--force"_s} + refused);
        QVERIFY2(run.exitCode == 2 || run.exitCode == 4, qPrintable(run.err));
        QCOMPARE(readAll(file), QByteArray("an earlier figure"));
    }
}

void TestCliExport::existingFileIsReplacedWholeOnlyWithForce()
{
    const QString file = path(u"replace.svg"_s);
    QFile existing(file);
    QVERIFY(existing.open(QIODevice::WriteOnly));
    existing.write(QByteArray(1 << 20, 'x')); // longer than the figure: nothing of it may remain
    existing.close();
    // Without --force the file is kept as it was; the refusal names it and the way to replace it.
    const Run kept = posenc(QStringList {u"export"_s, u"curves"_s, u"-o"_s, file} + kSmall);
    QCOMPARE(kept.exitCode, 3);
    QVERIFY2(kept.err.contains(file) && kept.err.contains(u"--force"_s), qPrintable(kept.err));
    QCOMPARE(readAll(file), QByteArray(1 << 20, 'x'));
    const Run run = posenc(QStringList {u"export"_s, u"curves"_s, u"-o"_s, file, u"--force"_s} + kSmall);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QByteArray bytes = readAll(file);
    QVERIFY(!bytes.contains("xxxx"));
    QVERIFY(bytes.trimmed().endsWith("</svg>"));
}

void TestCliExport::everyFigureDrawsAMatrixWithNonFiniteValues_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("wholeRow");
    for (const QString &figure :
         {u"heatmap"_s, u"curves"_s, u"magnitudes"_s, u"dropout"_s, u"dropout-compare"_s, u"dropout-anatomy"_s,
          u"learned"_s, u"similarity"_s, u"precision"_s, u"scale-compare"_s, u"compose-compare"_s, u"rope-input"_s})
        for (const QString &value : {u"nan"_s, u"inf"_s, u"-inf"_s})
            for (const bool row : {true, false})
                QTest::newRow(qPrintable(u"%1, %2 %3"_s.arg(figure, value, row ? u"row"_s : u"cell"_s)))
                    << figure << value << row;
}

// The audit: a NaN row in a loaded matrix crashed dropout-anatomy (SIGSEGV in
// StampedGraph::drawScatterPlot), in export and in the window. No figure may crash on one.
void TestCliExport::everyFigureDrawsAMatrixWithNonFiniteValues()
{
    QFETCH(QString, figure);
    QFETCH(QString, value);
    QFETCH(bool, wholeRow);
    const float bad = value == u"nan"_s ? std::numeric_limits<float>::quiet_NaN()
        : value == u"inf"_s             ? std::numeric_limits<float>::infinity()
                                        : -std::numeric_limits<float>::infinity();
    std::vector<float> values(16 * 8, 1.0f);
    for (int c = 0; c < 8; ++c)
        if (wholeRow || c == 2)
            values[static_cast<std::size_t>(wholeRow ? c : 3 * 8 + c)] = bad;
    const QString matrix = path(u"nonfinite.npy"_s);
    QVERIFY(writeNpy(matrix, 16, 8, values));
    const QString out = path(u"nonfinite.png"_s);
    // The learned figure reads the matrix as its position table, every other as the embeddings;
    // rope-input rotates its rows, a head of all 8 columns.
    QStringList source = figure == u"learned"_s
        ? QStringList {u"--encoding"_s, u"learned"_s, u"--position-table"_s, matrix}
        : QStringList {u"--embeddings"_s, matrix};
    if (figure == u"rope-input"_s)
        source += {u"--encoding"_s, u"rope"_s, u"--head-dim"_s, u"8"_s};
    const Run run = posenc(QStringList {u"export"_s, figure, u"-o"_s, out, u"--force"_s} + source
                           + QStringList {u"--width"_s, u"900"_s, u"--height"_s, u"700"_s});
    QVERIFY2(run.exitCode == 0, qPrintable(u"exit %1: %2"_s.arg(run.exitCode).arg(run.err)));
    QVERIFY(!QImage(out).isNull());
}

// A write the system refuses half way (here a file size limit, as a full disk would) names the
// system's reason and leaves no part of the file.
void TestCliExport::aRefusedWriteIsNamedAndLeavesNothing()
{
    QProcess process;
    process.setChildProcessModifier([] {
        std::signal(SIGXFSZ, SIG_IGN); // the write then fails with EFBIG instead of ending the process
        const rlimit limit {4096, 4096};
        setrlimit(RLIMIT_FSIZE, &limit);
    });
    const QString out = path(u"limited.png"_s);
    const QStringList before = entries();
    process.start(QStringLiteral(POSENC_EXECUTABLE), QStringList {u"export"_s, u"heatmap"_s, u"-o"_s, out} + kSmall);
    QVERIFY(process.waitForFinished(300000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 3);
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QVERIFY2(err.contains(out + u": File too large"_s), qPrintable(err));
    QCOMPARE(entries(), before);
}

// A pipe named as the output is fed the figure: before, a file was renamed over it, as over
// /dev/null or any device the user could create files beside.
void TestCliExport::aPipeGivenAsOutputIsFedNotReplaced()
{
    const QString fifo = path(u"figure.fifo"_s);
    QCOMPARE(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    // The reading end, opened first without waiting for a writer, drained while posenc runs: a
    // pipe replaced by a file gets nothing, and the test ends all the same.
    const int reading = ::open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK);
    QVERIFY(reading >= 0);
    QByteArray received;
    const auto drain = [&] {
        char buffer[4096];
        for (ssize_t n; (n = ::read(reading, buffer, sizeof(buffer))) > 0;)
            received.append(buffer, n);
    };
    QProcess process;
    process.start(QStringLiteral(POSENC_EXECUTABLE),
                  QStringList {u"export"_s, u"heatmap"_s, u"-o"_s, fifo, u"--format"_s, u"png"_s} + kSmall);
    while (!process.waitForFinished(5))
        drain();
    drain();
    ::close(reading);
    QCOMPARE(process.exitCode(), 0);
    QVERIFY(received.startsWith("\x89PNG"));
    QVERIFY(!QImage::fromData(received).isNull());
    const QFileInfo info(fifo);
    QVERIFY(info.exists() && !info.isFile());
}

POSENC_TEST_GUILESS_MAIN(TestCliExport)
} // namespace tst_cliexport
#include "tst_cliexport.moc"
