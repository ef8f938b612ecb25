#pragma once

#include <QThreadPool>

#include <atomic>
#include <cstdint>
#include <functional>

namespace posenc {

// The pool for a requested thread count: 0 means the machine's, any other number a pool of
// exactly that many threads (kept for the life of the program).
QThreadPool &threadPoolFor(int threads);

// Runs fn(0) .. fn(count - 1), in parallel on threadPoolFor(threads) or serially in the
// caller when threads is 1; a set `cancel` skips the tiles not yet started. Returns false
// when cancelled.
bool forEachTile(std::int64_t count, int threads, const std::atomic<bool> *cancel,
                 const std::function<void(std::int64_t tile)> &fn);

} // namespace posenc
