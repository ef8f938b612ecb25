// The views show their results one per turn of the event loop (FigureTurns, issue 62): the monkey
// found the four views of a family's page, and a lesson's, delivered their results in one turn and
// filled and fitted them in one span of the GUI thread's work (60-90 ms for four at a dashboard's
// quarter of 800 x 520, over 100 ms on a loaded machine), where each takes its own.
#include "gui/FigureTurns.h"
#include "support/TestMain.h"

#include <QTest>
#include <QTimer>

#include <memory>

namespace tst_figureturns {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestFigureTurns : public QObject
{
    Q_OBJECT

private slots:
    void eachViewHasATurnOfItsOwn();
    void aViewQueuedAgainShowsItsLatestInItsPlace();
    void aDroppedOrDestroyedViewShowsNothing();
};

// A timer of 0 ms fires once a pass of the event loop, as the monkey's heartbeat does every 20 ms:
// it fires between any two views' shows, so no span of work holds two of them.
void TestFigureTurns::eachViewHasATurnOfItsOwn()
{
    QObject a, b, c;
    int beats = 0;
    QTimer beat;
    beat.setInterval(0);
    connect(&beat, &QTimer::timeout, this, [&beats] { ++beats; });
    beat.start();
    QStringList shown;
    QList<int> at;
    for (QObject *view : {&a, &b, &c}) {
        const QString name = view == &a ? u"a"_s : view == &b ? u"b"_s : u"c"_s;
        FigureTurns::queue(view, [&, name] {
            shown.append(name);
            at.append(beats);
        });
    }
    QVERIFY(FigureTurns::isQueued(&a) && FigureTurns::isQueued(&c));
    QVERIFY(shown.isEmpty()); // on a later turn, not within the call that queued it
    QTRY_COMPARE(shown, (QStringList {u"a"_s, u"b"_s, u"c"_s}));
    QVERIFY2(at[0] < at[1] && at[1] < at[2],
             qPrintable(u"beats at the shows: %1 %2 %3"_s.arg(at[0]).arg(at[1]).arg(at[2])));
    QVERIFY(!FigureTurns::isQueued(&a) && !FigureTurns::isQueued(&c));
}

// A preview overtaken by its full result before its turn is never drawn: the view's latest result
// is shown once, where its first took its place in the queue.
void TestFigureTurns::aViewQueuedAgainShowsItsLatestInItsPlace()
{
    QObject a, b;
    QStringList shown;
    FigureTurns::queue(&a, [&shown] { shown.append(u"a preview"_s); });
    FigureTurns::queue(&b, [&shown] { shown.append(u"b"_s); });
    FigureTurns::queue(&a, [&shown] { shown.append(u"a full"_s); });
    QTRY_COMPARE(shown.size(), 2);
    QTest::qWait(20);
    QCOMPARE(shown, (QStringList {u"a full"_s, u"b"_s}));
}

// A view that asked for another result drops the one waiting (FigureView::requestCompute); a view
// destroyed before its turn shows nothing, and the views after it still show theirs.
void TestFigureTurns::aDroppedOrDestroyedViewShowsNothing()
{
    QObject a, c;
    auto b = std::make_unique<QObject>();
    QStringList shown;
    FigureTurns::queue(&a, [&shown] { shown.append(u"a"_s); });
    FigureTurns::queue(b.get(), [&shown] { shown.append(u"b"_s); });
    FigureTurns::queue(&c, [&shown] { shown.append(u"c"_s); });
    FigureTurns::drop(&a);
    QVERIFY(!FigureTurns::isQueued(&a));
    b.reset();
    QTRY_COMPARE(shown, QStringList {u"c"_s});
    QTest::qWait(20);
    QCOMPARE(shown, QStringList {u"c"_s});
}

POSENC_TEST_MAIN(TestFigureTurns)
} // namespace tst_figureturns
#include "tst_figureturns.moc"
