// forEachTile (src/core/ThreadPools.h): every tile once, cancellation, exceptions, and the
// priority of the threads that help a caller.
#include "core/ThreadPools.h"
#include "support/TestMain.h"

#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace tst_threadpools {
using namespace posenc;

namespace {

#ifdef Q_OS_LINUX
int threadNice()
{
    return getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
}

void setThreadNice(int nice)
{
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), nice);
}
#endif

struct TileRecord
{
    std::mutex mutex;
    std::set<std::thread::id> threads;
    std::set<int> nices;
    std::atomic<int> started {0};
};

// Tiles that record the thread and its nice value; the first waits (up to 10 s) until another
// thread has started a tile, so that a pool thread is known to have helped.
void recordTiles(TileRecord &record, int threads)
{
    const bool done = forEachTile(32, threads, nullptr, [&](std::int64_t tile) {
        {
            const std::lock_guard lock(record.mutex);
            record.threads.insert(std::this_thread::get_id());
#ifdef Q_OS_LINUX
            record.nices.insert(threadNice());
#endif
        }
        record.started.fetch_add(1);
        if (tile == 0) {
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (std::chrono::steady_clock::now() < until) {
                {
                    const std::lock_guard lock(record.mutex);
                    if (record.threads.size() > 1)
                        break;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        }
    });
    QVERIFY(done);
}

} // namespace

class TestThreadPools : public QObject
{
    Q_OBJECT

private slots:
    void everyTileOnce_data();
    void everyTileOnce();
    void aCancelledCallSkipsTheRest();
    void aTilesExceptionReachesTheCaller();
    void helpersRunAtTheCallersPriority();
    void zeroThreadsAreTheScopesCount();
};

void TestThreadPools::everyTileOnce_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("count");
    QTest::newRow("serial") << 1 << 100;
    QTest::newRow("two threads") << 2 << 1000;
    QTest::newRow("more threads than cores") << 5 << 1000;
    QTest::newRow("one tile") << 3 << 1;
    QTest::newRow("no tile") << 3 << 0;
}

void TestThreadPools::everyTileOnce()
{
    QFETCH(int, threads);
    QFETCH(int, count);
    std::vector<std::atomic<int>> runs(static_cast<std::size_t>(count));
    QVERIFY(forEachTile(count, threads, nullptr, [&](std::int64_t tile) { ++runs[static_cast<std::size_t>(tile)]; }));
    for (int tile = 0; tile < count; ++tile)
        QCOMPARE(runs[static_cast<std::size_t>(tile)].load(), 1);
}

void TestThreadPools::aCancelledCallSkipsTheRest()
{
    std::atomic<bool> cancel {false};
    std::atomic<int> ran {0};
    const bool done = forEachTile(10000, 2, &cancel, [&](std::int64_t) {
        if (++ran == 10)
            cancel = true;
    });
    QVERIFY(!done);
    // The tiles already started when the flag was set finish; no new one starts.
    QVERIFY2(ran.load() < 100, qPrintable(QString::number(ran.load())));
}

void TestThreadPools::aTilesExceptionReachesTheCaller()
{
    std::atomic<int> ran {0};
    bool thrown = false;
    try {
        forEachTile(1000, 2, nullptr, [&](std::int64_t tile) {
            ++ran;
            if (tile == 3)
                throw std::runtime_error("tile 3");
        });
    } catch (const std::runtime_error &error) {
        thrown = QByteArray(error.what()) == "tile 3";
    }
    QVERIFY(thrown);
    // The pool is still usable after the exception.
    QVERIFY(forEachTile(64, 2, nullptr, [](std::int64_t) {}));
}

// A job of the window lowers its thread's priority so that the GUI thread comes first; the
// threads helping it must not run its tiles at a higher one. The pool threads used to be made
// by whichever caller came first: after a caller at nice 0, a nice-5 job's tiles ran at 0.
void TestThreadPools::helpersRunAtTheCallersPriority()
{
#ifdef Q_OS_LINUX
    // Relative to the test's own priority, which a CI runner may have lowered.
    const int base = threadNice();
    const int lower = std::min(base + 5, 19);
    QVERIFY(lower > base);
    TileRecord first;
    recordTiles(first, 2);
    QVERIFY2(first.threads.size() == 2, "no pool thread helped the first caller");
    QCOMPARE(first.nices, std::set<int>({base}));

    TileRecord lowered;
    std::thread job([&] {
        setThreadNice(lower);
        recordTiles(lowered, 2);
    });
    job.join();
    QVERIFY2(lowered.threads.size() == 2, "no pool thread helped the lowered caller");
    QCOMPARE(lowered.nices, std::set<int>({lower}));

    // And the first caller's pool is still at its priority.
    TileRecord again;
    recordTiles(again, 2);
    QCOMPARE(again.nices, std::set<int>({base}));
#else
    QSKIP("thread nice values are Linux's");
#endif
}

// A command's --threads (ThreadsScope) is what 0 threads means on its thread, as M-RoPE's split
// search asks within posenc check's identify step: at 1 every tile runs on the caller's thread.
// Once the scope ends, 0 is the machine's count again, helpers and all.
void TestThreadPools::zeroThreadsAreTheScopesCount()
{
    std::set<std::thread::id> ran;
    std::mutex mutex;
    {
        const ThreadsScope one(1);
        QVERIFY(forEachTile(64, 0, nullptr, [&](std::int64_t) {
            const std::lock_guard lock(mutex);
            ran.insert(std::this_thread::get_id());
        }));
    }
    QCOMPARE(ran, std::set<std::thread::id> {std::this_thread::get_id()});
    if (QThread::idealThreadCount() < 2)
        QSKIP("one core: 0 threads is one thread with or without a scope");
    TileRecord record;
    recordTiles(record, 0);
    QVERIFY(record.threads.size() > 1);
}

POSENC_TEST_GUILESS_MAIN(TestThreadPools)
} // namespace tst_threadpools
#include "tst_threadpools.moc"
