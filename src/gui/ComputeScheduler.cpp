#include "ComputeScheduler.h"

#include <QThread>

#include <utility>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace posenc {

namespace {

// Jobs yield the processor to the GUI thread: on Linux, whose thread priorities do nothing
// for ordinary threads, the job's thread gets nice 5 (a third of the GUI thread's weight).
// Measured with the interaction benchmark on a loaded 2-core machine: nice 0 let the GUI
// thread stall 100 ms; nice 10 starved the jobs behind other processes (p95 doubled);
// SCHED_IDLE would stop them altogether on a busy machine.
constexpr int kJobNice = 5;
void lowerThisThreadsPriority()
{
#ifdef Q_OS_LINUX
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kJobNice);
#else
    QThread::currentThread()->setPriority(QThread::LowPriority);
#endif
}

// What resting jobs wait on: a cancellation wakes them at once. A job that only polled its flag,
// every 4 ms, took up to as long to give way to its view's next request (docs/ARCHITECTURE.md,
// Background work). Never destroyed: a job may rest while the program exits.
struct RestWakeups
{
    std::mutex mutex;
    std::condition_variable woken;
};

RestWakeups &restWakeups()
{
    static RestWakeups *instance = new RestWakeups;
    return *instance;
}

} // namespace

bool ComputeScheduler::restUnlessCancelled(const std::atomic<bool> &cancel, std::chrono::steady_clock::time_point until,
                                           std::chrono::milliseconds poll)
{
    // Flags set by others than a scheduler wake no one: they are seen within a poll.
    RestWakeups &r = restWakeups();
    std::unique_lock lock(r.mutex);
    // Until the clock says so: counted in steps slept, a rest on a busy machine (each wake-up late)
    // lasted half as long again.
    for (auto now = std::chrono::steady_clock::now(); now < until; now = std::chrono::steady_clock::now()) {
        if (cancel.load(std::memory_order_relaxed))
            return false;
        r.woken.wait_until(lock, std::min(until, now + poll));
    }
    return !cancel.load(std::memory_order_relaxed);
}

void ComputeScheduler::cancelRunning()
{
    if (!m_cancel)
        return;
    RestWakeups &r = restWakeups();
    {
        // Set under the wake-ups' mutex: a job between reading its flag and waiting cannot miss it.
        const std::lock_guard lock(r.mutex);
        m_cancel->store(true, std::memory_order_relaxed);
    }
    r.woken.notify_all();
}

ComputeScheduler::ComputeScheduler(QObject *parent)
    : QObject(parent)
    , m_wakeup(new ThreadWakeup(this))
{
    connect(m_wakeup, &ThreadWakeup::woken, this, &ComputeScheduler::receive);
}

ComputeScheduler::~ComputeScheduler()
{
    cancelAll();
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    // The running job polls its cancel flag between tiles, so this wait is short. What it
    // still sends is never received.
    if (m_thread.joinable())
        m_thread.join();
}

void ComputeScheduler::submit(Job job)
{
    ++m_generation;
    m_pending = std::move(job);
    if (m_running)
        cancelRunning();
    else
        startPending();
}

void ComputeScheduler::cancelAll()
{
    ++m_generation;
    m_pending = nullptr;
    cancelRunning();
}

void ComputeScheduler::startPending()
{
    const quint64 generation = m_generation;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    m_running = true;
    Job job = std::move(m_pending);
    m_pending = nullptr;
    // The task only touches `this` through m_mutex and m_wakeup: the destructor joins the job
    // thread, so `this` outlives it.
    auto task = [this, job = std::move(job), generation, cancel] {
        const Publish publish = [this, generation, cancel](Apply apply) {
            if (!cancel->load(std::memory_order_relaxed))
                send({generation, std::move(apply)});
        };
        job(*cancel, publish);
        send({generation, nullptr});
    };
    {
        const std::lock_guard lock(m_mutex);
        m_task = std::move(task);
    }
    if (m_thread.joinable())
        m_wake.notify_one();
    else
        m_thread = std::thread([this] { runTasks(); });
}

void ComputeScheduler::runTasks()
{
    lowerThisThreadsPriority();
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stopping || m_task; });
        if (!m_task)
            return;
        const std::function<void()> task = std::move(m_task);
        m_task = nullptr;
        lock.unlock();
        task();
        lock.lock();
    }
}

void ComputeScheduler::send(Message message)
{
    {
        const std::lock_guard lock(m_mutex);
        m_messages.push_back(std::move(message));
    }
    m_wakeup->wake();
}

void ComputeScheduler::receive()
{
    std::deque<Message> messages;
    {
        const std::lock_guard lock(m_mutex);
        messages.swap(m_messages);
    }
    for (const Message &message : messages) {
        if (!message.apply)
            jobFinished();
        else if (message.generation == m_generation)
            message.apply();
    }
}

void ComputeScheduler::jobFinished()
{
    m_running = false;
    if (m_pending)
        startPending();
    else
        emit idle();
}

} // namespace posenc
