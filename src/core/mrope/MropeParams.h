#pragma once

#include <QString>

#include <cstdint>
#include <vector>

// Multimodal RoPE's parameters (docs/ARCHITECTURE.md, Encoding families): Params holds them as
// `params.mrope`. The rotary keys (head_dim, rope_theta, rope_type and its scaling) are RoPE's
// rows, which this family reads as they are (FamilySpec::borrows).
namespace posenc {

// Which model's get_rope_index gives the (t, h, w) ids: Qwen2-VL's (a video's t id is its grid
// index), Qwen2.5-VL's (t ids in absolute time, tokens_per_second a second) or Qwen3-VL's (each
// temporal patch its own one-frame span between timestamp text).
enum class MropeVision { Qwen2Vl, Qwen25Vl, Qwen3Vl };
// Which transformers gives them: 4.x (Qwen's own rule, the next text at the span's largest id + 1)
// or 5.x (main: the next text at the span's start + max(H, W) // merge).
enum class MropeEra { V4, V5 };

struct MropeParams
{
    static constexpr std::int64_t kMaxMergeSize = 64;
    static constexpr std::int64_t kMaxTimestampTokens = 64;
    static constexpr double kMaxTokensPerSecond = 1e6;
    static constexpr double kMaxSecondPerGrid = 1e6;

    // mrope_section in rotary pairs per axis (t, h, w), summing to rotary_dim / 2 when chunked.
    std::vector<std::int64_t> section = {16, 24, 24};
    bool interleaved = false; // apply_interleaved_mrope (Qwen3-VL) instead of contiguous sections
    MropeVision vision = MropeVision::Qwen2Vl;
    MropeEra era = MropeEra::V4;
    std::int64_t spatialMergeSize = 2; // vision_config.spatial_merge_size
    double tokensPerSecond = 2.0; // vision_config.tokens_per_second (Qwen2.5-VL)
    double secondPerGrid = 1.0; // second_per_grid_ts of a video that does not give its own
    std::int64_t timestampTokens = 6; // Qwen3-VL: tokens of one "<t.t seconds>" timestamp
    // The prompt's segments: text:N, image:TxHxW, video:TxHxW[@SECONDS], grids in patches before
    // the merge as HF's image_grid_thw and video_grid_thw.
    QString prompt = QStringLiteral("text:5,image:1x4x6,text:3,video:2x4x4,text:2");

    friend bool operator==(const MropeParams &, const MropeParams &) = default;
};

} // namespace posenc
