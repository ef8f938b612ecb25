#pragma once

#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>

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

    quint64 generation() const { return m_generation; }
    bool isIdle() const { return !m_running && !m_pending; }

signals:
    // No job runs and none waits: every submitted request was answered or superseded.
    void idle();

private:
    void startPending();
    void jobFinished();

    QThreadPool m_pool;
    quint64 m_generation = 0;
    Job m_pending;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_running = false;
};

} // namespace posenc
