#include "ComputeScheduler.h"

#include <QThread>

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

} // namespace

ComputeScheduler::ComputeScheduler(QObject *parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1);
    // The pool's thread lives as long as the scheduler: no thread start on every request.
    m_pool.setExpiryTimeout(-1);
}

ComputeScheduler::~ComputeScheduler()
{
    cancelAll();
    m_pool.waitForDone();
}

void ComputeScheduler::submit(Job job)
{
    ++m_generation;
    m_pending = std::move(job);
    if (m_running)
        m_cancel->store(true, std::memory_order_relaxed);
    else
        startPending();
}

void ComputeScheduler::cancelAll()
{
    ++m_generation;
    m_pending = nullptr;
    if (m_cancel)
        m_cancel->store(true, std::memory_order_relaxed);
}

void ComputeScheduler::startPending()
{
    const quint64 generation = m_generation;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    m_running = true;
    Job job = std::move(m_pending);
    m_pending = nullptr;
    // The job only posts to `this`: the destructor waits for it, so `this` outlives it, and
    // Qt discards events still queued for a destroyed object.
    m_pool.start([this, job = std::move(job), generation, cancel] {
        lowerThisThreadsPriority();
        const Publish publish = [this, generation, cancel](Apply apply) {
            if (cancel->load(std::memory_order_relaxed))
                return;
            QMetaObject::invokeMethod(
                this,
                [this, generation, apply = std::move(apply)] {
                    if (generation == m_generation)
                        apply();
                },
                Qt::QueuedConnection);
        };
        job(*cancel, publish);
        QMetaObject::invokeMethod(this, &ComputeScheduler::jobFinished, Qt::QueuedConnection);
    });
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
