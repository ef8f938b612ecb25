// File > Export figure: sizes, formats, the window's own size pixel for pixel, a paper's column
// grown for a figure's panels as `posenc export` grows it, a figure too small for its text, the
// overwrite question, an unwritable path, the remembered choices.
#include "cli/ExportCommand.h"
#include "gui/FigureExportDialog.h"
#include "gui/FigureView.h"
#include "gui/WriteDialogs.h"
#include "support/TestMain.h"

#include "render/FigureDefaults.h"
#include "support/FigureBuilds.h"
#include "support/MessageBoxes.h"
#include "support/SvgTexts.h"
#include "support/TestFiles.h"
#include "support/TestShots.h"
#include "support/WindowFixture.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

#include <memory>

namespace tst_figureexportdialog {
using namespace Qt::StringLiterals;
using namespace TestFiles;
using namespace MessageBoxes;
using namespace posenc;

namespace {

Params params()
{
    Params p;
    p.dModel = 64;
    p.maxLen = 300;
    return p;
}

FigureSource heatmapSource(QSize viewSize = QSize(640, 420))
{
    return {u"Heatmap"_s, std::make_shared<const Engine>(params()), &FigureBuilds::figure(u"heatmap"_s), {}, viewSize};
}

// The figure is made off the GUI thread: Save returns at once, the file comes later.
bool exportEnds(const FigureExportDialog &dialog)
{
    return QTest::qWaitFor([&dialog] { return !dialog.isExporting(); }, 60000);
}

} // namespace

class TestFigureExportDialog : public QObject
{
    Q_OBJECT

private slots:
    void writesTheRequestedSize_data();
    void writesTheRequestedSize();
    void windowSizeEqualsTheViewPixelForPixel();
    void aColumnGrowsForEveryPanel_data();
    void aColumnGrowsForEveryPanel();
    void customSizeInEveryUnit_data();
    void customSizeInEveryUnit();
    void tooSmallForItsTextWritesNothing();
    void overwriteAnsweredNoKeepsTheFile();
    void overwriteAnsweredYesReplacesTheFile();
    void unwritablePathShowsPathAndReason();
    void remembersTheLastChoices();
    void formatFollowsThePath();
    void showsThePixelSizeLive();
};

void TestFigureExportDialog::writesTheRequestedSize_data()
{
    QTest::addColumn<FigureFormat>("format");
    QTest::addColumn<QString>("name");
    QTest::newRow("png") << FigureFormat::Png << u"figure.png"_s;
    QTest::newRow("svg") << FigureFormat::Svg << u"figure.svg"_s;
    QTest::newRow("pdf") << FigureFormat::Pdf << u"figure.pdf"_s;
}

void TestFigureExportDialog::writesTheRequestedSize()
{
    QFETCH(FigureFormat, format);
    QFETCH(QString, name);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    FigureExportDialog dialog({heatmapSource()}, 0, nullptr);
    dialog.setFormat(format);
    dialog.setPreset(FigureExportDialog::Preset::SingleColumn);
    dialog.setDpi(300);
    dialog.setPath(dir.filePath(name));
    QSignalSpy saved(&dialog, &FigureExportDialog::saved);
    dialog.save();
    QTRY_COMPARE(saved.count(), 1);
    QVERIFY2(dialog.message().isEmpty(), qPrintable(dialog.message()));
    const QByteArray bytes = readAll(dir.filePath(name));
    QVERIFY(!bytes.isEmpty());
    // 8.5 x 6 cm at 300 dpi: 1003.9 x 708.7 pixels; 240.9 x 170.1 points.
    switch (format) {
    case FigureFormat::Png: {
        const QImage image = QImage::fromData(bytes, "PNG");
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), dialog.figureSize().pixels());
        QVERIFY2(qAbs(image.width() - 1004) <= 1 && qAbs(image.height() - 709) <= 1,
                 qPrintable(u"%1 x %2"_s.arg(image.width()).arg(image.height())));
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 300);
        break;
    }
    case FigureFormat::Svg: {
        QVERIFY(bytes.contains("<svg"));
        static const QRegularExpression mm(uR"(<svg[^>]*width="([0-9.]+)mm"[^>]*height="([0-9.]+)mm")"_s);
        const QRegularExpressionMatch m = mm.match(QString::fromUtf8(bytes));
        QVERIFY2(m.hasMatch(), bytes.left(600).constData());
        QVERIFY2(qAbs(m.captured(1).toDouble() - 85.0) < 0.6 && qAbs(m.captured(2).toDouble() - 60.0) < 0.6,
                 qPrintable(m.captured(0)));
        break;
    }
    case FigureFormat::Pdf: {
        QVERIFY(bytes.startsWith("%PDF"));
        const auto box = mediaBox(bytes);
        QVERIFY(box);
        QVERIFY2(qAbs(box->width() - 8.5 / 2.54 * 72) < 1.0 && qAbs(box->height() - 6.0 / 2.54 * 72) < 1.0,
                 qPrintable(u"%1 x %2 pt"_s.arg(box->width()).arg(box->height())));
        break;
    }
    }
}

void TestFigureExportDialog::windowSizeEqualsTheViewPixelForPixel()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    FigureView view(FigureBuilds::figure(u"heatmap"_s));
    view.setParams(params());
    FigureState zoomed = view.state();
    zoomed.view = {{u"columns"_s, {3.4, 40.6}}, {u"positions"_s, {20.2, 110.7}}};
    view.setState(zoomed);
    const QSize size(620, 410);
    view.plot()->parentWidget()->setFixedSize(size); // the room the plot fills (SteadyRoom)
    static_cast<QWidget &>(view).show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), 60000);
    view.resize(view.size() + QSize(1, 1));
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), 60000);
    const QImage screen = view.plot()->toPixmap(size.width(), size.height(), 1.0).toImage();

    FigureExportDialog dialog({{u"Heatmap"_s, view.engine(), &view.figure(), view.state(), view.plot()->size()}}, 0,
                              nullptr);
    dialog.setPreset(FigureExportDialog::Preset::Window);
    dialog.setDpi(600); // no effect: the window's size is drawn as on screen
    const QString path = dir.filePath(u"window.png"_s);
    dialog.setPath(path);
    dialog.save();
    QVERIFY(exportEnds(dialog));
    QVERIFY2(dialog.message().isEmpty(), qPrintable(dialog.message()));
    const QImage written = QImage(path).convertToFormat(QImage::Format_ARGB32);
    QCOMPARE(written.size(), size);
    QVERIFY(written == screen.convertToFormat(QImage::Format_ARGB32));
}

void TestFigureExportDialog::aColumnGrowsForEveryPanel_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<QStringList>("names");
    QTest::newRow("families") << u"families"_s << QStringList {u"PE·PE"_s, u"NoPE"_s,    u"RoPE"_s,     u"ALiBi"_s,
                                                               u"T5"_s,    u"DeBERTa"_s, u"Sandwich"_s, u"KERPLE"_s};
    // The circle by its y label's first run (the SVG sets θᵢ apart).
    QTest::newRow("rope-rotation") << u"rope-rotation"_s << QStringList {u"sin(p·"_s, u"rope-cos"_s, u"rope-sin"_s};
}

// The column preset grows the page down for the figure's panels, stacked, as `posenc export --size
// column` does: the height field tells the height grown to before Export, and the files written
// hold every panel's name on that page, the same page as the command's. Before: the dialog wrote
// families with one of its eight panels at 8.5 x 6 cm, rope-rotation with one of its three.
void TestFigureExportDialog::aColumnGrowsForEveryPanel()
{
    QFETCH(QString, figure);
    QFETCH(QStringList, names);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const FigureDescriptor &descriptor = FigureBuilds::figure(figure);
    FigureExportDialog dialog(
        {{figure, std::make_shared<const Engine>(FigureBuilds::defaultParams(descriptor)), &descriptor, {}, {}}}, 0,
        nullptr);
    dialog.setPreset(FigureExportDialog::Preset::SingleColumn);
    dialog.setDpi(300);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isMeasuring(), 60000);
    auto *height = dialog.findChild<QDoubleSpinBox *>(u"heightSpin"_s);
    auto *line = dialog.findChild<QLabel *>(u"pixelsLabel"_s);
    QVERIFY(height && line);
    const double heightCm = height->value();
    QVERIFY2(heightCm > 6.5 && heightCm <= 22.0, qPrintable(QString::number(heightCm)));
    QVERIFY2(line->text().contains(u"grown from 6 cm to draw its %1 panels"_s.arg(names.size())),
             qPrintable(line->text()));
    QCOMPARE(dialog.figureSize().pixels().height(), qRound(heightCm / 2.54 * 300.0));
    QVERIFY(WindowFixture::shown(dialog));
    TestShots::save(dialog.grab(), u"posenc-figureexportdialog-column-%1"_s.arg(figure));

    // `posenc export FIGURE --size column`, run in this process.
    const QString command = dir.filePath(u"command.svg"_s);
    QString out, err;
    QTextStream outStream(&out), errStream(&err);
    QCOMPARE(runExportCommand({u"export"_s, figure, u"--size"_s, u"column"_s, u"-o"_s, command}, outStream, errStream),
             0);
    errStream.flush();
    QVERIFY2(!err.contains(u"left out"_s), qPrintable(err));
    const SvgTexts::Page ofCommand = SvgTexts::read(readAll(command));

    for (const FigureFormat format : {FigureFormat::Svg, FigureFormat::Pdf, FigureFormat::Png}) {
        const QString path = dir.filePath(u"dialog."_s + FigureExporter::extension(format));
        dialog.setFormat(format);
        dialog.setPath(path);
        QSignalSpy saved(&dialog, &FigureExportDialog::saved);
        dialog.save();
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 60000);
        QVERIFY2(dialog.message().isEmpty(), qPrintable(dialog.message()));
        const QByteArray bytes = readAll(path);
        if (format == FigureFormat::Png) {
            const QImage image = QImage::fromData(bytes, "PNG");
            QCOMPARE(image.size(), dialog.figureSize().pixels());
            TestShots::save(image, u"posenc-figureexportdialog-column-%1-written"_s.arg(figure));
            continue;
        }
        if (format == FigureFormat::Pdf) {
            const auto box = mediaBox(bytes);
            QVERIFY(box);
            QVERIFY2(qAbs(box->width() * 2.54 / 72.0 - 8.5) <= 0.05
                         && qAbs(box->height() * 2.54 / 72.0 - heightCm) <= 0.05,
                     qPrintable(u"%1 x %2 pt"_s.arg(box->width()).arg(box->height())));
            continue;
        }
        const SvgTexts::Page page = SvgTexts::read(bytes);
        QStringList texts, commandTexts;
        for (const SvgTexts::Text &text : page.texts)
            texts.append(text.text.trimmed());
        for (const SvgTexts::Text &text : ofCommand.texts)
            commandTexts.append(text.text.trimmed());
        for (const QString &name : names)
            QVERIFY2(texts.contains(name), qPrintable(name + u" not among: "_s + texts.join(u" | "_s)));
        // The command's page: as high, with the same texts.
        QCOMPARE(page.viewBox, ofCommand.viewBox);
        QCOMPARE(texts, commandTexts);
    }
}

void TestFigureExportDialog::customSizeInEveryUnit_data()
{
    QTest::addColumn<double>("width");
    QTest::addColumn<double>("height");
    QTest::addColumn<int>("unit");
    QTest::addColumn<int>("dpi");
    QTest::addColumn<QSize>("pixels");
    QTest::newRow("cm") << 10.16 << 7.62 << int(FigureExportDialog::Unit::Cm) << 100 << QSize(400, 300);
    QTest::newRow("in") << 4.0 << 3.0 << int(FigureExportDialog::Unit::In) << 150 << QSize(600, 450);
    QTest::newRow("px") << 900.0 << 500.0 << int(FigureExportDialog::Unit::Px) << 200 << QSize(900, 500);
}

void TestFigureExportDialog::customSizeInEveryUnit()
{
    QFETCH(double, width);
    QFETCH(double, height);
    QFETCH(int, unit);
    QFETCH(int, dpi);
    QFETCH(QSize, pixels);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    FigureExportDialog dialog({heatmapSource()}, 0, nullptr);
    dialog.setPreset(FigureExportDialog::Preset::Custom);
    dialog.setDpi(dpi);
    dialog.setDimensions(width, height, static_cast<FigureExportDialog::Unit>(unit));
    QCOMPARE(dialog.figureSize().pixels(), pixels);
    dialog.setPath(dir.filePath(u"custom.png"_s));
    dialog.save();
    QVERIFY(exportEnds(dialog));
    QVERIFY2(dialog.message().isEmpty(), qPrintable(dialog.message()));
    QCOMPARE(QImage(dir.filePath(u"custom.png"_s)).size(), pixels);
}

void TestFigureExportDialog::tooSmallForItsTextWritesNothing()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    FigureExportDialog dialog({heatmapSource()}, 0, nullptr);
    dialog.setPreset(FigureExportDialog::Preset::Custom);
    dialog.setDimensions(2.0, 1.5, FigureExportDialog::Unit::Cm);
    dialog.setFontPointSize(20.0);
    const QString path = dir.filePath(u"small.png"_s);
    dialog.setPath(path);
    QSignalSpy saved(&dialog, &FigureExportDialog::saved);
    dialog.save();
    QVERIFY(exportEnds(dialog));
    QCOMPARE(saved.count(), 0);
    QVERIFY2(dialog.message().contains(u"needs at least"_s), qPrintable(dialog.message()));
    QVERIFY2(dialog.message().contains(u" cm"_s), qPrintable(dialog.message()));
    QVERIFY(!dialog.message().contains(u"--"_s));
    QVERIFY(!QFile::exists(path));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
}

void TestFigureExportDialog::overwriteAnsweredNoKeepsTheFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"existing.png"_s);
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a figure");
    }
    FigureExportDialog dialog({heatmapSource()}, 0, nullptr);
    dialog.setPath(path);
    QSignalSpy saved(&dialog, &FigureExportDialog::saved);
    dialog.save();
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = openBox(WriteDialogs::kOverwriteQuestion)));
    QVERIFY(box->text().contains(path));
    QCOMPARE(box->defaultButton(), box->button(QMessageBox::No));
    box->button(QMessageBox::No)->click();
    QTRY_VERIFY(!openBox(WriteDialogs::kOverwriteQuestion));
    QCOMPARE(saved.count(), 0);
    QCOMPARE(readAll(path), QByteArray("not a figure"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList {u"existing.png"_s});
}

void TestFigureExportDialog::overwriteAnsweredYesReplacesTheFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"existing.png"_s);
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a figure");
    }
    FigureExportDialog dialog({heatmapSource()}, 0, nullptr);
    dialog.setPreset(FigureExportDialog::Preset::SingleColumn);
    dialog.setPath(path);
    QSignalSpy saved(&dialog, &FigureExportDialog::saved);
    dialog.save();
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = openBox(WriteDialogs::kOverwriteQuestion)));
    box->button(QMessageBox::Yes)->click();
    QTRY_COMPARE(saved.count(), 1);
    QCOMPARE(QImage(path).size(), dialog.figureSize().pixels());
}

void TestFigureExportDialog::unwritablePathShowsPathAndReason()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A path under a regular file cannot be created, even by root.
    const QString file = dir.filePath(u"file.txt"_s);
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x");
    }
    const QString path = file + u"/figure.png"_s;
    FigureExportDialog dialog({heatmapSource()}, 0, nullptr);
    dialog.setPath(path);
    QSignalSpy saved(&dialog, &FigureExportDialog::saved);
    dialog.save();
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = openBox(WriteDialogs::kWriteWarning)));
    QVERIFY2(box->text().contains(path), qPrintable(box->text()));
    QVERIFY2(box->text().size() > path.size() + 4, qPrintable(box->text())); // and a reason
    QCOMPARE(box->icon(), QMessageBox::Warning);
    box->button(QMessageBox::Ok)->click();
    QCOMPARE(saved.count(), 0);
    QVERIFY(!QFile::exists(path));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList {u"file.txt"_s});
}

void TestFigureExportDialog::remembersTheLastChoices()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QSettings settings(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
    const QString out = dir.filePath(u"out"_s);
    QVERIFY(QDir().mkpath(out));
    {
        FigureExportDialog dialog({heatmapSource()}, 0, &settings);
        dialog.setFormat(FigureFormat::Svg);
        dialog.setPreset(FigureExportDialog::Preset::DoubleColumn);
        dialog.setDpi(450);
        dialog.setPath(QDir(out).filePath(u"a.svg"_s));
        dialog.save();
        QVERIFY(exportEnds(dialog));
        QVERIFY2(dialog.message().isEmpty(), qPrintable(dialog.message()));
    }
    FigureExportDialog again({heatmapSource()}, 0, &settings);
    QCOMPARE(again.format(), FigureFormat::Svg);
    QCOMPARE(again.preset(), FigureExportDialog::Preset::DoubleColumn);
    QCOMPARE(again.figureSize().dpi.value_or(0.0), 450.0);
    QCOMPARE(again.path(), QDir(out).filePath(u"heatmap.svg"_s));

    // Corrupt values fall back to the defaults.
    settings.setValue(u"export/format"_s, u"bmp"_s);
    settings.setValue(u"export/preset"_s, u"poster"_s);
    settings.setValue(u"export/dpi"_s, u"-3"_s);
    FigureExportDialog corrupt({heatmapSource()}, 0, &settings);
    QCOMPARE(corrupt.format(), FigureFormat::Png);
    QCOMPARE(corrupt.preset(), FigureExportDialog::Preset::SingleColumn);
    QCOMPARE(corrupt.figureSize().dpi.value_or(0.0), 300.0);
}

void TestFigureExportDialog::formatFollowsThePath()
{
    FigureExportDialog dialog({heatmapSource()}, 0, nullptr);
    dialog.setPath(u"/tmp/x/figure.pdf"_s);
    QCOMPARE(dialog.format(), FigureFormat::Pdf);
    dialog.setFormat(FigureFormat::Svg);
    QCOMPARE(dialog.path(), u"/tmp/x/figure.svg"_s);
}

void TestFigureExportDialog::showsThePixelSizeLive()
{
    FigureExportDialog dialog(
        {heatmapSource(),
         {u"Curves"_s, heatmapSource().engine, &FigureBuilds::figure(u"curves"_s), {}, QSize(500, 300)}},
        0, nullptr);
    dialog.setPreset(FigureExportDialog::Preset::SingleColumn);
    dialog.setDpi(300);
    QVERIFY(WindowFixture::shown(dialog));
    auto *pixels = dialog.findChild<QLabel *>(u"pixelsLabel"_s);
    QVERIFY(pixels);
    const QSize at300 = dialog.figureSize().pixels();
    QVERIFY2(pixels->text().startsWith(u"%1 × %2 px"_s.arg(at300.width()).arg(at300.height())),
             qPrintable(pixels->text()));
    dialog.setDpi(150);
    QVERIFY2(pixels->text().startsWith(u"%1 × "_s.arg(dialog.figureSize().pixels().width())),
             qPrintable(pixels->text()));
    QVERIFY(dialog.figureSize().pixels().width() < at300.width());
    dialog.setFigure(1);
    dialog.setPreset(FigureExportDialog::Preset::Window);
    QVERIFY2(pixels->text().startsWith(u"500 × 300 px"_s), qPrintable(pixels->text()));
    // For a look at the layout: the dialog as drawn.
    dialog.setPreset(FigureExportDialog::Preset::SingleColumn);
    dialog.setDpi(300);
    TestShots::save(dialog.grab(), u"posenc-figureexportdialog"_s);
}

POSENC_TEST_MAIN(TestFigureExportDialog)
} // namespace tst_figureexportdialog
#include "tst_figureexportdialog.moc"
