#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

namespace posenc {

// Runs fn(0) .. fn(count - 1) on `threads` threads, the caller's among them (0: the caller's
// ThreadsScope, else the machine's ideal thread count), or serially in the caller when threads
// is 1; a set `cancel` skips the
// tiles not yet started. Returns false when cancelled. Every tile's writes are visible to the
// caller when it returns; an exception thrown by a tile is rethrown in the caller.
bool forEachTile(std::int64_t count, int threads, const std::atomic<bool> *cancel,
                 const std::function<void(std::int64_t tile)> &fn);

// What 0 threads means to forEachTile on the thread that makes this scope, while it lives: a
// command's --threads for the work that asks for no count of its own (posenc check's identify
// step). 0 keeps the machine's ideal count.
class ThreadsScope
{
public:
    explicit ThreadsScope(int threads);
    ~ThreadsScope();
    ThreadsScope(const ThreadsScope &) = delete;
    ThreadsScope &operator=(const ThreadsScope &) = delete;

private:
    int m_previous;
};

} // namespace posenc
