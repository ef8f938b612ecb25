// How `posenc [OPTIONS]` starts the window: a screenshot draws it at a desktop screen's size
// unless --size says otherwise, and a start offers the lessons only when nothing given says what
// the user wants: a file on the command line (posenc FILE, as a file manager starts it) too.
#include "gui/Launcher.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace posenc;

class TestLauncher : public QObject
{
    Q_OBJECT

private slots:
    void aScreenshotIsDrawnAtADesktopsSizeUnlessTold();
    void aStartOffersTheLessonsOnlyWhenNothingSaysWhatTheUserWants_data();
    void aStartOffersTheLessonsOnlyWhenNothingSaysWhatTheUserWants();
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

QTEST_GUILESS_MAIN(TestLauncher)
#include "tst_launcher.moc"
