#include "ThreadPools.h"

#include <QThread>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace posenc {

namespace {

// Threads that take the tiles of every forEachTile in progress; several callers may run at
// once (each view computes in its own job), and each caller works on its own tiles too.
//
// Tiles are handed over and joined through std::mutex and std::condition_variable only, which
// ThreadSanitizer sees (QtConcurrent's hand-over and join go through Qt's futex-based mutex,
// which it cannot see): every tile's writes happen before the caller's reads after the join,
// and a race between tiles is a report of a real race, not noise hiding one.
class TilePool
{
public:
    explicit TilePool(int workers)
    {
        for (int i = 0; i < workers; ++i)
            m_threads.emplace_back([this] { work(); });
    }

    ~TilePool()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        m_wake.notify_all();
        for (std::thread &thread : m_threads)
            thread.join();
    }

    // fn(0) .. fn(count - 1) on the pool's threads and the caller's; returns when all are done.
    // An exception thrown by a tile skips the tiles not yet started and is rethrown here.
    void run(std::int64_t count, const std::function<void(std::int64_t)> &fn)
    {
        Job job {&fn, count};
        {
            const std::lock_guard lock(m_mutex);
            m_jobs.push_back(&job);
        }
        m_wake.notify_all();
        const std::int64_t mine = drain(job);
        std::unique_lock lock(m_mutex);
        job.finished += mine;
        // Out of the list, no thread starts on the job any more; the helpers it has finish.
        m_jobs.erase(std::find(m_jobs.begin(), m_jobs.end(), &job));
        m_done.wait(lock, [&job] { return job.finished == job.count && job.helpers == 0; });
        if (job.error)
            std::rethrow_exception(job.error);
    }

private:
    struct Job
    {
        Job(const std::function<void(std::int64_t)> *f, std::int64_t n)
            : fn(f)
            , count(n)
        { }

        const std::function<void(std::int64_t)> *fn;
        std::int64_t count;
        std::atomic<std::int64_t> next {0};
        // Under m_mutex:
        std::int64_t finished = 0; // tiles done or skipped
        int helpers = 0; // pool threads working on it
        std::exception_ptr error;
    };

    // Takes tiles until none is left; returns how many this thread took.
    std::int64_t drain(Job &job)
    {
        std::int64_t taken = 0;
        for (std::int64_t tile; (tile = job.next.fetch_add(1, std::memory_order_relaxed)) < job.count;) {
            ++taken;
            try {
                (*job.fn)(tile);
            } catch (...) {
                const std::lock_guard lock(m_mutex);
                if (!job.error)
                    job.error = std::current_exception();
                // The tiles nobody took count as done: skipped.
                const std::int64_t rest = job.next.exchange(job.count, std::memory_order_relaxed);
                job.finished += std::max<std::int64_t>(0, job.count - rest);
            }
        }
        return taken;
    }

    Job *openJob() const
    {
        for (Job *job : m_jobs) {
            if (job->next.load(std::memory_order_relaxed) < job->count)
                return job;
        }
        return nullptr;
    }

    void work()
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            Job *job = nullptr;
            m_wake.wait(lock, [&] { return m_stopping || (job = openJob()) != nullptr; });
            if (!job)
                return;
            ++job->helpers;
            lock.unlock();
            const std::int64_t taken = drain(*job);
            lock.lock();
            job->finished += taken;
            --job->helpers;
            m_done.notify_all();
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake; // a job arrived, or the pool stops
    std::condition_variable m_done; // a helper left a job
    std::vector<Job *> m_jobs;
    bool m_stopping = false;
    std::vector<std::thread> m_threads;
};

// The calling thread's nice value. Linux gives every thread its own, and a new thread takes
// its creator's: the window's jobs lower theirs so that the GUI thread comes first
// (docs/ARCHITECTURE.md, "Background work"), and the threads helping a job must run no higher.
int callersNice()
{
#ifdef Q_OS_LINUX
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
    return errno == 0 ? nice : 0;
#else
    return 0;
#endif
}

thread_local int t_scopeThreads = 0; // ThreadsScope's count on this thread; 0: none

// The pool for a thread count and a caller's nice value: that many threads with the caller,
// created by the first such caller, so at its priority (an unprivileged thread may lower its
// priority but never raise it back), and kept for the program's life.
TilePool &poolFor(int threads)
{
    static std::mutex mutex;
    static std::map<std::pair<int, int>, std::unique_ptr<TilePool>> pools;
    const std::lock_guard lock(mutex);
    auto &pool = pools[{threads, callersNice()}];
    if (!pool)
        pool = std::make_unique<TilePool>(threads - 1);
    return *pool;
}

} // namespace

ThreadsScope::ThreadsScope(int threads)
    : m_previous(t_scopeThreads)
{
    t_scopeThreads = threads;
}

ThreadsScope::~ThreadsScope()
{
    t_scopeThreads = m_previous;
}

bool forEachTile(std::int64_t count, int threads, const std::atomic<bool> *cancel,
                 const std::function<void(std::int64_t tile)> &fn)
{
    const auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    const int fallback = t_scopeThreads > 0 ? t_scopeThreads : std::max(1, QThread::idealThreadCount());
    const int workers = threads > 0 ? threads : fallback;
    if (workers == 1 || count <= 1) {
        for (std::int64_t tile = 0; tile < count; ++tile) {
            if (!cancelled())
                fn(tile);
        }
    } else {
        poolFor(workers).run(count, [&](std::int64_t tile) {
            if (!cancelled())
                fn(tile);
        });
    }
    return !cancelled();
}

} // namespace posenc
