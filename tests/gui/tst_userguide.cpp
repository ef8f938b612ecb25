// Help > User guide (docs/ARCHITECTURE.md, The user guide): a page in the program that is
// docs/GUIDE.md, compiled in at build time, so that the two cannot drift. It opens on the guide's
// start, which is the window (before: the README's command line, XDG_RUNTIME_DIR in view), and its
// contents' links go to their sections.
#include "gui/MainWindow.h"
#include "gui/UserGuide.h"
#include "gui/UserGuideDialog.h"

#include "support/TestShots.h"
#include "support/WindowFixture.h"

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>

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

QTEST_MAIN(TestUserGuide)
#include "tst_userguide.moc"
