// How `posenc [OPTIONS]` starts the window: a screenshot draws it at a desktop screen's size
// unless --size says otherwise, and a start offers the lessons only when nothing given says what
// the user wants: a file on the command line (posenc FILE, as a file manager starts it) too. A
// preset given by name is the one the chooser names. A screenshot waits for the layouts asked for.
#include "cli/WindowArguments.h"
#include "gui/ControlPanel.h"
#include "gui/FigureOptionBar.h"
#include "gui/FigureView.h"
#include "gui/Launcher.h"
#include "gui/MainWindow.h"
#include "support/TestMain.h"
#include "support/WindowFixture.h"

#include <QComboBox>
#include <QFile>
#include <QIcon>
#include <QRegularExpression>
#include <QTest>

namespace tst_launcher {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestLauncher : public QObject
{
    Q_OBJECT

private slots:
    void aScreenshotIsDrawnAtADesktopsSizeUnlessTold();
    void aStartOffersTheLessonsOnlyWhenNothingSaysWhatTheUserWants_data();
    void aStartOffersTheLessonsOnlyWhenNothingSaysWhatTheUserWants();
    void aPresetGivenByNameIsTheOneTheChooserNames();
    void aScreenshotWaitsForTheLayoutsAskedFor();
    void theSmallIconsAreDrawnOnTheirPixelGrid_data();
    void theSmallIconsAreDrawnOnTheirPixelGrid();
};

void TestLauncher::aScreenshotIsDrawnAtADesktopsSizeUnlessTold()
{
    WindowOptions options;
    QCOMPARE(startSize(options), std::nullopt); // the screen and the remembered geometry decide
    options.size = QSize(1366, 768);
    QCOMPARE(startSize(options), QSize(1366, 768));
    options.screenshot = u"window.png"_s;
    QCOMPARE(startSize(options), QSize(1366, 768));
    options.size.reset();
    QCOMPARE(startSize(options), QSize(1920, 1080));
}

void TestLauncher::aStartOffersTheLessonsOnlyWhenNothingSaysWhatTheUserWants_data()
{
    QTest::addColumn<QString>("given");
    QTest::addColumn<bool>("offers");
    QTest::newRow("nothing") << QString() << true;
    QTest::newRow("a file") << u"file"_s << false;
    QTest::newRow("parameters") << u"parameters"_s << false;
    QTest::newRow("a lesson") << u"lesson"_s << false;
    QTest::newRow("a screenshot") << u"screenshot"_s << false;
}

void TestLauncher::aStartOffersTheLessonsOnlyWhenNothingSaysWhatTheUserWants()
{
    QFETCH(QString, given);
    QFETCH(bool, offers);
    WindowOptions options;
    if (given == u"file"_s)
        options.files = {u"embeddings.npy"_s};
    else if (given == u"parameters"_s)
        options.paramsGiven = true;
    else if (given == u"lesson"_s)
        options.lesson = u"frequencies"_s;
    else if (given == u"screenshot"_s)
        options.screenshot = u"window.png"_s;
    QCOMPARE(offersLessons(options), offers);
}

// posenc --preset flan-t5-base, no lesson: the chooser named T5 base, the first preset whose
// parameters Flan-T5 base's are too, not the preset given.
void TestLauncher::aPresetGivenByNameIsTheOneTheChooserNames()
{
    QString printed;
    QTextStream out(&printed), err(&printed);
    const auto parsed = parseWindowArguments({u"posenc"_s, u"--preset"_s, u"flan-t5-base"_s}, out, err);
    QVERIFY2(std::holds_alternative<WindowArguments>(parsed), qPrintable(printed));
    const WindowArguments &given = std::get<WindowArguments>(parsed);
    QCOMPARE(given.preset, u"flan-t5-base"_s);
    WindowOptions options;
    options.params = given.params;
    options.paramsGiven = given.paramsGiven;
    options.preset = given.preset;
    MainWindow window(options.params, nullptr);
    const auto *combo = window.controlPanel()->findChild<QComboBox *>(u"presetCombo"_s);
    QVERIFY(combo);
    const Preset *flan = Presets::find(u"flan-t5-base"_s);
    const Preset *t5 = Presets::find(u"t5-base"_s);
    QVERIFY(flan && t5 && t5->matches(options.params)); // the case: both hold them
    QCOMPARE(combo->currentText(), t5->title); // the first that matches, until the given one is named
    namePresetGiven(window, options);
    QCOMPARE(combo->currentText(), flan->title);
    QCOMPARE(window.controlPanel()->presets()[window.controlPanel()->activePreset()].name, flan->name);
    // Parameters that no longer hold the preset (a flag over it) do not name it.
    options.params.dModel = 64;
    MainWindow edited(options.params, nullptr);
    namePresetGiven(edited, options);
    QVERIFY(edited.controlPanel()->activePreset() < 0
            || edited.controlPanel()->presets()[edited.controlPanel()->activePreset()].name != flan->name);
}

// A view's option bar that takes a row more (its note or its controls moved below its chooser) lays
// its rows out in its old height, then asks its view's layout for the height they take: each on a
// later turn of the event loop. A screenshot judged between them would show the rows squeezed.
void TestLauncher::aScreenshotWaitsForTheLayoutsAskedFor()
{
    MainWindow window(WindowFixture::small(), nullptr);
    window.resize(1000, 700);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY_WITH_TIMEOUT(readyForScreenshot(window), 60000);
    const FigureView *view = window.views().front();
    auto *bar = view->findChild<FigureOptionBar *>();
    const QWidget *room = view->plot()->parentWidget();
    QVERIFY(bar && room);
    QVERIFY(!bar->geometry().intersects(room->geometry()));
    // A note no first row holds takes a row of its own: the bar's layout, then its view's.
    const int before = bar->height();
    bar->setNote(u"a note far longer than the first row of any view's option bar holds beside the figure's "
                 u"chooser and its controls, so that it is given a row of its own under them"_s);
    QCOMPARE(bar->height(), before);
    readyForScreenshot(window);
    QVERIFY(bar->height() > before);
    QVERIFY(!bar->geometry().intersects(room->geometry()));
    // A bar that needs more height takes it at once, over the plot's room, and asks its view's layout
    // to move the room down.
    bar->setMinimumHeight(bar->height() + 30);
    QVERIFY(bar->geometry().intersects(room->geometry()));
    readyForScreenshot(window);
    QVERIFY(!bar->geometry().intersects(room->geometry()));
}

void TestLauncher::theSmallIconsAreDrawnOnTheirPixelGrid_data()
{
    QTest::addColumn<int>("size");
    for (const int size : {16, 22, 24})
        QTest::newRow(qPrintable(u"%1 px"_s.arg(size))) << size;
}

// At 16, 22 and 24 px the large icon's 176 px table of 10 x 20 cells blurs into noise: each of those
// sizes has an icon of its own, drawn at that size with its table's cells on whole pixels, and the
// program's icon takes it there.
void TestLauncher::theSmallIconsAreDrawnOnTheirPixelGrid()
{
    QFETCH(int, size);
    QFile file(u":/icons/posenc-%1.svg"_s.arg(size));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    QVERIFY(svg.contains(u"viewBox=\"0 0 %1 %1\""_s.arg(size)));
    const qsizetype crisp = svg.indexOf(u"shape-rendering=\"crispEdges\""_s);
    QVERIFY(crisp > 0);
    const QString cells = svg.mid(crisp, svg.indexOf(u"</g>"_s, crisp) - crisp);
    static const QRegularExpression rect(
        u"<rect x=\"([^\"]+)\" y=\"([^\"]+)\" width=\"([^\"]+)\" height=\"([^\"]+)\""_s);
    int count = 0;
    for (auto m = rect.globalMatch(cells); m.hasNext(); ++count) {
        const QRegularExpressionMatch cell = m.next();
        for (int i = 1; i <= 4; ++i) {
            bool number = false;
            const double value = cell.captured(i).toDouble(&number);
            QVERIFY2(number && value == std::floor(value) && value >= 0 && value <= size, qPrintable(cell.captured()));
        }
    }
    QVERIFY(count >= 25);
    const QImage drawn = QIcon(file.fileName()).pixmap(QSize(size, size), 1.0).toImage();
    QCOMPARE(applicationIcon().pixmap(QSize(size, size), 1.0).toImage(), drawn);
}

POSENC_TEST_MAIN(TestLauncher)
} // namespace tst_launcher
#include "tst_launcher.moc"
