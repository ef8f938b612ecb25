#pragma once

#include <QByteArray>

#include <atomic>
#include <csignal>

namespace posenc {

// Ctrl+C during a command's long work (docs/ARCHITECTURE.md, Command line): while one of these
// lives, the first SIGINT only sets `flag()`, which the work polls between tiles; the command
// then stops, writes nothing and exits 130. A second SIGINT ends the process at once, as
// without it. The handler it replaced comes back when the last one that lives at once is
// destroyed, whatever order they end in (calls of the Python module on several threads).
class InterruptCancels
{
public:
    InterruptCancels();
    ~InterruptCancels();
    InterruptCancels(const InterruptCancels &) = delete;
    InterruptCancels &operator=(const InterruptCancels &) = delete;

    const std::atomic<bool> *flag() const;
    bool interrupted() const;
};

} // namespace posenc

namespace posenc {

// A scratch file that a signal ending the process must not leave behind (posenc bench writes
// tables of gigabytes to a temporary directory): while one of these lives, SIGTERM, SIGHUP and
// SIGINT first remove the file and its directory, then end the process as they would have. One
// lives at a time; an InterruptCancels made inside it takes SIGINT over for its span and gives it
// back.
class RemovedIfKilled
{
public:
    RemovedIfKilled(const QByteArray &file, const QByteArray &directory);
    ~RemovedIfKilled();
    RemovedIfKilled(const RemovedIfKilled &) = delete;
    RemovedIfKilled &operator=(const RemovedIfKilled &) = delete;
};

} // namespace posenc
