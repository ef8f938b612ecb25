#pragma once

#include <QList>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace posenc {

// A curve of the families figure at screen resolution: a point per pixel of the offset axis that
// holds an offset, the least and the most of its offsets' values there (equal where the pixel
// holds one offset, or where the curve is exact at its points: a line, a staircase).
struct FamilyCurve
{
    QList<double> offset, lo, hi;
};

// The offsets k = j - q of one query's keys that a linear axis of `pixels` pixels shows, grouped
// by pixel (docs/ARCHITECTURE.md, "Exact at any size").
struct OffsetPixels
{
    std::int64_t first = 0; // the first offset in view
    std::int64_t last = -1; // the last, inclusive (last < first: none in view)
    // Each pixel's first offset; a pixel holds the offsets up to the next one's first.
    std::vector<std::int64_t> starts;

    // The offsets in view of a query at `query` in a table of `maxLen` keys: [-query, maxLen - 1
    // - query] within [lower, upper].
    static OffsetPixels of(std::int64_t query, std::int64_t maxLen, double lower, double upper, int pixels);
    std::int64_t count() const { return last >= first ? last - first + 1 : 0; }
    std::int64_t end(std::size_t pixel) const { return pixel + 1 < starts.size() ? starts[pixel + 1] - 1 : last; }

    friend bool operator==(const OffsetPixels &, const OffsetPixels &) = default;
};

// The curves of oscillating sums over the offsets, each pixel's least and most of its offsets.
namespace FamilyCurves {

// Evaluations (offsets times frequencies) a sum over every offset in view may take in full detail
// (about a quarter of a second on one core), and in a preview; past them each pixel takes an even
// sample of its offsets, its first and last among them, and offset 0 where it holds it.
constexpr std::int64_t kMaxEvaluations = std::int64_t(1) << 24;
constexpr std::int64_t kPreviewEvaluations = std::int64_t(1) << 20;

// sum_i cos(k w_i) * scale + constant, plus extra(k) when given, over the offsets of `pixels`:
// every offset while offsets x frequencies stay within `budget` (turned by an anchored rotation,
// re-anchored every 256 offsets), else `sampled` is set to the offsets taken a pixel, and the pixel
// that holds offset 0 (the query, marked on the axis, where every cosine is 1: the sum's extreme)
// takes it too, its value exact. Nothing when cancelled.
std::optional<FamilyCurve> cosineSum(const OffsetPixels &pixels, const std::vector<double> &w, double scale,
                                     double constant, const std::function<double(std::int64_t)> &extra,
                                     std::int64_t budget, std::int64_t *sampled, const std::atomic<bool> *cancel);

// A function of the offset with few values (a bucket) as exact steps: the first offset of each
// run and its value, then the last offset again.
FamilyCurve steps(const OffsetPixels &pixels, const std::function<double(std::int64_t)> &f);

} // namespace FamilyCurves

} // namespace posenc
