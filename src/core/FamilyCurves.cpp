#include "FamilyCurves.h"

#include "DiagonalRuns.h"
#include "RotationSimd.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

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
// A sampled curve's pixels take their first offset's rotation from the pixel before, and an
// anchor of their own every this many pixels: a sine and a cosine per frequency and pixel were
// most of a preview's time. 64 turned products drift by about 64 units in the last place, 1e-14 of
// each cosine (tst_familycurves holds the sums to 1e-11 a frequency); at every 16 pixels the anchors
// were still half of the sinusoid panel's preview (512 frequencies over 600 pixels).
constexpr std::size_t kPixelAnchor = 64;

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

// cos and sin of each frequency times a number: the rotation of one step, or an anchor.
struct Turns
{
    std::vector<double> cos, sin;

    void of(double times, const std::vector<double> &w)
    {
        cos.resize(w.size());
        sin.resize(w.size());
        for (std::size_t i = 0; i < w.size(); ++i) {
            // One angle, read by both: the compiler takes its sine and cosine in one call (sincos),
            // where the two products, stored apart, cost a call each.
            const double angle = times * w[i];
            const double c = std::cos(angle), s = std::sin(angle);
            cos[i] = c;
            sin[i] = s;
        }
    }
};

// Adds sum_i cos((a + t stride) w_i) to sums[t] for t < count, each frequency's rotation
// e^(i stride w) (`step`) turned sample by sample from e^(i a w) (`first`), anchored again every
// kRotationAnchor samples: the frequencies side by side in the CPU's vectors (RotationSimd, the
// same bits on every SIMD target), a sample at a time. Turned four frequencies at a time in scalar
// code, one after another within each sum, a sampled preview of the families figure took 4.5 ms of
// one core at DeBERTa's 65,536 positions (docs/PERFORMANCE.md, The window's views).
void addCosines(double *sums, std::int64_t count, std::int64_t a, std::int64_t stride, const std::vector<double> &w,
                const Turns &step, const Turns &first)
{
    thread_local Turns now;
    now.cos.assign(first.cos.begin(), first.cos.end());
    now.sin.assign(first.sin.begin(), first.sin.end());
    for (std::int64_t t0 = 0; t0 < count; t0 += kRotationAnchor) {
        if (t0 > 0)
            now.of(static_cast<double>(a + t0 * stride), w);
        RotationSimd::turnAndSum(now.cos.data(), now.sin.data(), step.cos.data(), step.sin.data(), w.size(),
                                 std::min(kRotationAnchor, count - t0), sums + t0);
    }
}

// The rotations of a few whole numbers of offsets, each taken once: the pixels' strides and widths
// take two or three values (a width of 312 or 313 offsets), which alternate from pixel to pixel,
// and taking one anew at every change was a sine and a cosine per frequency and pixel, most of a
// preview's time. The same turns, bit for bit, as taken at each pixel.
class TurnsMemo
{
public:
    const Turns &of(std::int64_t times, const std::vector<double> &w)
    {
        for (const auto &[kept, turns] : m_kept) {
            if (kept == times)
                return turns;
        }
        constexpr std::size_t kKept = 8;
        if (m_kept.size() >= kKept)
            m_kept.erase(m_kept.begin());
        m_kept.emplace_back(times, Turns {});
        m_kept.back().second.of(static_cast<double>(times), w);
        return m_kept.back().second;
    }

private:
    std::vector<std::pair<std::int64_t, Turns>> m_kept;
};

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
        Turns step, first;
        step.of(1.0, w);
        for (std::int64_t c0 = pixels.first; c0 <= pixels.last; c0 += kOffsetChunk) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return std::nullopt;
            const std::int64_t m = std::min(kOffsetChunk, pixels.last - c0 + 1);
            std::fill(sums.begin(), sums.begin() + m, 0.0);
            first.of(static_cast<double>(c0), w);
            addCosines(sums.data(), m, c0, 1, w, step, first);
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
    // The pixels' strides take a few values: each one's rotation is taken once. Each pixel's first
    // offset anchors its rotations: turned by the pixel's width from the last anchor, anchored
    // anew every kPixelAnchor pixels, and turned back by one offset it gives the last offset of
    // the pixel before it.
    std::vector<double> sums;
    Turns first, next, back;
    TurnsMemo strides, widths;
    back.of(1.0, w);
    if (groups > 0)
        first.of(static_cast<double>(pixels.starts[0]), w);
    for (std::size_t g = 0; g < groups; ++g) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return std::nullopt;
        const std::int64_t a = pixels.starts[g], b = pixels.end(g);
        const std::int64_t count = b - a + 1;
        const std::int64_t taken = std::min(count, perPixel);
        const std::int64_t stride = taken > 1 ? std::max<std::int64_t>(1, (count - 1) / (taken - 1)) : 1;
        sums.assign(static_cast<std::size_t>(taken), 0.0);
        addCosines(sums.data(), taken, a, stride, w, strides.of(stride, w), first);
        for (std::int64_t t = 0; t < taken; ++t)
            widenPixel(curve, g, value(a + t * stride, sums[static_cast<std::size_t>(t)]), t == 0);
        if (g + 1 < groups && (g + 1) % kPixelAnchor == 0) {
            next.of(static_cast<double>(pixels.starts[g + 1]), w);
        } else if (g + 1 < groups) {
            const Turns &width = widths.of(count, w);
            next.cos.assign(first.cos.begin(), first.cos.end());
            next.sin.assign(first.sin.begin(), first.sin.end());
            RotationSimd::turn(next.cos.data(), next.sin.data(), width.cos.data(), width.sin.data(), w.size());
        }
        // The query's offset, where every cosine is 1: the sum's extreme in closed form, marked on
        // the axis. A sample that strides past it drew gpt-oss-20b's PE·PE of 1440 there as ~1100.
        if (a <= 0 && b >= 0)
            widenPixel(curve, g, value(0, static_cast<double>(w.size())), false);
        if (a + (taken - 1) * stride != b) {
            // cos((b + 1) w - w), b + 1 being the next pixel's first offset.
            double sum = 0.0;
            if (g + 1 < groups) {
                for (std::size_t i = 0; i < w.size(); ++i)
                    sum += next.cos[i] * back.cos[i] + next.sin[i] * back.sin[i];
            } else {
                sum = directCosineSum(b, w);
            }
            widenPixel(curve, g, value(b, sum), false);
        }
        std::swap(first, next);
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
