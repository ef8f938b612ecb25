// The window's menus as a keyboard and a file manager meet them: Quit has Ctrl+Q wherever the
// platform's key for it is empty (qt6ct leaves QKeySequence::Quit empty), and sessions are saved
// as .posenc, their own file type, while .json sessions still open. Save writes the session's own
// file again and Save as asks for a name; the title names the session, [*] marking a change since
// it was saved, and a file changed on disk is replaced only when the user says so. Under a
// screenshot, the status bar's messages stay: a picture taken after a slow figure shows the same.
#include "gui/ControlPanel.h"
#include "gui/MainWindow.h"
#include "gui/SessionController.h"
#include "gui/StandardShortcuts.h"
#include "gui/UndoHistory.h"
#include "support/TestMain.h"

#include "io/SessionFile.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

namespace tst_windowmenus {
using namespace Qt::StringLiterals;
using namespace posenc;

using KeyList = QList<QKeySequence>;

class TestWindowMenus : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void platformKeysOrTheFallback_data();
    void platformKeysOrTheFallback();
    void ctrlQQuits();
    void saveSessionProposesPosenc();
    void openSessionTakesPosencAndJson();
    void saveWritesTheSessionsFileAndTheTitleNamesIt();
    void aChangeWithoutASessionWarnsOfNoPlaceholder();
    void aFileChangedOnDiskIsReplacedOnlyWhenAsked();
    void aScreenshotKeepsTheMessagesItOpenedWith();

private:
    QFileDialog *openDialog(MainWindow &window, const QString &action);

    QTemporaryDir m_config;
};

// Qt's file dialogs remember their state in the user's QtProject.conf: here, in a directory of
// the test's own.
void TestWindowMenus::initTestCase()
{
    QVERIFY(m_config.isValid());
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_config.path()));
}

void TestWindowMenus::platformKeysOrTheFallback_data()
{
    QTest::addColumn<KeyList>("platform");
    QTest::addColumn<KeyList>("expected");
    const QKeySequence ctrlQ(u"Ctrl+Q"_s);
    QTest::newRow("none (qt6ct's Quit)") << KeyList {} << KeyList {ctrlQ};
    QTest::newRow("an empty sequence") << KeyList {QKeySequence()} << KeyList {ctrlQ};
    QTest::newRow("the platform's own") << KeyList {QKeySequence(u"Ctrl+Shift+Q"_s)}
                                        << KeyList {QKeySequence(u"Ctrl+Shift+Q"_s)};
    QTest::newRow("several") << KeyList {ctrlQ, QKeySequence(u"Alt+F4"_s)}
                             << KeyList {ctrlQ, QKeySequence(u"Alt+F4"_s)};
}

void TestWindowMenus::platformKeysOrTheFallback()
{
    QFETCH(KeyList, platform);
    QFETCH(KeyList, expected);
    QCOMPARE(StandardShortcuts::orFallback(platform, QKeySequence(u"Ctrl+Q"_s)), expected);
}

void TestWindowMenus::ctrlQQuits()
{
    MainWindow window(Params {}, nullptr);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    auto *quit = window.findChild<QAction *>(u"quitAction"_s);
    QVERIFY(quit);
    QVERIFY(!quit->shortcuts().isEmpty());
    if (QKeySequence::keyBindings(QKeySequence::Quit).isEmpty())
        QCOMPARE(quit->shortcuts(), KeyList {QKeySequence(u"Ctrl+Q"_s)});
    QTest::keySequence(&window, quit->shortcuts().constFirst());
    QTRY_VERIFY(!window.isVisible());
}

// The file dialog that `action` of the File menu opens, once it is open.
QFileDialog *TestWindowMenus::openDialog(MainWindow &window, const QString &action)
{
    auto *trigger = window.findChild<QAction *>(action);
    if (!trigger)
        return nullptr;
    trigger->trigger();
    if (!QTest::qWaitFor([&window] { return window.findChild<QFileDialog *>() != nullptr; }, 5000))
        return nullptr;
    return window.findChild<QFileDialog *>();
}

void TestWindowMenus::saveSessionProposesPosenc()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow window(Params {}, nullptr);
    window.show();
    QFileDialog *dialog = openDialog(window, u"saveSessionAction"_s);
    QVERIFY(dialog);
    QCOMPARE(dialog->defaultSuffix(), u"posenc"_s);
    QVERIFY2(dialog->selectedNameFilter().contains(u"*.posenc"_s), qPrintable(dialog->selectedNameFilter()));
    // A name typed without an extension is saved as a .posenc session.
    dialog->setDirectory(dir.path());
    dialog->selectFile(u"mine"_s);
    QVERIFY(QMetaObject::invokeMethod(dialog, "accept"));
    const QString saved = dir.filePath(u"mine.posenc"_s);
    QTRY_VERIFY(QFileInfo::exists(saved));
    QVERIFY(std::holds_alternative<Session>(readSession(saved)));
}

void TestWindowMenus::openSessionTakesPosencAndJson()
{
    MainWindow window(Params {}, nullptr);
    window.show();
    QFileDialog *dialog = openDialog(window, u"openSessionAction"_s);
    QVERIFY(dialog);
    const QString filter = dialog->selectedNameFilter();
    QVERIFY2(filter.contains(u"*.posenc"_s) && filter.contains(u"*.json"_s), qPrintable(filter));
    dialog->reject();
}

// Saved once as mine.posenc: the title names it, unchanged; a change marks it; Save writes the same
// file without asking; Undo back to what was saved is unchanged again; Save as asks for a name.
void TestWindowMenus::saveWritesTheSessionsFileAndTheTitleNamesIt()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow window(Params {}, nullptr);
    window.show();
    QVERIFY(!window.windowTitle().contains(u"[*]"_s));
    QFileDialog *dialog = openDialog(window, u"saveSessionAction"_s);
    QVERIFY(dialog);
    dialog->setDirectory(dir.path());
    dialog->selectFile(u"mine"_s);
    QVERIFY(QMetaObject::invokeMethod(dialog, "accept"));
    const QString saved = dir.filePath(u"mine.posenc"_s);
    QTRY_COMPARE(window.sessions()->file(), saved);
    QCOMPARE(window.windowTitle(), u"mine.posenc[*] — PosEnc Explorer"_s);
    QVERIFY(!window.isWindowModified());
    // A change marks the title once it settles.
    window.controlPanel()->findChild<QSpinBox *>(u"seedSpin"_s)->setValue(77);
    QTRY_VERIFY(window.isWindowModified());
    // Save writes the same file, without a dialog.
    window.findChild<QAction *>(u"saveSessionAction"_s)->trigger();
    QVERIFY(window.findChild<QFileDialog *>() == nullptr);
    QVERIFY(!window.isWindowModified());
    const auto read = readSession(saved);
    QVERIFY(std::holds_alternative<Session>(read));
    QCOMPARE(std::get<Session>(read).params.value(u"seed"_s), u"77"_s);
    // Undo back to what was saved: unchanged again.
    window.controlPanel()->findChild<QSpinBox *>(u"seedSpin"_s)->setValue(78);
    QTRY_VERIFY(window.isWindowModified());
    window.history()->stack()->undo();
    QTRY_VERIFY(!window.isWindowModified());
    // Save as asks, in the session's file.
    QFileDialog *asDialog = openDialog(window, u"saveSessionAsAction"_s);
    QVERIFY(asDialog);
    QVERIFY2(asDialog->selectedFiles().value(0).endsWith(u"mine.posenc"_s),
             qPrintable(asDialog->selectedFiles().join(u", "_s)));
    asDialog->reject();
}

// Before: a window of no session marked a change with setWindowModified, and Qt wrote "The window
// title does not contain a '[*]' placeholder" to standard error (the GUI monkey's finding).
void TestWindowMenus::aChangeWithoutASessionWarnsOfNoPlaceholder()
{
    QTest::failOnWarning(QRegularExpression(u"placeholder"_s));
    MainWindow window(Params {}, nullptr);
    window.show();
    auto *seed = window.controlPanel()->findChild<QSpinBox *>(u"seedSpin"_s);
    seed->setValue(77);
    QTRY_VERIFY(window.history()->stack()->canUndo());
    window.history()->stack()->undo();
    QTRY_VERIFY(window.history()->stack()->isClean());
    QVERIFY(!window.windowTitle().contains(u"[*]"_s));
}

// Another program rewrote the session's file: Save asks, Cancel leaves the file as it is, Replace
// writes the session shown.
void TestWindowMenus::aFileChangedOnDiskIsReplacedOnlyWhenAsked()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(u"shared.posenc"_s);
    MainWindow window(Params {}, nullptr);
    window.show();
    QVERIFY(window.sessions()->save(file));
    QFile other(file);
    QVERIFY(other.open(QIODevice::WriteOnly | QIODevice::Truncate));
    const QByteArray theirs = "{\"format\": \"posenc-session\", \"version\": 1, \"params\": {\"seed\": \"5\"}}\n";
    other.write(theirs);
    other.close();
    QVERIFY(window.sessions()->fileChangedOnDisk());
    auto *save = window.findChild<QAction *>(u"saveSessionAction"_s);
    for (const bool replace : {false, true}) {
        save->trigger();
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox *>(u"replaceSessionQuestion"_s)) != nullptr);
        QVERIFY2(box->text().contains(file), qPrintable(box->text()));
        if (replace)
            box->findChild<QPushButton *>(u"replaceSessionButton"_s)->click();
        else
            box->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY(window.findChild<QMessageBox *>(u"replaceSessionQuestion"_s) == nullptr);
        QFile written(file);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray bytes = written.readAll();
        QCOMPARE(bytes == theirs, !replace);
    }
    QVERIFY(!window.sessions()->fileChangedOnDisk());
}

// A lesson opened says so for 5 s: a screenshot, taken when the figures are drawn, would show the
// message or not as the figures took less or more (tst_clilessons compares two such pictures).
void TestWindowMenus::aScreenshotKeepsTheMessagesItOpenedWith()
{
    MainWindow window(Params {}, nullptr);
    window.showStatus(u"passing"_s, 1);
    QTRY_VERIFY(window.statusBar()->currentMessage().isEmpty());
    window.setMessagesStay(true);
    window.showStatus(u"kept"_s, 1);
    QTest::qWait(50);
    QCOMPARE(window.statusBar()->currentMessage(), u"kept"_s);
    window.showStatus(u"next"_s, 1);
    QTest::qWait(50);
    QCOMPARE(window.statusBar()->currentMessage(), u"next"_s);
}

POSENC_TEST_MAIN(TestWindowMenus)
} // namespace tst_windowmenus
#include "tst_windowmenus.moc"
