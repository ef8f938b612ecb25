#include "Interrupt.h"

#include <mutex>

namespace posenc {

namespace {

// A lock-free atomic: storing to it is safe in a signal handler.
std::atomic<bool> g_interrupted {false};
static_assert(std::atomic<bool>::is_always_lock_free);

void onInterrupt(int)
{
    g_interrupted.store(true, std::memory_order_relaxed);
}

// The commands that run at once (the Python module's calls on several threads) share one
// installation: the first installs the handler, the last gives back the one from before them, so
// that calls ending in any order never leave posenc's installed (Python's KeyboardInterrupt).
std::mutex g_mutex;
int g_users = 0;
struct sigaction g_previous
{
};

} // namespace

InterruptCancels::InterruptCancels()
{
    const std::lock_guard lock(g_mutex);
    if (g_users++ > 0)
        return;
    g_interrupted.store(false);
    struct sigaction action
    {
    };
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    // Once: the handler goes back to the default, so a second Ctrl+C ends the process.
    action.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &action, &g_previous);
}

InterruptCancels::~InterruptCancels()
{
    const std::lock_guard lock(g_mutex);
    if (--g_users == 0)
        sigaction(SIGINT, &g_previous, nullptr);
}

const std::atomic<bool> *InterruptCancels::flag() const
{
    return &g_interrupted;
}

bool InterruptCancels::interrupted() const
{
    return g_interrupted.load();
}

} // namespace posenc
