#pragma once

#include "ThreadPools.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace posenc {

// Runs compute(tile) -> Partial for tiles 0 .. count - 1 on the pool of `threads`, and hands
// each partial to combine(tile, partial) in tile order, `chunk` tiles at a time: at most
// `chunk` partials are alive at once, and the result of an order-sensitive combination (a
// floating-point sum) does not depend on the thread count. False when cancelled.
template<typename Partial, typename Compute, typename Combine>
bool forEachTileInOrder(std::int64_t count, std::int64_t chunk, int threads, const std::atomic<bool> *cancel,
                        Compute &&compute, Combine &&combine)
{
    chunk = std::max<std::int64_t>(1, chunk);
    for (std::int64_t first = 0; first < count; first += chunk) {
        const std::int64_t n = std::min(chunk, count - first);
        std::vector<Partial> partials(static_cast<std::size_t>(n));
        const bool done = forEachTile(
            n, threads, cancel, [&](std::int64_t t) { partials[static_cast<std::size_t>(t)] = compute(first + t); });
        if (!done)
            return false;
        for (std::int64_t t = 0; t < n; ++t)
            combine(first + t, partials[static_cast<std::size_t>(t)]);
    }
    return true;
}

} // namespace posenc
