#include "gui/ControlPanel.h"
#include "gui/Dashboard.h"
#include "gui/MainWindow.h"
#include "gui/SessionController.h"
#include "support/TestMain.h"

#include "render/FigureRegistry.h"
#include "render/data/sinusoidal/CurvesModel.h"

#include "support/WindowFixture.h"
#include "support/WindowViews.h"

#include "core/ParamText.h"

#include <QFile>
#include <QJsonDocument>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace tst_sessioncontroller {
using namespace Qt::StringLiterals;
using namespace posenc;
using namespace WindowViews;
using namespace WindowFixture;

namespace {

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QMap<QString, QString> texts(const Params &p)
{
    return Session::fromParams(p).params;
}

} // namespace

// Sessions in the window: saved and reopened exactly, refused whole when anything is wrong.
// Settings (the recent sessions) live in a temporary directory.
class TestSessionController : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void saveOpenSaveGivesTheSameBytesAndTables();
    void viewStateRoundTrips();
    void earlierViewStateStillOpens();
    void layoutRoundTripsAndSessionsBeforeLayoutsShowFourViews();
    void refusedFileChangesNothing_data();
    void refusedFileChangesNothing();
    void unwritablePathIsReported();
    void recentSessionsFollowSavesAndOpensAndLoseMissingFiles();
    void storedRecentSessionsAreDedupedAndCappedWhenRead();
    void storedNamesThatNameNoFileAreLeftOut();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
};

void TestSessionController::init()
{
    // The last test's settings write their file as they go: before their directory does, or
    // they would make it again and leave it behind.
    m_settings.reset();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(u"posenc.ini"_s), QSettings::IniFormat);
}

// A window with parameters and a view state away from the defaults.
static void changeEverything(MainWindow &window)
{
    Params p = small();
    p.sinusoidal.base = 500.0;
    p.sinusoidal.layout = Layout::Split;
    p.dropout = 0.25;
    p.seed = 7;
    window.controlPanel()->applyParams(p);
    FigureView *heatmap = heatmapView(window);
    QVERIFY(heatmap->setOption(u"quantity"_s, u"input"_s));
    QVERIFY(heatmap->setOption(u"colormap"_s, u"cividis"_s));
    showRanges(heatmap, {{u"columns"_s, QCPRange(3.5, 20.5)}, {u"positions"_s, QCPRange(10.5, 41.5)}});
    QVERIFY(curvesView(window)->setOption(u"dims"_s, u"0,3,10:12"_s));
    showRanges(curvesView(window), {{u"positions"_s, QCPRange(5.0, 33.0)}});
    window.dashboard()->toggleMaximized(heatmap);
}

void TestSessionController::saveOpenSaveGivesTheSameBytesAndTables()
{
    MainWindow first(small(), m_settings.get());
    QVERIFY(WindowFixture::shown(first));
    changeEverything(first);
    QTRY_VERIFY(allSettled(first));
    const QString a = m_dir->filePath(u"a.json"_s);
    QVERIFY(first.sessions()->save(a));

    MainWindow second(Params {}, m_settings.get());
    QVERIFY(WindowFixture::shown(second));
    QSignalSpy opened(second.sessions(), &SessionController::opened);
    QVERIFY(second.sessions()->open(a));
    QTRY_COMPARE(opened.size(), 1);
    QTRY_VERIFY(allSettled(second));
    const QString b = m_dir->filePath(u"b.json"_s);
    QVERIFY(second.sessions()->save(b));
    QCOMPARE(contents(b), contents(a));
    QVERIFY(!contents(a).isEmpty());

    QCOMPARE(texts(second.controlPanel()->params()), texts(first.controlPanel()->params()));
    for (int i = 0; i < first.views().size(); ++i)
        QVERIFY(second.views()[i]->params() == first.views()[i]->params());
    // The same table on screen: the heatmap's grids hold the same cells.
    const HeatmapGrid *g1 = grid(heatmapView(first));
    const HeatmapGrid *g2 = grid(heatmapView(second));
    QVERIFY(g1 && g2);
    QCOMPARE(g2->block, g1->block);
    QCOMPARE(g2->quantity, Quantity::Input);
    QVERIFY(g2->values == g1->values);
}

void TestSessionController::viewStateRoundTrips()
{
    MainWindow first(small(), nullptr);
    changeEverything(first);
    const QString path = m_dir->filePath(u"view.json"_s);
    QVERIFY(first.sessions()->save(path));

    MainWindow second(Params {}, nullptr);
    QSignalSpy opened(second.sessions(), &SessionController::opened);
    QVERIFY(second.sessions()->open(path));
    QCOMPARE(opened.size(), 1);
    FigureView *heatmap = heatmapView(second);
    QCOMPARE(heatmap->state().option(u"quantity"_s), u"input"_s);
    QCOMPARE(heatmap->state().option(u"colormap"_s), u"cividis"_s);
    QCOMPARE(range(heatmap, u"columns"_s), QCPRange(3.5, 20.5));
    QCOMPARE(range(heatmap, u"positions"_s), QCPRange(10.5, 41.5));
    QCOMPARE(heatmapPanel(heatmap).axisRect()->axis(QCPAxis::atBottom)->range(), QCPRange(3.5, 20.5));
    QCOMPARE(curvesView(second)->state().option(u"dims"_s), u"0,3,10:12"_s);
    QCOMPARE(CurvesModel::columns(second.controlPanel()->params(), curvesView(second)->state()),
             (std::vector<std::int64_t> {0, 3, 10, 11}));
    QCOMPARE(range(curvesView(second), u"positions"_s), QCPRange(5.0, 33.0));
    QCOMPARE(second.dashboard()->maximized(), heatmap);
    QVERIFY(!curvesView(second)->isVisibleTo(&second));
    QCOMPARE(second.sessions()->viewState(), first.sessions()->viewState());
}

// Sessions saved before views could show any figure kept the heatmap's and the curves' states
// under their names; they still open into the views that show those figures.
void TestSessionController::earlierViewStateStillOpens()
{
    MainWindow window(Params {}, nullptr);
    const QByteArray json = R"({"format": "posenc-session", "version": 1,
        "params": {"d-model": "40", "max-len": "60"},
        "view": {"heatmap": {"quantity": "mask", "colormap": "viridis", "columns": [3.5, 20.5],
                             "positions": [10.5, 41.5]},
                 "curves": {"columns": "0,3", "positions": [5, 33]}, "maximized": 1, "tab": 0}})";
    const QString path = m_dir->filePath(u"earlier.json"_s);
    QVERIFY(writeFile(path, json));
    QSignalSpy opened(window.sessions(), &SessionController::opened);
    QVERIFY(window.sessions()->open(path));
    QCOMPARE(opened.size(), 1);
    FigureView *heatmap = heatmapView(window);
    QCOMPARE(heatmap->state().option(u"quantity"_s), u"mask"_s);
    QCOMPARE(heatmap->state().option(u"colormap"_s), u"viridis"_s);
    QCOMPARE(range(heatmap, u"columns"_s), QCPRange(3.5, 20.5));
    QCOMPARE(range(heatmap, u"positions"_s), QCPRange(10.5, 41.5));
    QCOMPARE(curvesView(window)->state().option(u"dims"_s), u"0,3"_s);
    QCOMPARE(range(curvesView(window), u"positions"_s), QCPRange(5.0, 33.0));
    QCOMPARE(window.dashboard()->maximized(), curvesView(window));
}

// A session says how many views the dashboard shows; those saved before it could say so showed
// four, and open on four whatever the window showed.
void TestSessionController::layoutRoundTripsAndSessionsBeforeLayoutsShowFourViews()
{
    MainWindow first(small(), nullptr);
    first.dashboard()->setArrangement(Dashboard::Arrangement::SideBySide);
    curvesView(first)->setFigure(*FigureRegistry::find(u"similarity"_s));
    const QString path = m_dir->filePath(u"two.json"_s);
    QVERIFY(first.sessions()->save(path));
    QVERIFY(contents(path).contains(R"("layout": "1x2")"));

    MainWindow second(Params {}, nullptr);
    QVERIFY(second.sessions()->open(path));
    QCOMPARE(second.dashboard()->arrangement(), Dashboard::Arrangement::SideBySide);
    QCOMPARE(second.views()[1]->figure().name(), u"similarity"_s);
    QVERIFY(second.views()[0]->isVisibleTo(&second) && second.views()[1]->isVisibleTo(&second));
    QVERIFY(!second.views()[2]->isVisibleTo(&second) && !second.views()[3]->isVisibleTo(&second));

    const QString earlier = m_dir->filePath(u"earlier.json"_s);
    QVERIFY(writeFile(earlier, R"({"format": "posenc-session", "version": 1, "params": {"d-model": "40"},
        "view": {"views": [{"figure": "curves"}, {"figure": "heatmap"}], "maximized": -1}})"));
    QVERIFY(second.sessions()->open(earlier));
    QCOMPARE(second.dashboard()->arrangement(), Dashboard::Arrangement::Grid);
    for (FigureView *view : second.views())
        QVERIFY(view->isVisibleTo(&second));
    // A layout this program does not know changes nothing.
    second.dashboard()->setArrangement(Dashboard::Arrangement::One);
    second.sessions()->setViewState(QJsonDocument::fromJson(R"({"layout": "3x3"})").object());
    QCOMPARE(second.dashboard()->arrangement(), Dashboard::Arrangement::One);
}

void TestSessionController::refusedFileChangesNothing_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("reason");
    const QByteArray params = R"("params": {"d-model": "64", "max-len": "100"}, "view": {"maximized": 2})";
    QTest::newRow("not JSON") << QByteArray("{\"format\": \"posenc-session\", \"version\": 1,\n  \"params\": {")
                              << u"line 2"_s;
    QTest::newRow("version 2") << QByteArray(R"({"format": "posenc-session", "version": 2, )" + params + "}")
                               << u"version 2"_s;
    QTest::newRow("not a session") << QByteArray(R"({"format": "something-else", "version": 1})")
                                   << u"not a session file"_s;
    QTest::newRow("invalid d_model") << QByteArray(
        R"({"format": "posenc-session", "version": 1, "params": {"d-model": "0", "max-len": "100"}})")
                                     << u"d_model: must be an integer"_s; // the window's label, not the flag
    QTest::newRow("bad syntax") << QByteArray(
        R"({"format": "posenc-session", "version": 1, "params": {"base": "ten"}})")
                                << u"base: must be a finite number"_s;
    QTest::newRow("missing matrix") << QByteArray(
        R"({"format": "posenc-session", "version": 1, "params": {"embeddings": "/no/such/file.npy"}})")
                                    << u"/no/such/file.npy"_s;
    // The audit: a lesson block the panel cannot show was dropped without a word, and one whose
    // explanation named a file read it (/dev/zero without end).
    const QByteArray lesson = R"({"format": "posenc-session", "version": 1, "params": {"d-model": "64"},
        "view": {"views": [{"figure": "heatmap"}]}, "lesson": )";
    QTest::newRow("a lesson named with capitals") << QByteArray(lesson + R"({"name": "Bad Name", "title": "T",
        "question": "Q", "explanation": "E", "main": 0}})")
                                                  << u"\"name\" must be lowercase words"_s;
    QTest::newRow("a lesson whose main view is not there") << QByteArray(lesson + R"({"name": "a", "title": "T",
        "question": "Q", "explanation": "E", "main": 99}})")
                                                           << u"got 99"_s;
    QTest::newRow("a lesson that would read a device") << QByteArray(lesson + R"({"name": "a", "title": "T",
        "question": "Q", "explanation": "<img src=/dev/zero>", "main": 0}})")
                                                       << u"uses <img src=/dev/zero>"_s;
}

void TestSessionController::refusedFileChangesNothing()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, reason);
    MainWindow window(small(), m_settings.get());
    changeEverything(window);
    const Session before = window.sessions()->current();
    const QString path = m_dir->filePath(u"bad.json"_s);
    QVERIFY(writeFile(path, json));
    QSignalSpy failed(window.sessions(), &SessionController::failed);
    QSignalSpy opened(window.sessions(), &SessionController::opened);
    window.sessions()->open(path);
    QTRY_COMPARE(failed.size(), 1);
    const QString message = failed[0][1].toString();
    QVERIFY2(message.contains(path), qPrintable(message));
    QVERIFY2(message.contains(reason), qPrintable(message));
    QCOMPARE(opened.size(), 0);
    QVERIFY(window.sessions()->current() == before);
    QVERIFY(window.sessions()->recentSessions().isEmpty());
    // The dialog the window shows does not block: it is open and can be closed.
    QTRY_VERIFY(window.findChild<QMessageBox *>());
    QVERIFY(window.findChild<QMessageBox *>()->text().contains(path));
}

void TestSessionController::unwritablePathIsReported()
{
    MainWindow window(small(), nullptr);
    QSignalSpy failed(window.sessions(), &SessionController::failed);
    const QString path = m_dir->filePath(u"no-such-dir/s.json"_s);
    QVERIFY(!window.sessions()->save(path));
    QCOMPARE(failed.size(), 1);
    QVERIFY2(failed[0][1].toString().contains(path), qPrintable(failed[0][1].toString()));
    QVERIFY(!QFile::exists(path));
}

void TestSessionController::recentSessionsFollowSavesAndOpensAndLoseMissingFiles()
{
    MainWindow window(small(), m_settings.get());
    SessionController &sessions = *window.sessions();
    QSignalSpy changed(&sessions, &SessionController::recentSessionsChanged);
    const QString a = m_dir->filePath(u"a.json"_s);
    const QString b = m_dir->filePath(u"b.json"_s);
    QVERIFY(sessions.save(a));
    QVERIFY(sessions.save(b));
    QCOMPARE(sessions.recentSessions(), (QStringList {b, a}));
    QVERIFY(sessions.open(a));
    QCOMPARE(sessions.recentSessions(), (QStringList {a, b}));
    QVERIFY(changed.size() >= 3);
    for (int i = 0; i < SessionController::kMaxRecent + 3; ++i)
        QVERIFY(sessions.save(m_dir->filePath(u"s%1.json"_s.arg(i))));
    QCOMPARE(sessions.recentSessions().size(), SessionController::kMaxRecent);
    QVERIFY(QFile::remove(m_dir->filePath(u"s10.json"_s)));
    QCOMPARE(sessions.pruneRecentSessions(), QStringList {m_dir->filePath(u"s10.json"_s)});
    QCOMPARE(sessions.recentSessions().size(), SessionController::kMaxRecent - 1);
    QCOMPARE(sessions.recentSessions().constFirst(), m_dir->filePath(u"s9.json"_s));
    // Kept in the settings: a new window sees them.
    MainWindow again(small(), m_settings.get());
    QCOMPARE(again.sessions()->recentSessions(), sessions.recentSessions());
}

// A settings file holding 20,000 recent sessions, most of them repeated (edited by hand or
// corrupt): the menu gets each path once and at most kMaxRecent of them, newest first.
void TestSessionController::storedRecentSessionsAreDedupedAndCappedWhenRead()
{
    QStringList stored;
    for (int i = 0; i < 20'000; ++i)
        stored << m_dir->filePath(u"s%1.json"_s.arg(i % 3 == 0 ? 0 : i));
    stored.insert(1, QString());
    m_settings->setValue(u"sessions/recent"_s, stored);
    MainWindow window(small(), m_settings.get());
    QStringList expected;
    for (const int i : {0, 1, 2, 4, 5, 7, 8, 10})
        expected << m_dir->filePath(u"s%1.json"_s.arg(i));
    QCOMPARE(expected.size(), SessionController::kMaxRecent);
    QCOMPARE(window.sessions()->recentSessions(), expected);
}

// A corrupt settings file whose recent list holds a name with U+0000 (no file can have it): the
// menu leaves it out, and pruning the list does not hand it to QFileInfo, which would print Qt's
// "Broken filename passed to function" on standard error.
void TestSessionController::storedNamesThatNameNoFileAreLeftOut()
{
    QTest::failOnWarning(QRegularExpression(u"."_s));
    const QString kept = m_dir->filePath(u"kept.json"_s);
    QFile file(kept);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    m_settings->setValue(u"sessions/recent"_s,
                         QStringList {m_dir->filePath(u"a\u0000b.json"_s), kept, QString(1, QChar(u'\0'))});
    MainWindow window(small(), m_settings.get());
    QCOMPARE(window.sessions()->recentSessions(), QStringList {kept});
    QCOMPARE(window.sessions()->pruneRecentSessions(), QStringList {});
    QCOMPARE(window.sessions()->recentSessions(), QStringList {kept});
}

POSENC_TEST_MAIN(TestSessionController)
} // namespace tst_sessioncontroller
#include "tst_sessioncontroller.moc"
