#pragma once

#include <cstdint>
#include <optional>
#include <utility>

// What Qwen2-VL's and Qwen2.5-VL's processors make of an image's pixels and a video's seconds: the
// grid of patches (image_grid_thw, video_grid_thw) a prompt's segment is in (docs/ARCHITECTURE.md,
// Encoding families). huggingface/transformers, models/qwen2_vl/image_processing_qwen2_vl.py
// (smart_resize, Qwen2VLImageProcessor: size {shortest_edge 56·56, longest_edge 28·28·1280}, patch
// 14, temporal_patch_size 2) and models/qwen2_vl/video_processing_qwen2_vl.py (Qwen2VLVideoProcessor:
// size {shortest_edge 128·28·28, longest_edge 28·28·768}, min_frames 4, max_frames 768,
// sample_frames with fps; patchify: grid_t = frames / temporal_patch_size), which Qwen2.5-VL's
// processor uses too, second_per_grid_ts = temporal_patch_size / fps.
namespace posenc::MropeProcessor {

inline constexpr std::int64_t kPatch = 14;
inline constexpr std::int64_t kTemporalPatch = 2;
inline constexpr std::int64_t kImageMinPixels = 56 * 56;
inline constexpr std::int64_t kImageMaxPixels = 28 * 28 * 1280;
inline constexpr std::int64_t kVideoMinPixels = 128 * 28 * 28;
inline constexpr std::int64_t kVideoMaxPixels = 28 * 28 * 768;
inline constexpr std::int64_t kMinFrames = 4;
inline constexpr std::int64_t kMaxFrames = 768;
// The frames a second Qwen2.5-VL's processor samples unless told.
inline constexpr double kDefaultFps = 2.0;

// smart_resize(height, width, factor, min_pixels, max_pixels): each side rounded to a multiple of
// `factor` (Python's round, halves to even), then scaled into [min_pixels, max_pixels] by
// sqrt of the area's ratio, floored (or ceiled) to multiples of `factor`, at least `factor` when
// shrunk. None where the aspect ratio exceeds 200, which it refuses.
std::optional<std::pair<std::int64_t, std::int64_t>> smartResize(std::int64_t height, std::int64_t width,
                                                                 std::int64_t factor, std::int64_t minPixels,
                                                                 std::int64_t maxPixels);

// sample_frames with fps for a video of `seconds` (its source taken to hold at least the frames
// sampled): seconds · fps clamped to [min_frames, max_frames], floored to a multiple of
// temporal_patch_size.
std::int64_t sampledFrames(double seconds, double fps);

struct Grid
{
    std::int64_t t = 1, h = 1, w = 1; // in patches before the merge
    double secondPerGrid = 1.0; // temporal_patch_size / fps (a video's)
};
// An image of `height` x `width` pixels, and a video of them lasting `seconds` sampled at `fps`,
// with a spatial merge of `merge` (factor = patch · merge); none where the processor refuses it.
std::optional<Grid> image(std::int64_t height, std::int64_t width, std::int64_t merge);
std::optional<Grid> video(std::int64_t height, std::int64_t width, double seconds, double fps, std::int64_t merge);

} // namespace posenc::MropeProcessor
