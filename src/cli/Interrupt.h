#pragma once

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
