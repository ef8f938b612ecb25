#include "Interrupt.h"

#include <cstring>
#include <mutex>

#include <unistd.h>

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

namespace {

// Paths a signal handler can use: fixed buffers, written before the handlers go in.
char g_scratchFile[4096];
char g_scratchDirectory[4096];
constexpr int kScratchSignals[] {SIGTERM, SIGHUP, SIGINT};
struct sigaction g_scratchPrevious[std::size(kScratchSignals)];

void onScratchSignal(int signal)
{
    // unlink, rmdir, sigaction and raise are async-signal-safe.
    if (g_scratchFile[0] != 0)
        unlink(g_scratchFile);
    if (g_scratchDirectory[0] != 0)
        rmdir(g_scratchDirectory);
    for (std::size_t i = 0; i < std::size(kScratchSignals); ++i)
        if (kScratchSignals[i] == signal)
            sigaction(signal, &g_scratchPrevious[i], nullptr);
    raise(signal);
}

void copyPath(char (&into)[4096], const QByteArray &path)
{
    const std::size_t n = path.size() < qsizetype(sizeof into) ? std::size_t(path.size()) : 0;
    std::memcpy(into, path.constData(), n);
    into[n] = 0;
}

} // namespace

RemovedIfKilled::RemovedIfKilled(const QByteArray &file, const QByteArray &directory)
{
    copyPath(g_scratchFile, file);
    copyPath(g_scratchDirectory, directory);
    struct sigaction action
    {
    };
    action.sa_handler = onScratchSignal;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < std::size(kScratchSignals); ++i)
        sigaction(kScratchSignals[i], &action, &g_scratchPrevious[i]);
}

RemovedIfKilled::~RemovedIfKilled()
{
    for (std::size_t i = 0; i < std::size(kScratchSignals); ++i)
        sigaction(kScratchSignals[i], &g_scratchPrevious[i], nullptr);
    g_scratchFile[0] = 0;
    g_scratchDirectory[0] = 0;
}

} // namespace posenc
