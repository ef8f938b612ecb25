// Help > User guide (docs/ARCHITECTURE.md, The user guide): a page in the program that is the
// README's usage part, taken from README.md at build time, so that the two cannot drift.
#include "gui/MainWindow.h"
#include "gui/UserGuide.h"
#include "gui/UserGuideDialog.h"

#include "support/TestShots.h"

#include <QAction>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QTest>
#include <QTextBrowser>

using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// The README's text between its user guide markers, found here with code of the test's own.
QString readmeGuide()
{
    QFile file(QStringLiteral(POSENC_README));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString readme = QString::fromUtf8(file.readAll());
    const QString opening = u"<!-- user guide begins -->"_s;
    const qsizetype begin = readme.indexOf(opening);
    const qsizetype end = readme.indexOf(u"<!-- user guide ends -->"_s);
    if (begin < 0 || end < begin)
        return {};
    return readme.mid(begin + opening.size(), end - begin - opening.size()).trimmed();
}

} // namespace

class TestUserGuide : public QObject
{
    Q_OBJECT

private slots:
    void guideIsTheReadmesUsagePart();
    void guideHoldsTheUsageSections_data();
    void guideHoldsTheUsageSections();
    void helpMenuShowsTheGuide();
};

void TestUserGuide::guideIsTheReadmesUsagePart()
{
    const QString readme = readmeGuide();
    QVERIFY2(!readme.isEmpty(), "README.md has no user guide between its markers");
    QCOMPARE(UserGuide::markdown(), readme);
}

void TestUserGuide::guideHoldsTheUsageSections_data()
{
    QTest::addColumn<QString>("heading");
    QTest::addColumn<bool>("held");
    QTest::newRow("command line") << u"## Command line"_s << true;
    QTest::newRow("figures") << u"### Figures: `posenc export`"_s << true;
    QTest::newRow("lessons") << u"## Lessons"_s << true;
    QTest::newRow("how it computes") << u"## How it computes"_s << true;
    QTest::newRow("the window") << u"## The window"_s << true;
    // The benchmark, the source's layout and the build are for those who build the program.
    QTest::newRow("not the benchmark") << u"## Benchmark"_s << false;
    QTest::newRow("not the source") << u"## Layout of the source"_s << false;
}

void TestUserGuide::guideHoldsTheUsageSections()
{
    QFETCH(QString, heading);
    QFETCH(bool, held);
    const QStringList lines = UserGuide::markdown().split(u'\n');
    QCOMPARE(lines.contains(heading), held);
}

void TestUserGuide::helpMenuShowsTheGuide()
{
    MainWindow window(Params {}, nullptr);
    window.show();
    QMenu *help = window.menuBar()->findChild<QMenu *>(u"helpMenu"_s);
    QVERIFY(help);
    QAction *guide = help->findChild<QAction *>(u"userGuideAction"_s);
    QVERIFY(guide && help->actions().contains(guide));
    guide->trigger();
    UserGuideDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = window.findChild<UserGuideDialog *>()) && dialog->isVisible());
    // Not modal: the window stays usable beside it.
    QVERIFY(!dialog->isModal());
    // The Markdown drawn as a page: headings, tables and code as text, no markup left.
    const QString shown = dialog->browser()->toPlainText();
    for (const QString &text :
         {u"The window"_s, u"Command line"_s, u"dropout-on-sum"_s, u"posenc export FIGURE -o FILE"_s})
        QVERIFY2(shown.contains(text), qPrintable(text));
    QVERIFY(!shown.contains(u"## "_s));
    QVERIFY(!shown.contains(u"```"_s));
    // For a look at the page.
    TestShots::save(dialog->grab(), u"posenc-userguide"_s);
}

QTEST_MAIN(TestUserGuide)
#include "tst_userguide.moc"
