#include "BenchTiming.h"

#include "core/StreamStore.h"
#include "core/ThreadPools.h"

#include <QElapsedTimer>
#include <QThread>

#include <algorithm>
#include <cstring>
#include <utility>

namespace posenc::BenchTiming {

namespace {

Timing summarize(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    return {ms.front(), ms[ms.size() / 2]};
}

double elapsedMs(const std::function<void()> &run)
{
    QElapsedTimer timer;
    timer.start();
    run();
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

// Rows [0, rows) cut into four parts a thread, fn(r0, r1) on each part, the threads sharing them.
template<class Fn> void forEachRowRange(std::int64_t rows, int threads, const Fn &fn)
{
    const std::int64_t parts = std::int64_t(std::max(1, threads > 0 ? threads : QThread::idealThreadCount())) * 4;
    forEachTile(parts, threads, nullptr,
                [&](std::int64_t part) { fn(rows * part / parts, rows * (part + 1) / parts); });
}

} // namespace

Timing timeIt(int repeats, const std::function<void()> &run)
{
    run(); // warm-up: page faults, thread start, caches
    std::vector<double> ms;
    for (int i = 0; i < repeats; ++i)
        ms.push_back(elapsedMs(run));
    return summarize(std::move(ms));
}

std::vector<Timing> timeInterleaved(int repeats, const std::vector<std::function<void()>> &runs)
{
    for (const auto &run : runs)
        run(); // warm-up
    std::vector<std::vector<double>> ms(runs.size());
    for (int i = 0; i < repeats; ++i) {
        for (std::size_t r = 0; r < runs.size(); ++r)
            ms[r].push_back(elapsedMs(runs[r]));
    }
    std::vector<Timing> timings;
    for (auto &samples : ms)
        timings.push_back(summarize(std::move(samples)));
    return timings;
}

double gbps(std::int64_t cells, double ms)
{
    return static_cast<double>(cells) * sizeof(float) / (ms * 1e6);
}

void plainFill(RowMatrixXf &buffer, int threads, bool streaming)
{
    forEachRowRange(buffer.rows(), threads, [&](std::int64_t r0, std::int64_t r1) {
        if (streaming)
            streamFill(buffer.row(r0).data(), 1.0f, (r1 - r0) * buffer.cols());
        else
            std::fill_n(buffer.row(r0).data(), (r1 - r0) * buffer.cols(), 1.0f);
    });
    if (streaming)
        streamFence();
}

void plainCopy(RowMatrixXf &to, const RowMatrixXf &from, int threads, bool streaming)
{
    forEachRowRange(to.rows(), threads, [&](std::int64_t r0, std::int64_t r1) {
        const std::int64_t count = (r1 - r0) * to.cols();
        if (streaming)
            streamCopy(to.row(r0).data(), from.row(r0).data(), count);
        else
            std::memcpy(to.row(r0).data(), from.row(r0).data(), static_cast<std::size_t>(count) * sizeof(float));
    });
    if (streaming)
        streamFence();
}

} // namespace posenc::BenchTiming
