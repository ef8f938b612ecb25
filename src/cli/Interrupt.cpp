#include "Interrupt.h"

namespace posenc {

namespace {

// A lock-free atomic: storing to it is safe in a signal handler.
std::atomic<bool> g_interrupted {false};
static_assert(std::atomic<bool>::is_always_lock_free);

void onInterrupt(int)
{
    g_interrupted.store(true, std::memory_order_relaxed);
}

} // namespace

InterruptCancels::InterruptCancels()
{
    g_interrupted.store(false);
    struct sigaction action
    {
    };
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    // Once: the handler goes back to the default, so a second Ctrl+C ends the process.
    action.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &action, &m_previous);
}

InterruptCancels::~InterruptCancels()
{
    sigaction(SIGINT, &m_previous, nullptr);
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
