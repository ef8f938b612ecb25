#include "MropeProcessor.h"

#include <algorithm>
#include <cmath>

namespace posenc::MropeProcessor {

std::optional<std::pair<std::int64_t, std::int64_t>> smartResize(std::int64_t height, std::int64_t width,
                                                                 std::int64_t factor, std::int64_t minPixels,
                                                                 std::int64_t maxPixels)
{
    const double h = double(height), w = double(width), f = double(factor);
    if (std::max(h, w) / std::min(h, w) > 200.0)
        return std::nullopt;
    // Python's round() of a float: to the nearest integer, halves to the even one (nearbyint in
    // the default rounding mode).
    std::int64_t hBar = std::int64_t(std::nearbyint(h / f)) * factor;
    std::int64_t wBar = std::int64_t(std::nearbyint(w / f)) * factor;
    if (hBar * wBar > maxPixels) {
        const double beta = std::sqrt((h * w) / double(maxPixels));
        hBar = std::max(factor, std::int64_t(std::floor(h / beta / f)) * factor);
        wBar = std::max(factor, std::int64_t(std::floor(w / beta / f)) * factor);
    } else if (hBar * wBar < minPixels) {
        const double beta = std::sqrt(double(minPixels) / (h * w));
        hBar = std::int64_t(std::ceil(h * beta / f)) * factor;
        wBar = std::int64_t(std::ceil(w * beta / f)) * factor;
    }
    return std::pair {hBar, wBar};
}

std::int64_t sampledFrames(double seconds, double fps)
{
    const double maxFrames = std::floor(double(kMaxFrames) / double(kTemporalPatch)) * double(kTemporalPatch);
    const double frames = std::min(std::max(seconds * fps, double(kMinFrames)), maxFrames);
    return std::int64_t(std::floor(frames / double(kTemporalPatch))) * kTemporalPatch;
}

std::optional<Grid> image(std::int64_t height, std::int64_t width, std::int64_t merge)
{
    const auto resized = smartResize(height, width, kPatch * merge, kImageMinPixels, kImageMaxPixels);
    if (!resized)
        return std::nullopt;
    // One image is repeated to temporal_patch_size frames: grid_t 1.
    return Grid {1, resized->first / kPatch, resized->second / kPatch, 1.0};
}

std::optional<Grid> video(std::int64_t height, std::int64_t width, double seconds, double fps, std::int64_t merge)
{
    const auto resized = smartResize(height, width, kPatch * merge, kVideoMinPixels, kVideoMaxPixels);
    if (!resized)
        return std::nullopt;
    return Grid {sampledFrames(seconds, fps) / kTemporalPatch, resized->first / kPatch, resized->second / kPatch,
                 double(kTemporalPatch) / fps};
}

} // namespace posenc::MropeProcessor
