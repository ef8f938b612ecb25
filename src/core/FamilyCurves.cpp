#include "FamilyCurves.h"

#include "DiagonalRuns.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posenc {

OffsetPixels OffsetPixels::of(std::int64_t query, std::int64_t maxLen, double lower, double upper, int pixels)
{
    OffsetPixels result;
    const double lo = std::max(std::ceil(lower), static_cast<double>(-query));
    const double hi = std::min(std::floor(upper), static_cast<double>(maxLen - 1 - query));
    if (!(hi >= lo))
        return result;
    result.first = static_cast<std::int64_t>(lo);
    result.last = static_cast<std::int64_t>(hi);
    const int n = std::max(pixels, 1);
    const double width = (upper - lower) / n;
    for (std::int64_t k = result.first; k <= result.last;) {
        result.starts.push_back(k);
        // The first offset of the next pixel: past the right edge of k's pixel.
        const double pixel = std::floor((static_cast<double>(k) - lower) / width);
        const double edge = lower + (pixel + 1.0) * width;
        k = std::max(k + 1, static_cast<std::int64_t>(std::ceil(edge)));
    }
    return result;
}

namespace FamilyCurves {

namespace {

constexpr std::int64_t kOffsetChunk = 4096;
constexpr std::int64_t kRotationAnchor = 256;

void widenPixel(FamilyCurve &curve, std::size_t pixel, double value, bool first)
{
    if (first) {
        curve.lo[static_cast<qsizetype>(pixel)] = value;
        curve.hi[static_cast<qsizetype>(pixel)] = value;
        return;
    }
    curve.lo[static_cast<qsizetype>(pixel)] = std::min(curve.lo[static_cast<qsizetype>(pixel)], value);
    curve.hi[static_cast<qsizetype>(pixel)] = std::max(curve.hi[static_cast<qsizetype>(pixel)], value);
}

double directCosineSum(std::int64_t k, const std::vector<double> &w)
{
    double sum = 0.0;
    const auto offset = static_cast<double>(k);
    for (const double frequency : w)
        sum += std::cos(offset * frequency);
    return sum;
}

} // namespace

std::optional<FamilyCurve> cosineSum(const OffsetPixels &pixels, const std::vector<double> &w, double scale,
                                     double constant, const std::function<double(std::int64_t)> &extra,
                                     std::int64_t budget, std::int64_t *sampled, const std::atomic<bool> *cancel)
{
    FamilyCurve curve;
    const std::size_t groups = pixels.starts.size();
    curve.offset.resize(static_cast<qsizetype>(groups));
    curve.lo.resize(static_cast<qsizetype>(groups));
    curve.hi.resize(static_cast<qsizetype>(groups));
    for (std::size_t g = 0; g < groups; ++g)
        curve.offset[static_cast<qsizetype>(g)] = 0.5 * static_cast<double>(pixels.starts[g] + pixels.end(g));
    const auto value = [&](std::int64_t k, double sum) { return sum * scale + constant + (extra ? extra(k) : 0.0); };
    const auto frequencies = std::max<std::int64_t>(static_cast<std::int64_t>(w.size()), 1);
    if (sampled)
        *sampled = 0;
    if (pixels.count() * frequencies <= budget) {
        // Every offset, a chunk at a time: each frequency's rotation e^(i k w) turned offset by offset.
        std::vector<double> sums(static_cast<std::size_t>(kOffsetChunk));
        std::size_t g = 0;
        for (std::int64_t c0 = pixels.first; c0 <= pixels.last; c0 += kOffsetChunk) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return std::nullopt;
            const std::int64_t m = std::min(kOffsetChunk, pixels.last - c0 + 1);
            std::fill(sums.begin(), sums.begin() + m, 0.0);
            for (const double frequency : w) {
                const double stepCos = std::cos(frequency), stepSin = std::sin(frequency);
                double re = 0.0, im = 0.0;
                for (std::int64_t t = 0; t < m; ++t) {
                    if (t % kRotationAnchor == 0) {
                        const double angle = static_cast<double>(c0 + t) * frequency;
                        re = std::cos(angle);
                        im = std::sin(angle);
                    }
                    sums[static_cast<std::size_t>(t)] += re;
                    const double next = re * stepCos - im * stepSin;
                    im = re * stepSin + im * stepCos;
                    re = next;
                }
            }
            for (std::int64_t t = 0; t < m; ++t) {
                const std::int64_t k = c0 + t;
                while (g + 1 < groups && pixels.starts[g + 1] <= k)
                    ++g;
                widenPixel(curve, g, value(k, sums[static_cast<std::size_t>(t)]), k == pixels.starts[g]);
            }
        }
        return curve;
    }
    // An even sample of each pixel's offsets at a fixed stride from its first, and its last: the
    // stride's rotation turns each frequency from one sample to the next.
    const std::int64_t perPixel = std::max<std::int64_t>(
        2, budget / (frequencies * std::max<std::int64_t>(static_cast<std::int64_t>(groups), 1)));
    if (sampled)
        *sampled = perPixel;
    std::vector<double> sums;
    for (std::size_t g = 0; g < groups; ++g) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return std::nullopt;
        const std::int64_t a = pixels.starts[g], b = pixels.end(g);
        const std::int64_t count = b - a + 1;
        const std::int64_t taken = std::min(count, perPixel);
        const std::int64_t stride = taken > 1 ? std::max<std::int64_t>(1, (count - 1) / (taken - 1)) : 1;
        sums.assign(static_cast<std::size_t>(taken), 0.0);
        for (const double frequency : w) {
            const double stepCos = std::cos(static_cast<double>(stride) * frequency);
            const double stepSin = std::sin(static_cast<double>(stride) * frequency);
            double re = 0.0, im = 0.0;
            for (std::int64_t t = 0; t < taken; ++t) {
                if (t % kRotationAnchor == 0) {
                    const double angle = static_cast<double>(a + t * stride) * frequency;
                    re = std::cos(angle);
                    im = std::sin(angle);
                }
                sums[static_cast<std::size_t>(t)] += re;
                const double next = re * stepCos - im * stepSin;
                im = re * stepSin + im * stepCos;
                re = next;
            }
        }
        for (std::int64_t t = 0; t < taken; ++t)
            widenPixel(curve, g, value(a + t * stride, sums[static_cast<std::size_t>(t)]), t == 0);
        if (a + (taken - 1) * stride != b)
            widenPixel(curve, g, value(b, directCosineSum(b, w)), false);
    }
    return curve;
}

FamilyCurve steps(const OffsetPixels &pixels, const std::function<double(std::int64_t)> &f)
{
    FamilyCurve curve;
    if (pixels.count() == 0)
        return curve;
    for (const DiagonalRun &run : DiagonalRuns::runs(pixels.first, pixels.last, f)) {
        curve.offset.append(static_cast<double>(run.first));
        curve.lo.append(run.value);
    }
    curve.offset.append(static_cast<double>(pixels.last));
    curve.lo.append(curve.lo.back());
    curve.hi = curve.lo;
    return curve;
}

} // namespace FamilyCurves

} // namespace posenc
