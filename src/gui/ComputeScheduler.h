#pragma once

#include "ThreadWakeup.h"

#include <QObject>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace posenc {

// Runs one computation at a time off the GUI thread; the latest request wins.
//
// submit() never queues work: it bumps the generation, cancels the running job (which polls
// its flag between tiles) and keeps only the newest job, started when the old one returns.
// A job hands results to the GUI thread through `publish`; a result whose generation is no
// longer the newest is dropped there, so a stale result is never drawn. The GUI thread
// never waits on a job, except in the destructor, which cancels it first.
class ComputeScheduler : public QObject
{
    Q_OBJECT

public:
    // Called on the GUI thread with the job's result, captured by value.
    using Apply = std::function<void()>;
    using Publish = std::function<void(Apply apply)>;
    using Job = std::function<void(const std::atomic<bool> &cancel, const Publish &publish)>;

    explicit ComputeScheduler(QObject *parent = nullptr);
    ~ComputeScheduler() override;

    void submit(Job job);
    // Cancels the running job and forgets a waiting one.
    void cancelAll();

    // Sleeps in a job's thread until `until`; false at once when the scheduler cancels the job. The
    // flag is read every `poll` too, should another owner set it.
    static bool restUnlessCancelled(const std::atomic<bool> &cancel, std::chrono::steady_clock::time_point until,
                                    std::chrono::milliseconds poll = std::chrono::milliseconds(4));

    quint64 generation() const { return m_generation; }
    bool isIdle() const { return !m_running && !m_pending; }

signals:
    // No job runs and none waits: every submitted request was answered or superseded.
    void idle();

private:
    // A result of a job, or the end of one, on its way to the GUI thread.
    struct Message
    {
        quint64 generation = 0;
        Apply apply; // empty: the job returned
    };

    // Sets the running job's flag and wakes it should it rest (restUnlessCancelled).
    void cancelRunning();
    void startPending();
    void jobFinished();
    // On the job thread: runs each task handed over, one at a time, until the scheduler goes.
    void runTasks();
    void send(Message message);
    // On the GUI thread: the messages in the order they were sent; results still current are
    // applied.
    void receive();

    // The GUI thread's state.
    quint64 m_generation = 0;
    Job m_pending;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_running = false;
    ThreadWakeup *m_wakeup;

    // Shared with the job thread, under m_mutex: the task handed over, and the messages on
    // their way back. Both pass through this std::mutex rather than Qt's thread pool and
    // posted events, so ThreadSanitizer sees the hand-over (Qt's own mutexes are futexes it
    // cannot see).
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::function<void()> m_task;
    bool m_stopping = false;
    std::deque<Message> m_messages;
    std::thread m_thread; // started with the first job, joined by the destructor
};

} // namespace posenc
