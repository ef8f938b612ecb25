#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

namespace posenc {

// Runs fn(0) .. fn(count - 1) on `threads` threads, the caller's among them (0: the machine's
// ideal thread count), or serially in the caller when threads is 1; a set `cancel` skips the
// tiles not yet started. Returns false when cancelled. Every tile's writes are visible to the
// caller when it returns; an exception thrown by a tile is rethrown in the caller.
bool forEachTile(std::int64_t count, int threads, const std::atomic<bool> *cancel,
                 const std::function<void(std::int64_t tile)> &fn);

} // namespace posenc
