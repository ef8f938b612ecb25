// Help > User guide (docs/ARCHITECTURE.md, The user guide): a page in the program that is
// docs/GUIDE.md, compiled in at build time, so that the two cannot drift. It opens on the guide's
// start, which is the window (before: the README's command line, XDG_RUNTIME_DIR in view), and its
// contents' links go to their sections.
#include "gui/ComputeScheduler.h"
#include "gui/MainWindow.h"
#include "gui/UserGuide.h"
#include "gui/UserGuideDialog.h"
#include "support/TestMain.h"

#include "support/TestShots.h"
#include "support/WindowFixture.h"

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>

namespace tst_userguide {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// docs/GUIDE.md, read here as a file.
QString guideFile()
{
    QFile file(QStringLiteral(POSENC_GUIDE));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

} // namespace

class TestUserGuide : public QObject
{
    Q_OBJECT

private slots:
    void guideIsTheGuideFile();
    void guideStartsWithTheWindow();
    void helpMenuShowsTheGuide();
    void contentsLinksGoToTheirSections();
    void guideIsReadOffTheGuiThread();
    void closedWhileReadingLeavesNothingBehind();
};

void TestUserGuide::guideIsTheGuideFile()
{
    const QString guide = guideFile();
    QVERIFY2(!guide.isEmpty(), "docs/GUIDE.md cannot be read");
    QCOMPARE(UserGuide::markdown(), guide);
}

// The window first, the command line after it, its reference last.
void TestUserGuide::guideStartsWithTheWindow()
{
    const QStringList lines = UserGuide::markdown().split(u'\n');
    QCOMPARE(lines.front(), u"# PosEnc Explorer: the user guide"_s);
    const qsizetype window = lines.indexOf(u"## The window"_s);
    const qsizetype commandLine = lines.indexOf(u"## The command line"_s);
    const qsizetype reference = lines.indexOf(u"## Reference"_s);
    QVERIFY(window > 0 && window < commandLine && commandLine < reference);
    for (qsizetype i = 0; i < window; ++i)
        QVERIFY2(!lines[i].contains(u"XDG_RUNTIME_DIR"_s), qPrintable(lines[i]));
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
    QTRY_VERIFY(dialog->isReady());
    // Not modal: the window stays usable beside it.
    QVERIFY(!dialog->isModal());
    // The Markdown drawn as a page: headings, tables and code as text, no markup left.
    const QString shown = dialog->browser()->toPlainText();
    for (const QString &text :
         {u"The window"_s, u"The command line"_s, u"dropout-on-sum"_s, u"posenc export FIGURE -o FILE"_s})
        QVERIFY2(shown.contains(text), qPrintable(text));
    // Opened on its start: the title at the top of the page.
    QCOMPARE(dialog->browser()->verticalScrollBar()->value(), 0);
    QVERIFY(shown.startsWith(u"PosEnc Explorer: the user guide"_s));
    QVERIFY(!shown.contains(u"## "_s));
    QVERIFY(!shown.contains(u"<!--"_s) && !shown.contains(u"reference begins"_s));
    QVERIFY(!shown.contains(u"```"_s));
    // For a look at the page.
    TestShots::save(dialog->grab(), u"posenc-userguide"_s);
}

void TestUserGuide::contentsLinksGoToTheirSections()
{
    UserGuideDialog dialog;
    QVERIFY(WindowFixture::shown(dialog));
    QTRY_VERIFY(dialog.isReady());
    QTextBrowser *browser = dialog.browser();
    QCOMPARE(UserGuideDialog::anchorOf(u"A family's numbers: posenc describe"_s),
             u"a-familys-numbers-posenc-describe"_s);
    // Every link of the contents names a heading of the guide, and following it shows the heading.
    const QRegularExpression link(uR"(^- \[[^\]]+\]\(#([a-z0-9_-]+)\)$)"_s);
    int links = 0;
    for (const QString &line : UserGuide::markdown().split(u'\n')) {
        const QRegularExpressionMatch match = link.match(line);
        if (!match.hasMatch())
            continue;
        ++links;
        browser->verticalScrollBar()->setValue(0);
        emit browser->anchorClicked(QUrl(u"#"_s + match.captured(1)));
        const QTextBlock block = browser->textCursor().block();
        QVERIFY2(block.blockFormat().headingLevel() > 0, qPrintable(match.captured(1)));
        QCOMPARE(UserGuideDialog::anchorOf(block.text()), match.captured(1));
        const int top = int(browser->document()->documentLayout()->blockBoundingRect(block).top());
        QCOMPARE(browser->verticalScrollBar()->value(), std::min(top, browser->verticalScrollBar()->maximum()));
    }
    QVERIFY(links >= 10);
    QVERIFY(!dialog.showSection(u"no-such-section"_s));
}

// The guide's Markdown took the GUI thread 120-150 ms to read (the monkey's two spans of its work
// over 100 ms, both after Help > User guide): a job reads it, and the dialog opens at once saying so.
void TestUserGuide::guideIsReadOffTheGuiThread()
{
    UserGuideDialog dialog;
    // The constructor returned without the page: nothing of the guide was read on this thread.
    QVERIFY(!dialog.isReady());
    QCOMPARE(dialog.browser()->toPlainText(), u"Reading the user guide…"_s);
    QVERIFY(!dialog.showSection(u"the-window"_s));
    QVERIFY(WindowFixture::shown(dialog));
    QSignalSpy ready(&dialog, &UserGuideDialog::ready);
    QTRY_VERIFY_WITH_TIMEOUT(dialog.isReady(), 30000);
    QCOMPARE(ready.count(), 1);
    // The page is the guide's, on this thread now, held by the dialog, and shown from its start.
    QTextDocument *page = dialog.browser()->document();
    QCOMPARE(page->thread(), dialog.thread());
    QVERIFY(page->parent() == dialog.browser());
    QVERIFY(page->toPlainText().startsWith(u"PosEnc Explorer: the user guide"_s));
    QVERIFY(page->toPlainText().contains(u"posenc export FIGURE -o FILE"_s));
    QCOMPARE(dialog.browser()->verticalScrollBar()->value(), 0);
    // It draws as the page the browser reads itself (as the dialog did on the GUI thread), pixel for
    // pixel: at the start, and at a section far down.
    QTextBrowser reference;
    reference.setOpenLinks(false);
    reference.setMarkdown(UserGuide::markdown());
    reference.moveCursor(QTextCursor::Start);
    reference.resize(dialog.browser()->size());
    QVERIFY(WindowFixture::shown(reference));
    // Both laid out to their end (Qt lays a long page out a part at a time while it is shown).
    for (QTextBrowser *browser : {dialog.browser(), &reference})
        browser->document()->documentLayout()->documentSize();
    QTRY_COMPARE(dialog.browser()->verticalScrollBar()->maximum(), reference.verticalScrollBar()->maximum());
    for (const int fraction : {0, 2, 4}) {
        for (QTextBrowser *browser : {dialog.browser(), &reference})
            browser->verticalScrollBar()->setValue(reference.verticalScrollBar()->maximum() * fraction / 4);
        const QImage shown = dialog.browser()->grab().toImage().convertToFormat(QImage::Format_RGB32);
        const QImage read = reference.grab().toImage().convertToFormat(QImage::Format_RGB32);
        QRect differ;
        for (int y = 0; y < std::min(shown.height(), read.height()); ++y)
            for (int x = 0; x < std::min(shown.width(), read.width()); ++x)
                if (shown.pixel(x, y) != read.pixel(x, y))
                    differ |= QRect(x, y, 1, 1);
        if (shown != read) {
            TestShots::save(shown, u"posenc-userguide-job"_s);
            TestShots::save(read, u"posenc-userguide-reference"_s);
        }
        QVERIFY2(shown == read, qPrintable(u"at %1/4 of the page: pixels differ in %2,%3 %4x%5 of %6x%7"_s.arg(fraction)
                                               .arg(differ.x())
                                               .arg(differ.y())
                                               .arg(differ.width())
                                               .arg(differ.height())
                                               .arg(shown.width())
                                               .arg(shown.height())));
    }
    QVERIFY(dialog.showSection(u"the-window"_s));
}

// Closing the guide while it is read neither waits for the reading nor leaves it running: its
// scheduler goes when the reading returns.
void TestUserGuide::closedWhileReadingLeavesNothingBehind()
{
    const auto readers = [] { return qApp->findChildren<ComputeScheduler *>(Qt::FindDirectChildrenOnly).size(); };
    const qsizetype before = readers();
    {
        UserGuideDialog dialog;
        QVERIFY(!dialog.isReady());
    }
    QCOMPARE(readers(), before + 1);
    QTRY_COMPARE_WITH_TIMEOUT(readers(), before, 30000);
}

POSENC_TEST_MAIN(TestUserGuide)
} // namespace tst_userguide
#include "tst_userguide.moc"
