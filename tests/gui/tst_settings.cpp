#include "gui/LessonController.h"
#include "gui/MainWindow.h"
#include "gui/ParamLabels.h"
#include "gui/Settings.h"
#include "support/TestMain.h"

#include "core/ParamText.h"

#include "support/MessageBoxes.h"
#include "support/WindowFixture.h"

#include <QDir>
#include <QDockWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QScreen>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace tst_settings {
using namespace Qt::StringLiterals;
using namespace posenc;

// Settings live in a file of a temporary directory: the user's own are never touched.
class TestSettings : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void theFileIsQSettingsOwn();
    void aFifoInPlaceOfTheFileIsNeverOpened_data();
    void aFifoInPlaceOfTheFileIsNeverOpened();
    void aPathThatCannotBeLookedUpIsNeverOpened_data();
    void aPathThatCannotBeLookedUpIsNeverOpened();
    void aValueWrittenAsAListReadsAsItsText();
    void aSaveThatFailsSaysSo();
    void aFailedSaveIsSaidInTheWindow();
    void parametersRoundTrip();
    void nothingStoredGivesTheDefaults();
    void corruptValuesAreReplacedByTheDefaults_data();
    void corruptValuesAreReplacedByTheDefaults();
    void largeRememberedParametersGiveWayToTheDefaults_data();
    void largeRememberedParametersGiveWayToTheDefaults();
    void resetForgetsEverything();
    void exportDirectoryThatNamesNoFolderIsForgotten_data();
    void exportDirectoryThatNamesNoFolderIsForgotten();
    void corruptGeometryLeavesAUsableWindow();
    void windowRemembersItsParametersOnClose();
    void windowRemembersItsDocks();
    void corruptLayoutIsForgotten_data();
    void corruptLayoutIsForgotten();
    void lessonPanelShowsOnlyWithALesson();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
};

void TestSettings::initTestCase()
{
    QCoreApplication::setOrganizationName(u"PosEnc Explorer"_s);
    QCoreApplication::setApplicationName(u"posenc"_s);
}

// Settings::open reads the file a plain QSettings would: the user's remembered window stays theirs.
void TestSettings::theFileIsQSettingsOwn()
{
    QCOMPARE(Settings::filePath(), QSettings().fileName());
    const Settings::Opened opened = Settings::open();
    QVERIFY(opened.settings);
    QCOMPARE(opened.settings->fileName(), Settings::filePath());
    QVERIFY(opened.problem.isEmpty());
}

// The audit: `mkfifo "$XDG_CONFIG_HOME/PosEnc Explorer/posenc.conf"` blocked the window and
// --screenshot for ever, QSettings reading the pipe as it was made.
void TestSettings::aFifoInPlaceOfTheFileIsNeverOpened_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("a FIFO") << u"fifo"_s;
    QTest::newRow("a directory") << u"directory"_s;
    QTest::newRow("a link to a FIFO") << u"link"_s;
}

void TestSettings::aFifoInPlaceOfTheFileIsNeverOpened()
{
    QFETCH(QString, kind);
    QTemporaryDir home;
    const QByteArray before = qgetenv("XDG_CONFIG_HOME");
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(home.path()));
    const auto restore = qScopeGuard([&] { qputenv("XDG_CONFIG_HOME", before); });
    const QString path = Settings::filePath();
    QVERIFY(path.startsWith(home.path()));
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    const QString fifo = kind == u"link"_s ? home.filePath(u"fifo"_s) : path;
    if (kind == u"directory"_s)
        QVERIFY(QDir().mkpath(path));
    else
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    if (kind == u"link"_s)
        QVERIFY(QFile::link(fifo, path));
    const Settings::Opened opened = Settings::open();
    QVERIFY(!opened.settings);
    QVERIFY2(opened.problem.startsWith(path + u" is not a regular file"_s), qPrintable(opened.problem));
}

// Before: a loop of symbolic links read as no file, without a word, then replaced by a regular
// file as the window closed; a file where the folder is, the same silence.
void TestSettings::aPathThatCannotBeLookedUpIsNeverOpened_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("reason");
    QTest::newRow("a loop of symbolic links") << u"loop"_s << u"a loop of symbolic links"_s;
    QTest::newRow("a file where its folder is") << u"folder"_s << u"not a directory"_s;
}

void TestSettings::aPathThatCannotBeLookedUpIsNeverOpened()
{
    QFETCH(QString, kind);
    QFETCH(QString, reason);
    QTemporaryDir home;
    const QByteArray before = qgetenv("XDG_CONFIG_HOME");
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(home.path()));
    const auto restore = qScopeGuard([&] { qputenv("XDG_CONFIG_HOME", before); });
    const QString path = Settings::filePath();
    const QString folder = QFileInfo(path).absolutePath();
    if (kind == u"loop"_s) {
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(QFile::link(path + u".2"_s, path));
        QVERIFY(QFile::link(path, path + u".2"_s));
    } else {
        QFile file(folder);
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    const Settings::Opened opened = Settings::open();
    QVERIFY(!opened.settings);
    QVERIFY2(opened.problem.startsWith(path + u" cannot be read ("_s), qPrintable(opened.problem));
    QVERIFY2(opened.problem.contains(reason), qPrintable(opened.problem));
    if (kind == u"loop"_s)
        QVERIFY(QFileInfo(path).isSymLink()); // the user's link is left as it is
}

// An unquoted comma makes QSettings read a list, whose text was empty. Before: "d_model: must be
// an integer in [1, 1048576]; got ''" for d-model=64, 128, and a hand-written axes-dim=16,56,56
// refused.
void TestSettings::aValueWrittenAsAListReadsAsItsText()
{
    QFile file(m_settings->fileName());
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("[params]\nd-model=64, 128\n");
    file.close();
    m_settings = std::make_unique<QSettings>(file.fileName(), QSettings::IniFormat);
    const Settings::LoadedParams refused = Settings::loadParams(*m_settings);
    QVERIFY2(refused.problems.join(u"; "_s).contains(u"got '64,128'"_s), qPrintable(refused.problems.join(u"; "_s)));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("[params]\nencoding=rope-2d\naxes-dim=8,12,12\n");
    file.close();
    m_settings = std::make_unique<QSettings>(file.fileName(), QSettings::IniFormat);
    const Settings::LoadedParams read = Settings::loadParams(*m_settings);
    QVERIFY2(read.problems.isEmpty(), qPrintable(read.problems.join(u"; "_s)));
    QCOMPARE(ParamText::get(read.params, u"axes-dim"_s), u"8,12,12"_s);
}

// Before: a file that could not be written (a link to a folder that is not there, a read-only
// file for a user who is not root) lost what the window remembered without a word.
void TestSettings::aSaveThatFailsSaysSo()
{
    const QString path = m_dir->filePath(u"link.conf"_s);
    QVERIFY(QFile::link(m_dir->filePath(u"no-such-folder/posenc.conf"_s), path));
    QSettings settings(path, QSettings::NativeFormat);
    Settings::saveParams(settings, Params {});
    const QString problem = Settings::save(settings);
    QVERIFY2(problem.startsWith(u"the settings were not saved: %1 cannot be written"_s.arg(path)), qPrintable(problem));
    QVERIFY(Settings::save(*m_settings).isEmpty());
}

// Before: the window said a failed save on standard error alone, which a window started from a
// desktop's menu shows nobody (a read-only posenc.conf, checked by hand as a user who is not root).
// It says it in a box as it closes, once, and closes when the box is answered.
void TestSettings::aFailedSaveIsSaidInTheWindow()
{
    const QString path = m_dir->filePath(u"link.conf"_s);
    QVERIFY(QFile::link(m_dir->filePath(u"no-such-folder/posenc.conf"_s), path));
    QSettings settings(path, QSettings::NativeFormat);
    MainWindow window(Params {}, &settings);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(!window.close()); // kept open until the box is answered
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = MessageBoxes::openBox("settingsNotSaved")) != nullptr);
    QVERIFY2(box->text().startsWith(u"The settings were not saved: %1 cannot be written"_s.arg(path)),
             qPrintable(box->text()));
    QCOMPARE(box->textFormat(), Qt::PlainText);
    box->button(QMessageBox::Ok)->click();
    QTRY_VERIFY(!window.isVisible());
    QVERIFY(MessageBoxes::openBoxes("settingsNotSaved").isEmpty());
    // Said once: shown and closed again, the window closes at once.
    window.show();
    QVERIFY(window.close());
    QVERIFY(MessageBoxes::openBoxes("settingsNotSaved").isEmpty());
}

void TestSettings::init()
{
    // The last test's settings write their file as they go: before their directory does, or
    // they would make it again and leave it behind.
    m_settings.reset();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(u"posenc.ini"_s), QSettings::IniFormat);
}

void TestSettings::parametersRoundTrip()
{
    Params p;
    p.dModel = 77;
    p.maxLen = 300;
    p.sinusoidal.base = 500.5;
    p.sinusoidal.layout = Layout::Split;
    p.sinusoidal.angles = Angles::Float32;
    p.scaleKind = ScaleKind::Custom;
    p.customScale = 2.5;
    p.init = InitKind::Custom;
    p.customSigma = 0.125;
    p.compose = Compose::Concat;
    p.peDims = 30;
    p.dropout = 0.375;
    p.dropoutMode = DropoutMode::ProtectSpecial;
    p.special = {0, 5, -2};
    p.seqLen = 200;
    p.seed = 123456;
    p.training = false;
    Settings::saveParams(*m_settings, p);
    m_settings->sync();
    QSettings reread(m_dir->filePath(u"posenc.ini"_s), QSettings::IniFormat);
    const Settings::LoadedParams loaded = Settings::loadParams(reread);
    QVERIFY2(loaded.problems.isEmpty(), qPrintable(loaded.problems.join(u"; "_s)));
    QVERIFY(loaded.params == p);
}

void TestSettings::nothingStoredGivesTheDefaults()
{
    const Settings::LoadedParams loaded = Settings::loadParams(*m_settings);
    QVERIFY(loaded.problems.isEmpty());
    QVERIFY(loaded.params == Params {});
}

void TestSettings::corruptValuesAreReplacedByTheDefaults_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QVariant>("value");
    QTest::newRow("d_model not a number") << u"d-model"_s << QVariant(u"abc"_s);
    QTest::newRow("d_model zero") << u"d-model"_s << QVariant(u"0"_s);
    QTest::newRow("dropout above 1") << u"dropout"_s << QVariant(u"7"_s);
    QTest::newRow("base nan") << u"base"_s << QVariant(u"nan"_s);
    QTest::newRow("unknown layout") << u"layout"_s << QVariant(u"diagonal"_s);
    QTest::newRow("special out of range") << u"special"_s << QVariant(u"0,99999"_s);
}

void TestSettings::corruptValuesAreReplacedByTheDefaults()
{
    QFETCH(QString, key);
    QFETCH(QVariant, value);
    Params p;
    p.dModel = 64; // a valid value beside the corrupt one is not kept either: all or nothing
    Settings::saveParams(*m_settings, p);
    m_settings->setValue(u"params/"_s + key, value);
    const Settings::LoadedParams loaded = Settings::loadParams(*m_settings);
    QVERIFY(!loaded.problems.isEmpty());
    // Named as the window names the parameter: its control's label.
    QVERIFY2(loaded.problems.join(u" "_s).contains(ParamLabels::label(key)), qPrintable(loaded.problems.join(u"; "_s)));
    QVERIFY(loaded.params == Params {});
}

void TestSettings::largeRememberedParametersGiveWayToTheDefaults_data()
{
    QTest::addColumn<qint64>("dModel");
    QTest::addColumn<qint64>("maxLen");
    QTest::addColumn<bool>("restored");
    QTest::newRow("d 2^20 x L 2^24 (the audit's 16.5 s start)") << (qint64(1) << 20) << (qint64(1) << 24) << false;
    QTest::newRow("d 8192 x L 2^20, the interactive limit") << qint64(8192) << (qint64(1) << 20) << true;
    QTest::newRow("one column more") << qint64(8193) << (qint64(1) << 20) << false;
    QTest::newRow("d 2^20 x L 8192") << (qint64(1) << 20) << qint64(8192) << true;
}

// Valid parameters above the size the window keeps interactive are not restored at start: the
// defaults are used, and the reason is a note (with the sizes), not a problem.
void TestSettings::largeRememberedParametersGiveWayToTheDefaults()
{
    QFETCH(qint64, dModel);
    QFETCH(qint64, maxLen);
    QFETCH(bool, restored);
    Params p;
    p.dModel = dModel;
    p.maxLen = maxLen;
    p.memoryBudget = std::uint64_t(64) << 30;
    QVERIFY(p.isValid());
    Settings::saveParams(*m_settings, p);
    const Settings::LoadedParams loaded = Settings::loadParams(*m_settings);
    QVERIFY2(loaded.problems.isEmpty(), qPrintable(loaded.problems.join(u"; "_s)));
    QCOMPARE(loaded.params == p, restored);
    QCOMPARE(loaded.params == Params {}, !restored);
    QCOMPARE(loaded.tooLarge.isEmpty(), restored);
    if (!restored)
        QVERIFY2(loaded.tooLarge.contains(QString::number(dModel)) && loaded.tooLarge.contains(QString::number(maxLen)),
                 qPrintable(loaded.tooLarge));
}

void TestSettings::exportDirectoryThatNamesNoFolderIsForgotten_data()
{
    QTest::addColumn<QString>("directory");
    QTest::addColumn<bool>("kept");
    QTest::newRow("a folder") << QString() << true; // the test's own folder
    QTest::newRow("U+0000 inside") << u"/tmp/\u0000/dir"_s << false;
    QTest::newRow("U+0000 alone") << QString(1, QChar(u'\0')) << false;
    QTest::newRow("absent") << u"/nonexistent/posenc/dir"_s << false;
    QTest::newRow("empty") << u""_s << false;
}

// The export folder is a name a file (the settings) gives: one that names no folder is
// forgotten, and a name with U+0000 never reaches QFileInfo, which would warn on standard error.
void TestSettings::exportDirectoryThatNamesNoFolderIsForgotten()
{
    QFETCH(QString, directory);
    QFETCH(bool, kept);
    if (kept)
        directory = m_dir->path();
    QTest::failOnWarning(QRegularExpression(u"."_s));
    m_settings->setValue(u"export/directory"_s, directory);
    m_settings->setValue(u"export/format"_s, u"svg"_s);
    const Settings::ExportChoices choices = Settings::loadExportChoices(*m_settings);
    QCOMPARE(choices.directory, kept ? directory : Settings::ExportChoices {}.directory);
    QCOMPARE(choices.format, u"svg"_s); // the other choices are still read
}

void TestSettings::resetForgetsEverything()
{
    Settings::saveParams(*m_settings, Params {});
    Settings::saveGeometry(*m_settings, QByteArray("x"));
    Settings::reset(*m_settings);
    QVERIFY(m_settings->allKeys().isEmpty());
}

void TestSettings::corruptGeometryLeavesAUsableWindow()
{
    Settings::saveGeometry(*m_settings, QByteArray("\x01\xd9\xd0\xcb garbage", 12));
    MainWindow window(Params {}, m_settings.get());
    // The window opens as on a first start: within the screen, as large as it allows.
    const QSize first = MainWindow::initialGeometry(window.screen()->availableGeometry()).size();
    QVERIFY(window.width() >= first.width() && window.height() >= first.height());
}

void TestSettings::windowRemembersItsParametersOnClose()
{
    Params p;
    p.dModel = 48;
    p.maxLen = 64;
    {
        MainWindow window(p, m_settings.get());
        window.show();
        window.close();
    }
    const Settings::LoadedParams loaded = Settings::loadParams(*m_settings);
    QVERIFY(loaded.problems.isEmpty());
    QCOMPARE(loaded.params.dModel, 48);
    QCOMPARE(loaded.params.maxLen, 64);
    QVERIFY(!Settings::loadGeometry(*m_settings).isEmpty());
}

// The docks as the user left them (QMainWindow::saveState): the parameters moved to the right
// and widened come back there, at that width.
void TestSettings::windowRemembersItsDocks()
{
    int width = 0;
    {
        MainWindow window(Params {}, m_settings.get());
        // Room for a wider dock, whatever the screen's size.
        window.resize(MainWindow::kDefaultSize);
        QVERIFY(WindowFixture::shown(window));
        auto *dock = window.findChild<QDockWidget *>(u"parametersDock"_s);
        QVERIFY(dock);
        QCOMPARE(window.dockWidgetArea(dock), Qt::LeftDockWidgetArea);
        window.addDockWidget(Qt::RightDockWidgetArea, dock);
        QTRY_COMPARE(window.dockWidgetArea(dock), Qt::RightDockWidgetArea);
        const int before = dock->width();
        window.resizeDocks({dock}, {before + 120}, Qt::Horizontal);
        QTRY_VERIFY(dock->width() >= before + 100);
        width = dock->width();
        window.close();
    }
    QVERIFY(!Settings::loadWindowState(*m_settings).isEmpty());
    MainWindow again(Params {}, m_settings.get());
    QVERIFY(WindowFixture::shown(again));
    auto *dock = again.findChild<QDockWidget *>(u"parametersDock"_s);
    QCOMPARE(again.dockWidgetArea(dock), Qt::RightDockWidgetArea);
    QTRY_COMPARE(dock->width(), width);
}

void TestSettings::corruptLayoutIsForgotten_data()
{
    QTest::addColumn<QVariant>("state");
    static constexpr char garbage[] = "\x00\x00\x00\xff\xff\xff garbage";
    QTest::newRow("garbage") << QVariant(QByteArray(garbage, sizeof garbage - 1));
    QTest::newRow("text") << QVariant(u"left dock, 300 px"_s);
    QTest::newRow("a number") << QVariant(42);
    // A real layout cut short, and one of another version (a layout from an older program).
    QByteArray real;
    {
        MainWindow window(Params {}, nullptr);
        real = window.saveState(1);
        QTest::newRow("truncated") << QVariant(real.left(real.size() / 2));
        QTest::newRow("another version") << QVariant(window.saveState(99));
    }
}

// A stored layout the window cannot read is forgotten: the window opens with its own docks,
// and the next close stores a good one.
void TestSettings::corruptLayoutIsForgotten()
{
    QFETCH(QVariant, state);
    m_settings->setValue(u"window/state"_s, state);
    {
        MainWindow window(Params {}, m_settings.get());
        // Room for a wider dock, whatever the screen's size.
        window.resize(MainWindow::kDefaultSize);
        QVERIFY(WindowFixture::shown(window));
        auto *dock = window.findChild<QDockWidget *>(u"parametersDock"_s);
        QCOMPARE(window.dockWidgetArea(dock), Qt::LeftDockWidgetArea);
        QVERIFY(dock->isVisible() && !dock->isFloating());
        QVERIFY(window.width() >= 800 && window.height() >= 600);
        QVERIFY(!m_settings->contains(u"window/state"_s));
        window.close();
    }
    MainWindow again(Params {}, m_settings.get());
    QVERIFY(again.restoreState(Settings::loadWindowState(*m_settings), 1));
}

// A window closed during a lesson opens again without the lesson's panel: it shows with a
// lesson only.
void TestSettings::lessonPanelShowsOnlyWithALesson()
{
    {
        MainWindow window(Params {}, m_settings.get());
        window.show();
        QVERIFY(window.lessons()->open(Lessons::all().constFirst()));
        QTRY_VERIFY(window.lessons()->dock()->isVisible());
        m_settings->setValue(u"window/state"_s, window.saveState(1));
        window.lessons()->close();
    }
    MainWindow again(Params {}, m_settings.get());
    QVERIFY(WindowFixture::shown(again));
    QVERIFY(!again.lessons()->dock()->isVisible());
}

POSENC_TEST_MAIN(TestSettings)
} // namespace tst_settings
#include "tst_settings.moc"
