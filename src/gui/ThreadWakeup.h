#pragma once

#include <QObject>

class QSocketNotifier;

namespace posenc {

// Wakes the thread that owns it from any other thread: wake() may be called anywhere, and
// woken() is emitted on the owner's thread, once for one or several wake() calls.
//
// On Linux wake() only writes to an eventfd that the owner's event loop watches, so the
// waking thread touches no Qt object. A posted event would do the same job, but Qt's
// posted-event queue is guarded by a futex that ThreadSanitizer cannot see, and every
// posted call would then be a report; the data itself travels beside this (under a
// std::mutex), never in it.
class ThreadWakeup : public QObject
{
    Q_OBJECT

public:
    explicit ThreadWakeup(QObject *parent = nullptr);
    ~ThreadWakeup() override;

    void wake();

signals:
    void woken();

private:
    void drain();

    int m_fd = -1;
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace posenc
