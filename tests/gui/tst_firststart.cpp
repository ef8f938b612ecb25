// The window's first start as `posenc` starts it (runWindow), with a fresh home, on a screen of
// each size and scale factor: the window and the start panel over it open within the screen, and
// stay within it after each preset is chosen (a preset's family brings its own views and rows).
// Each screen is a process of its own, this executable again: the screen's size and the scale
// factor are read once, when the application starts (the offscreen platform's configfile and
// QT_SCALE_FACTOR). The screens users have are also an X server's, Xvfb's, where Qt's xcb
// platform reads the screen and places the window as on a desktop. At 2x on 1920 x 1080 the
// window opened 2338 px wide; a window closed at 1920 x 1080 (a screenshot's) opened so again on a
// 1366 x 768 screen.
#include "gui/ControlPanel.h"
#include "gui/Launcher.h"
#include "gui/LessonController.h"
#include "gui/MainWindow.h"
#include "gui/StartPanel.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cstdio>

using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

constexpr char kChildVariable[] = "POSENC_FIRSTSTART_CHILD";

QJsonArray rect(const QRect &r)
{
    return {r.x(), r.y(), r.width(), r.height()};
}

QRect rect(const QJsonValue &value)
{
    const QJsonArray a = value.toArray();
    return QRect(a.at(0).toInt(), a.at(1).toInt(), a.at(2).toInt(), a.at(3).toInt());
}

MainWindow *mainWindow()
{
    for (QWidget *widget : QApplication::topLevelWidgets()) {
        if (auto *window = qobject_cast<MainWindow *>(widget); window && window->isVisible())
            return window;
    }
    return nullptr;
}

// Where the window and the start panel are, on their screen's available geometry, in the
// screen's device-independent pixels and in its device pixels.
QJsonObject placement(const QString &when, MainWindow &window)
{
    const QScreen *screen = window.screen();
    QJsonObject found {{u"when"_s, when},
                       {u"available"_s, rect(screen->availableGeometry())},
                       {u"ratio"_s, screen->devicePixelRatio()},
                       {u"window"_s, rect(window.frameGeometry())},
                       {u"least"_s, QJsonArray {window.minimumSizeHint().width(), window.minimumSizeHint().height()}}};
    if (const StartPanel *panel = window.lessons()->startPanel(); panel && panel->isVisible())
        found.insert(u"startPanel"_s, rect(panel->frameGeometry()));
    return found;
}

// The child: the window as posenc starts it, its placement written to standard output as one
// JSON array once it is up, then once more after each preset, then it quits.
int runChild(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(u"PosEnc Explorer"_s);
    QCoreApplication::setApplicationName(u"posenc"_s);
    QJsonArray report;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        MainWindow *window = mainWindow();
        if (!window)
            return;
        poll.stop();
        QCoreApplication::processEvents();
        report.append(placement(u"start"_s, *window));
        ControlPanel *panel = window->controlPanel();
        for (int i = 0; i < panel->presets().size(); ++i) {
            panel->choosePreset(i);
            QCoreApplication::processEvents();
            report.append(placement(u"preset "_s + panel->presets().at(i).name, *window));
        }
        std::fputs(QJsonDocument(report).toJson(QJsonDocument::Compact).constData(), stdout);
        std::fflush(stdout);
        QApplication::exit(0);
    });
    poll.start(20);
    WindowOptions options; // nothing given: the remembered parameters, and the start panel
    return runWindow(options);
}

} // namespace

class TestFirstStart : public QObject
{
    Q_OBJECT

private slots:
    void theWindowOpensWithinTheScreen_data();
    void theWindowOpensWithinTheScreen();
};

void TestFirstStart::theWindowOpensWithinTheScreen_data()
{
    QTest::addColumn<QString>("server"); // the offscreen platform, or an X server (Xvfb)
    QTest::addColumn<QSize>("screen");
    QTest::addColumn<QString>("scale");
    QTest::addColumn<QString>("remembered"); // a geometry left by an earlier run, as saveGeometry wrote it
    for (const QString &server : {u"offscreen"_s, u"Xvfb"_s}) {
        const auto row = [&](const char *name) -> QTestData & {
            return QTest::newRow(qPrintable(server + u" "_s + QLatin1StringView(name))) << server;
        };
        row("1366 x 768") << QSize(1366, 768) << u"1"_s << QString();
        row("1920 x 1080") << QSize(1920, 1080) << u"1"_s << QString();
        row("1920 x 1080 at 2x") << QSize(1920, 1080) << u"2"_s << QString();
        row("1280 x 800 at 1.25x") << QSize(1280, 800) << u"1.25"_s << QString();
        row("3840 x 2160 at 2x") << QSize(3840, 2160) << u"2"_s << QString();
        row("1366 x 768 after a run at 1920 x 1080") << QSize(1366, 768) << u"1"_s << u"1920x1080"_s;
    }
}

void TestFirstStart::theWindowOpensWithinTheScreen()
{
    QFETCH(QString, server);
    QFETCH(QSize, screen);
    QFETCH(QString, scale);
    QFETCH(QString, remembered);
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QString config = home.filePath(u"screen.json"_s);
    {
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QJsonObject screens {{u"windowFrameMargins"_s, true},
                                   {u"screens"_s,
                                    QJsonArray {QJsonObject {{u"name"_s, u"screen"_s},
                                                             {u"x"_s, 0},
                                                             {u"y"_s, 0},
                                                             {u"width"_s, screen.width()},
                                                             {u"height"_s, screen.height()},
                                                             {u"logicalDpi"_s, 96},
                                                             {u"logicalBaseDpi"_s, 96}}}}};
        file.write(QJsonDocument(screens).toJson());
    }
    if (!remembered.isEmpty()) {
        // A window closed at another size: what a run at that size left in the settings.
        QSettings settings(home.filePath(u"config/PosEnc Explorer/posenc.conf"_s), QSettings::IniFormat);
        QWidget widget;
        const QStringList sides = remembered.split(u'x');
        widget.setGeometry(0, 0, sides[0].toInt(), sides[1].toInt());
        settings.setValue(u"window/geometry"_s, widget.saveGeometry());
        settings.sync();
    }
    QProcess child;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QString::fromLatin1(kChildVariable), u"1"_s);
    environment.insert(u"QT_QPA_PLATFORM"_s, u"offscreen:configfile="_s + config);
    // An X server of the screen's size, its display's number chosen by the server and written to
    // its standard output (-displayfd 1); no window manager, so the window is where Qt puts it.
    QProcess xserver;
    if (server == u"Xvfb"_s) {
        const QString xvfb = QStandardPaths::findExecutable(u"Xvfb"_s);
        QVERIFY2(!xvfb.isEmpty(), "Xvfb is not installed (.ci/packages lists xvfb)");
        xserver.start(xvfb,
                      {u"-displayfd"_s, u"1"_s, u"-nolisten"_s, u"tcp"_s, u"-screen"_s, u"0"_s,
                       u"%1x%2x24"_s.arg(screen.width()).arg(screen.height())});
        QVERIFY2(xserver.waitForStarted(), qPrintable(xserver.errorString()));
        QTRY_VERIFY_WITH_TIMEOUT(xserver.canReadLine() || xserver.state() != QProcess::Running, 60000);
        const QByteArray display = xserver.readLine().trimmed();
        QVERIFY2(!display.isEmpty(), xserver.readAllStandardError().constData());
        environment.insert(u"QT_QPA_PLATFORM"_s, u"xcb"_s);
        environment.insert(u"DISPLAY"_s, u":"_s + QString::fromLatin1(display));
    }
    const auto stopServer = qScopeGuard([&] {
        if (xserver.state() != QProcess::NotRunning) {
            xserver.terminate();
            xserver.waitForFinished(30000);
        }
    });
    environment.insert(u"QT_SCALE_FACTOR"_s, scale);
    environment.insert(u"XDG_CONFIG_HOME"_s, home.filePath(u"config"_s));
    environment.insert(u"HOME"_s, home.path());
    child.setProcessEnvironment(environment);
    child.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(child.waitForFinished(600000));
    const QByteArray errors = child.readAllStandardError();
    QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, errors.constData());
    const QJsonArray report = QJsonDocument::fromJson(child.readAllStandardOutput()).array();
    QVERIFY2(report.size() > 1, errors.constData());
    QStringList outside;
    for (const QJsonValue &value : report) {
        const QJsonObject at = value.toObject();
        const QRect available = rect(at[u"available"_s]);
        const double ratio = at[u"ratio"_s].toDouble();
        QCOMPARE(ratio, scale.toDouble());
        QVERIFY(available.width() <= screen.width() / ratio + 1 && available.width() >= screen.width() / ratio - 1);
        for (const QString &what : {u"window"_s, u"startPanel"_s}) {
            if (!at.contains(what))
                continue;
            const QRect shown = rect(at[what]);
            if (!available.contains(shown))
                outside.append(u"%1: the %2 at %3,%4 %5 x %6 (%7 x %8 device pixels) on %9 x %10; it needs %11"_s
                                   .arg(at[u"when"_s].toString(), what)
                                   .arg(shown.x())
                                   .arg(shown.y())
                                   .arg(shown.width())
                                   .arg(shown.height())
                                   .arg(qRound(shown.width() * ratio))
                                   .arg(qRound(shown.height() * ratio))
                                   .arg(available.width())
                                   .arg(available.height())
                                   .arg(QVariant(at[u"least"_s].toVariant()).toStringList().join(u" x "_s)));
        }
    }
    QVERIFY2(outside.isEmpty(), qPrintable(outside.join(u'\n')));
}

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsSet(kChildVariable))
        return runChild(argc, argv);
    QApplication app(argc, argv); // a widget writes the remembered geometry
    TestFirstStart test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_firststart.moc"
