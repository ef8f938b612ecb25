#pragma once

#include "core/Params.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

// A multimodal prompt and the (t, h, w) position id of each of its tokens, as HF transformers'
// get_rope_index computes them for Qwen2-VL, Qwen2.5-VL and Qwen3-VL (docs/ARCHITECTURE.md,
// Encoding families): huggingface/transformers, models/qwen2_vl/modeling_qwen2_vl.py,
// qwen2_5_vl/modeling_qwen2_5_vl.py and qwen3_vl/modeling_qwen3_vl.py, the 4.x rule (the next
// text at the span's largest id + 1) and the 5.x rule (get_vision_position_ids, the next text at
// the span's start + max(H, W) // merge), Qwen2.5-VL's temporal ids after PR #48669.
namespace posenc {

// One segment of --prompt: text:N, image:TxHxW or video:TxHxW[@SECONDS] (grids in patches before
// the spatial merge, as image_grid_thw and video_grid_thw; SECONDS a video's second_per_grid), or
// image:HxWpx and video:HxWpx@Ds[@Ffps] in pixels and seconds, turned into those grids as Qwen2-VL's
// processors turn them (MropeProcessor).
struct MropeSegment
{
    enum class Kind { Text, Image, Video };
    Kind kind = Kind::Text;
    std::int64_t n = 0; // text tokens
    std::int64_t t = 1, h = 1, w = 1;
    std::optional<double> secondPerGrid;
    bool fromPixels = false; // given in pixels and seconds, its grid the processor's

    friend bool operator==(const MropeSegment &, const MropeSegment &) = default;
};

// The kind of a token in the mrope-positions table, as mm_token_type_ids numbers them.
enum class MropeTokenKind { Text = 0, Image = 1, Video = 2 };

// One token's ids.
struct MropeIds
{
    MropeTokenKind kind = MropeTokenKind::Text;
    std::int64_t t = 0, h = 0, w = 0;
};

namespace MropePrompt {

// The most tokens a prompt may hold, and the largest id (float32 tables hold ids exactly below it).
constexpr std::int64_t kMaxTokens = std::int64_t(1) << 24;
constexpr std::int64_t kMaxId = std::int64_t(1) << 24;

// The segments of a prompt's text, or the problem with it in words ("unknown kind 'audio'"); sizes
// in pixels become grids at the spatial merge `mergeSize` (factor 14 · mergeSize), Qwen's 2 unless
// told.
std::variant<std::vector<MropeSegment>, QString> parse(const QString &text, std::int64_t mergeSize = 2);
// The prompt's text of `segments`: text:N, image:TxHxW, video:TxHxW[@SECONDS] in grids (a segment
// given in pixels written as its grid), the inverse of parse for grids.
QString text(const std::vector<MropeSegment> &segments);
// The allowed form, for a message: "text:N, image:TxHxW or video:TxHxW[@SECONDS], ...".
QString form();

} // namespace MropePrompt

// The prompt laid out: each span's first row, start position and temporal offsets, so that any
// token's ids are found in O(log spans). Built from valid parameters of encoding mrope (an
// engine source, docs/ARCHITECTURE.md, The engine of table sources).
class MropeLayout
{
public:
    explicit MropeLayout(const Params &params);
    // The layout of `mrope`'s prompt, or the problem with it (a grid not divisible by the merge
    // size, too many tokens, an id past kMaxId).
    static std::variant<MropeLayout, QString> build(const MropeParams &mrope);
    // The most spans a prompt may lay out (Qwen3-VL's frames each one).
    static constexpr std::int64_t kMaxSpans = std::int64_t(1) << 20;

    std::int64_t tokens() const { return m_tokens; }
    // The largest id on any axis, and rope_deltas = max + 1 - tokens: the offset generated tokens
    // add to their cache position (position_ids = cache_position + rope_deltas on all three axes).
    std::int64_t maxId() const { return m_maxId; }
    std::int64_t ropeDelta() const { return m_maxId + 1 - m_tokens; }
    // The counts of each kind of token and of vision spans.
    std::int64_t imageTokens() const { return m_imageTokens; }
    std::int64_t videoTokens() const { return m_videoTokens; }
    // The video grids after a first whose temporal id equals the grid before's: time truncated
    // away (Qwen2.5-VL's k · second_per_grid · tokens_per_second below a whole step).
    std::int64_t collapsedGrids() const { return m_collapsedGrids; }

    // The ids of `count` tokens from `row` on.
    void ids(std::int64_t row, std::int64_t count, MropeIds *out) const;
    MropeIds ids(std::int64_t row) const;

    // A span of tokens: a text run or one vision grid (Qwen3-VL: one frame).
    struct Span
    {
        MropeTokenKind kind = MropeTokenKind::Text;
        std::int64_t firstRow = 0;
        std::int64_t rows = 0;
        std::int64_t start = 0; // the running position the span's ids are offset by
        std::int64_t gridT = 1, gridH = 1, gridW = 1; // merged: T, H', W'
        // How a vision span's grid k turns into its temporal id before `start`: k itself, 0
        // (Qwen2.5-VL's images in 4.x), or Qwen2.5-VL's product in absolute time, 4.x's or 5.x's.
        enum class Time { Index, Zero, ProductV4, ProductV5 };
        Time time = Time::Index;
        double secondPerGrid = 1.0;
        double tokensPerSecond = 1.0;
        std::int64_t tOffset(std::int64_t k) const;
    };
    const std::vector<Span> &spans() const { return m_spans; }

private:
    MropeLayout() = default;

    std::vector<Span> m_spans;
    std::int64_t m_tokens = 0;
    std::int64_t m_maxId = -1;
    std::int64_t m_imageTokens = 0;
    std::int64_t m_videoTokens = 0;
    std::int64_t m_collapsedGrids = 0;
};

} // namespace posenc
