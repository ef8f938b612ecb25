#include "gui/ComputeScheduler.h"
#include "support/TestMain.h"

#include <QSignalSpy>
#include <QTest>

#include <thread>

namespace tst_computescheduler {
using posenc::ComputeScheduler;

namespace {

// A job that publishes `value` into `applied` at once.
ComputeScheduler::Job publishing(int value, QList<int> &applied)
{
    return [value, &applied](const std::atomic<bool> &, const ComputeScheduler::Publish &publish) {
        publish([value, &applied] { applied.append(value); });
    };
}

void waitFor(const std::atomic<bool> &flag)
{
    while (!flag.load())
        std::this_thread::yield();
}

} // namespace

class TestComputeScheduler : public QObject
{
    Q_OBJECT

private slots:
    void rapidRequestsRunOnlyTheLatest();
    void newerRequestCancelsTheRunningJob();
    void resultOfASupersededRequestIsDropped();
    void everyPublishedResultOfTheCurrentJobArrivesInOrder();
    void resultsArriveInTheOrderOfRequests();
    void destructionCancelsAndWaitsForTheJob();
    void cancelAllDropsWhatIsOnItsWay();
    void aRestingJobEndsWhenCancelled();
    void aRestSeesAFlagItsOwnerSets();
};

void TestComputeScheduler::rapidRequestsRunOnlyTheLatest()
{
    ComputeScheduler scheduler;
    QSignalSpy idle(&scheduler, &ComputeScheduler::idle);
    QList<int> applied;
    std::atomic<int> started {0};
    for (int i = 0; i < 100; ++i) {
        scheduler.submit([i, &applied, &started](const std::atomic<bool> &, const ComputeScheduler::Publish &publish) {
            ++started;
            publish([i, &applied] { applied.append(i); });
        });
    }
    QTRY_COMPARE(idle.count(), 1);
    QCOMPARE(applied, QList<int> {99});
    // The first started at once; the 98 between were replaced before they ran: nothing queued.
    QCOMPARE(started.load(), 2);
    QVERIFY(scheduler.isIdle());
}

void TestComputeScheduler::newerRequestCancelsTheRunningJob()
{
    ComputeScheduler scheduler;
    QList<int> applied;
    std::atomic<bool> started {false}, sawCancel {false};
    scheduler.submit([&](const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
        started = true;
        waitFor(cancel);
        sawCancel = true;
        publish([&applied] { applied.append(1); });
    });
    waitFor(started);
    scheduler.submit(publishing(2, applied));
    QTRY_VERIFY(sawCancel.load());
    QTRY_COMPARE(applied, QList<int> {2});
}

void TestComputeScheduler::resultOfASupersededRequestIsDropped()
{
    // The old job publishes before it is cancelled; its result is queued to the GUI thread
    // when the newer request arrives, and must not be applied.
    ComputeScheduler scheduler;
    QList<int> applied;
    std::atomic<bool> published {false};
    scheduler.submit([&](const std::atomic<bool> &, const ComputeScheduler::Publish &publish) {
        publish([&applied] { applied.append(1); });
        published = true;
    });
    waitFor(published);
    scheduler.submit(publishing(2, applied));
    QTRY_COMPARE(applied, QList<int> {2});
    QTRY_VERIFY(scheduler.isIdle());
    QCOMPARE(applied, QList<int> {2});
}

void TestComputeScheduler::everyPublishedResultOfTheCurrentJobArrivesInOrder()
{
    ComputeScheduler scheduler;
    QList<int> applied;
    scheduler.submit([&applied](const std::atomic<bool> &, const ComputeScheduler::Publish &publish) {
        publish([&applied] { applied.append(1); }); // preview
        publish([&applied] { applied.append(2); }); // refinement
    });
    QTRY_COMPARE(applied, (QList<int> {1, 2}));
}

void TestComputeScheduler::resultsArriveInTheOrderOfRequests()
{
    ComputeScheduler scheduler;
    QList<int> applied;
    for (int i = 0; i < 200; ++i) {
        scheduler.submit(publishing(i, applied));
        if (i % 3 == 0)
            QCoreApplication::processEvents();
    }
    QTRY_VERIFY(scheduler.isIdle() && !applied.isEmpty() && applied.last() == 199);
    for (qsizetype i = 1; i < applied.size(); ++i)
        QVERIFY2(applied[i] > applied[i - 1], "a result older than one already applied was applied");
}

void TestComputeScheduler::destructionCancelsAndWaitsForTheJob()
{
    auto *scheduler = new ComputeScheduler;
    std::atomic<bool> started {false}, finished {false};
    scheduler->submit([&](const std::atomic<bool> &cancel, const ComputeScheduler::Publish &) {
        started = true;
        waitFor(cancel);
        finished = true;
    });
    waitFor(started);
    delete scheduler; // would hang if the job were not cancelled, crash if not waited for
    QVERIFY(finished.load());
}

void TestComputeScheduler::cancelAllDropsWhatIsOnItsWay()
{
    ComputeScheduler scheduler;
    QList<int> applied;
    std::atomic<bool> published {false};
    scheduler.submit([&](const std::atomic<bool> &, const ComputeScheduler::Publish &publish) {
        publish([&applied] { applied.append(1); });
        published = true;
    });
    waitFor(published);
    scheduler.cancelAll();
    QTRY_VERIFY(scheduler.isIdle());
    scheduler.submit(publishing(3, applied));
    QTRY_COMPARE(applied, QList<int> {3});
}

void TestComputeScheduler::aRestingJobEndsWhenCancelled()
{
    // A job resting before its refinement (FigureJob) is woken by the scheduler's cancellation, not
    // by a poll of its flag: polling once an hour, the rest ends within QTRY's seconds only if the
    // cancellation wakes it.
    ComputeScheduler scheduler;
    std::atomic<bool> started {false}, finished {false}, rested {true};
    scheduler.submit([&](const std::atomic<bool> &cancel, const ComputeScheduler::Publish &) {
        started = true;
        rested = ComputeScheduler::restUnlessCancelled(cancel, std::chrono::steady_clock::now() + std::chrono::hours(2),
                                                       std::chrono::hours(1));
        finished = true;
    });
    waitFor(started);
    scheduler.cancelAll();
    QTRY_VERIFY(finished.load());
    QVERIFY(!rested.load());
    QTRY_VERIFY(scheduler.isIdle());
}

void TestComputeScheduler::aRestSeesAFlagItsOwnerSets()
{
    // A flag set by its own owner, not a scheduler, wakes no one: the rest sees it at a poll. Without
    // the poll the rest would last its hour (a test timeout, not a pass).
    std::atomic<bool> cancel {false};
    std::thread owner([&cancel] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        cancel = true;
    });
    const bool rested
        = ComputeScheduler::restUnlessCancelled(cancel, std::chrono::steady_clock::now() + std::chrono::hours(1));
    owner.join();
    QVERIFY(!rested);
}

POSENC_TEST_GUILESS_MAIN(TestComputeScheduler)
} // namespace tst_computescheduler
#include "tst_computescheduler.moc"
