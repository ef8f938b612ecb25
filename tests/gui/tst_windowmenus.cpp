// The window's menus as a keyboard and a file manager meet them: Quit has Ctrl+Q wherever the
// platform's key for it is empty (qt6ct leaves QKeySequence::Quit empty), and sessions are saved
// as .posenc, their own file type, while .json sessions still open.
#include "gui/MainWindow.h"
#include "gui/StandardShortcuts.h"

#include "io/SessionFile.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

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

QTEST_MAIN(TestWindowMenus)
#include "tst_windowmenus.moc"
