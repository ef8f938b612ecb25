// A quiet command line: a successful command prints only its own output, also where no login
// session set XDG_RUNTIME_DIR (ssh, a container, CI). The runtime directory made then is
// private, and the message filter drops only the offscreen platform's notices.
#include "CliRun.h"
#include "support/TestMain.h"

#include "cli/QtMessageFilter.h"
#include "cli/RuntimeDirectory.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

namespace tst_cliquiet {
using namespace Qt::StringLiterals;
using namespace CliRun;

namespace {

QStringList captured;

void capture(QtMsgType, const QMessageLogContext &, const QString &message)
{
    captured << message;
}

// Mode bits of `path` (not following a link).
int modeOf(const QString &path)
{
    struct stat info
    {
    };
    return lstat(QFile::encodeName(path).constData(), &info) == 0 ? int(info.st_mode & 07777) : -1;
}

} // namespace

class TestCliQuiet : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void successPrintsOnlyItsOwnOutput_data();
    void successPrintsOnlyItsOwnOutput();
    void versionPrintsTheVersion_data();
    void versionPrintsTheVersion();
    void runtimeDirectoryIsPrivate();
    void runtimeDirectoryTightensItsOwnAndAvoidsOthers();
    void runtimeDirectoryKeepsAGivenOne();
    void filterDropsOnlyOffscreenNotices_data();
    void filterDropsOnlyOffscreenNotices();
    void filterPassesEveryOtherMessageOn();

private:
    QString path(const QString &name) const { return m_dir->filePath(name); }
    // The environment of a process outside a login session: no XDG_RUNTIME_DIR, temporary
    // files and settings in the test's directory.
    QProcessEnvironment bareEnvironment() const;

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestCliQuiet::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

QProcessEnvironment TestCliQuiet::bareEnvironment() const
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(u"XDG_RUNTIME_DIR"_s);
    environment.insert(u"TMPDIR"_s, m_dir->path());
    environment.insert(u"XDG_CONFIG_HOME"_s, path(u"config"_s));
    environment.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    return environment;
}

void TestCliQuiet::successPrintsOnlyItsOwnOutput_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("written");
    // No display and no platform named: only a screenshot may then start the window (offscreen).
    QTest::addColumn<bool>("noDisplay");
    QTest::newRow("table") << QStringList {u"table"_s,     u"pe"_s, u"-o"_s,        u"pe.npy"_s,
                                           u"--d-model"_s, u"16"_s, u"--max-len"_s, u"32"_s}
                           << u"pe.npy"_s << false;
    QTest::newRow("export") << QStringList {u"export"_s,    u"heatmap"_s, u"-o"_s,        u"pe.png"_s,
                                            u"--d-model"_s, u"64"_s,      u"--max-len"_s, u"128"_s}
                            << u"pe.png"_s << false;
    QTest::newRow("window --screenshot") << QStringList {u"--d-model"_s, u"32"_s,           u"--max-len"_s,
                                                         u"64"_s,        u"--screenshot"_s, u"window.png"_s}
                                         << u"window.png"_s << false;
    QTest::newRow("window --screenshot, no display")
        << QStringList {u"--d-model"_s, u"32"_s, u"--max-len"_s, u"64"_s, u"--screenshot"_s, u"window.png"_s}
        << u"window.png"_s << true;
}

// Before: every run printed "QStandardPaths: XDG_RUNTIME_DIR not set, defaulting to
// '/tmp/runtime-root'", and --screenshot four "This plugin does not support
// propagateSizeHints()".
void TestCliQuiet::successPrintsOnlyItsOwnOutput()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, written);
    QFETCH(bool, noDisplay);
    for (QString &argument : arguments) {
        if (argument.endsWith(u".npy"_s) || argument.endsWith(u".png"_s))
            argument = path(argument);
    }
    QProcessEnvironment environment = bareEnvironment();
    if (noDisplay) {
        for (const QString &name : {u"QT_QPA_PLATFORM"_s, u"DISPLAY"_s, u"WAYLAND_DISPLAY"_s})
            environment.remove(name);
    }
    const Run run = CliRun::posenc(arguments, environment);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.err, QString());
    QCOMPARE(run.out, QString());
    QVERIFY(QFileInfo(path(written)).size() > 0);
}

void TestCliQuiet::versionPrintsTheVersion_data()
{
    QTest::addColumn<QString>("option");
    QTest::newRow("--version") << u"--version"_s;
    QTest::newRow("-v") << u"-v"_s;
}

void TestCliQuiet::versionPrintsTheVersion()
{
    QFETCH(QString, option);
    const Run run = CliRun::posenc({option}, bareEnvironment());
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, u"posenc %1\n"_s.arg(QStringLiteral(POSENC_VERSION)));
    QCOMPARE(run.err, QString());
}

// The directory made for a process without XDG_RUNTIME_DIR: only its user may enter it.
void TestCliQuiet::runtimeDirectoryIsPrivate()
{
    QCOMPARE(CliRun::posenc({u"--version"_s}, bareEnvironment()).exitCode, 0);
    const QString made = path(u"posenc-runtime-%1"_s.arg(geteuid()));
    QVERIFY(QFileInfo(made).isDir());
    QCOMPARE(modeOf(made), 0700);
}

void TestCliQuiet::runtimeDirectoryTightensItsOwnAndAvoidsOthers()
{
    qputenv("TMPDIR", QFile::encodeName(m_dir->path()));
    const QString own = path(u"posenc-runtime-%1"_s.arg(geteuid()));
    QVERIFY(QDir().mkdir(own));
    QCOMPARE(chmod(QFile::encodeName(own).constData(), 0755), 0);
    qunsetenv("XDG_RUNTIME_DIR");
    QCOMPARE(posenc::ensureRuntimeDirectory(), own);
    QCOMPARE(modeOf(own), 0700);
    QCOMPARE(qEnvironmentVariable("XDG_RUNTIME_DIR"), own);

    // The name taken by a file (or anything not ours): a fresh private directory instead.
    QVERIFY(QDir(own).removeRecursively());
    QFile squatter(own);
    QVERIFY(squatter.open(QIODevice::WriteOnly));
    squatter.close();
    qunsetenv("XDG_RUNTIME_DIR");
    const QString fresh = posenc::ensureRuntimeDirectory();
    QVERIFY2(fresh.startsWith(path(u"posenc-runtime-"_s)) && fresh != own, qPrintable(fresh));
    QVERIFY(QFileInfo(fresh).isDir());
    QCOMPARE(modeOf(fresh), 0700);
    qunsetenv("XDG_RUNTIME_DIR");
    qunsetenv("TMPDIR");
}

void TestCliQuiet::runtimeDirectoryKeepsAGivenOne()
{
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_dir->path()));
    QCOMPARE(posenc::ensureRuntimeDirectory(), m_dir->path());
    QCOMPARE(qEnvironmentVariable("XDG_RUNTIME_DIR"), m_dir->path());
    qunsetenv("XDG_RUNTIME_DIR");
}

void TestCliQuiet::filterDropsOnlyOffscreenNotices_data()
{
    QTest::addColumn<int>("type");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("platform");
    QTest::addColumn<bool>("dropped");
    const QString notice = u"This plugin does not support propagateSizeHints()"_s;
    QTest::newRow("size hints, offscreen") << int(QtWarningMsg) << notice << u"offscreen"_s << true;
    QTest::newRow("keyboard grab, offscreen")
        << int(QtWarningMsg) << u"This plugin does not support grabbing the keyboard"_s << u"offscreen"_s << true;
    QTest::newRow("size hints, on a real display") << int(QtWarningMsg) << notice << u"xcb"_s << false;
    QTest::newRow("size hints as a critical message") << int(QtCriticalMsg) << notice << u"offscreen"_s << false;
    QTest::newRow("fonts, offscreen") << int(QtWarningMsg) << u"This plugin does not support application fonts"_s
                                      << u"offscreen"_s << false;
    QTest::newRow("other warning") << int(QtWarningMsg) << u"QFile::remove: Empty or null file name"_s << u"offscreen"_s
                                   << false;
    QTest::newRow("a notice with more text") << int(QtWarningMsg) << notice + u" and more"_s << u"offscreen"_s << false;
}

void TestCliQuiet::filterDropsOnlyOffscreenNotices()
{
    QFETCH(int, type);
    QFETCH(QString, message);
    QFETCH(QString, platform);
    QFETCH(bool, dropped);
    QCOMPARE(posenc::isOffscreenPlatformNotice(QtMsgType(type), message, platform), dropped);
}

// Installed on this test's offscreen platform: the notice is dropped, a real warning reaches
// the handler that was there before.
void TestCliQuiet::filterPassesEveryOtherMessageOn()
{
    QCOMPARE(QGuiApplication::platformName(), u"offscreen"_s);
    const QtMessageHandler before = qInstallMessageHandler(capture);
    posenc::installQtMessageFilter();
    captured.clear();
    qWarning("This plugin does not support propagateSizeHints()");
    qWarning("posenc: a warning of our own");
    qInstallMessageHandler(before);
    QCOMPARE(captured, QStringList {u"posenc: a warning of our own"_s});
}

POSENC_TEST_MAIN(TestCliQuiet)
} // namespace tst_cliquiet
#include "tst_cliquiet.moc"
