#include "ThreadPools.h"

#include <QMutex>
#include <QtConcurrent/QtConcurrentMap>

#include <map>
#include <memory>
#include <numeric>
#include <vector>

namespace posenc {

QThreadPool &threadPoolFor(int threads)
{
    if (threads <= 0)
        return *QThreadPool::globalInstance();
    static QMutex mutex;
    static std::map<int, std::unique_ptr<QThreadPool>> pools;
    QMutexLocker lock(&mutex);
    auto &pool = pools[threads];
    if (!pool) {
        pool = std::make_unique<QThreadPool>();
        pool->setMaxThreadCount(threads);
    }
    return *pool;
}

bool forEachTile(std::int64_t count, int threads, const std::atomic<bool> *cancel,
                 const std::function<void(std::int64_t tile)> &fn)
{
    const auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    const auto run = [&](std::int64_t tile) {
        if (!cancelled())
            fn(tile);
    };
    if (threads == 1 || count <= 1) {
        for (std::int64_t tile = 0; tile < count; ++tile)
            run(tile);
    } else {
        std::vector<std::int64_t> tiles(static_cast<std::size_t>(count));
        std::iota(tiles.begin(), tiles.end(), std::int64_t(0));
        QtConcurrent::blockingMap(&threadPoolFor(threads), tiles, run);
    }
    return !cancelled();
}

} // namespace posenc
