#include "ThreadWakeup.h"

#include <QSocketNotifier>

#ifdef Q_OS_LINUX
#include <sys/eventfd.h>
#include <unistd.h>
#endif

#include <cstdint>

namespace posenc {

ThreadWakeup::ThreadWakeup(QObject *parent)
    : QObject(parent)
{
#ifdef Q_OS_LINUX
    m_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_fd >= 0) {
        m_notifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, &ThreadWakeup::drain);
    }
#endif
}

ThreadWakeup::~ThreadWakeup()
{
#ifdef Q_OS_LINUX
    delete m_notifier;
    if (m_fd >= 0)
        close(m_fd);
#endif
}

void ThreadWakeup::wake()
{
#ifdef Q_OS_LINUX
    if (m_fd >= 0) {
        const std::uint64_t one = 1;
        // A full counter (2^64 - 2 wakes not yet drained) cannot happen; a failed write
        // would only mean a wake-up already pending.
        [[maybe_unused]] const ssize_t written = write(m_fd, &one, sizeof one);
        return;
    }
#endif
    QMetaObject::invokeMethod(this, &ThreadWakeup::drain, Qt::QueuedConnection);
}

void ThreadWakeup::drain()
{
#ifdef Q_OS_LINUX
    if (m_fd >= 0) {
        std::uint64_t count = 0;
        [[maybe_unused]] const ssize_t read = ::read(m_fd, &count, sizeof count);
    }
#endif
    emit woken();
}

} // namespace posenc
