#pragma once

// Float64 references for multimodal RoPE, written from huggingface/transformers' code, never from
// the code under test:
// - get_rope_index of models/qwen2_vl/modeling_qwen2_vl.py, qwen2_5_vl/modeling_qwen2_5_vl.py and
//   qwen3_vl/modeling_qwen3_vl.py. "v4" is transformers 4.x (Qwen's rule: the next segment at the
//   largest id so far + 1; the Qwen2.5-VL docstring's video 0, 50, 100 with text after at 101);
//   "v5" is transformers main after PRs #45400 and #48669 (get_vision_position_ids: the next
//   segment at the span's start + max(H, W) // merge; a fractional second_per_grid kept and the
//   product truncated). Qwen2.5-VL's temporal product is float32, in each era's order.
// - the axes of apply_multimodal_rotary_pos_emb (chunked sections, chunk i from axis i % 3) and of
//   Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope (h on pairs 1 mod 3 below 3 s_h, w on
//   2 mod 3 below 3 s_w).
#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace mroperef {

using Ids = std::vector<std::int64_t>;

// The ids of every token on each axis, and each token's kind (0 text, 1 image, 2 video).
struct Table
{
    Ids kind, t, h, w;
};

// get_rope_index written from the reference, segment by segment (grids before the merge).
struct Segment
{
    int kind; // 0 text, 1 image, 2 video
    std::int64_t n, t, h, w;
    double seconds;
};

inline std::int64_t offsetOf(std::int64_t k, const Segment &s, const QString &vision, const QString &era, double tps)
{
    if (vision != QStringLiteral("qwen2.5-vl"))
        return k;
    if (era == QStringLiteral("v4")) {
        // (arange(T) * second_per_grid_t * tokens_per_second).long(), float32 left to right; images 0.
        const float spg = s.kind == 1 ? 0.0f : float(s.seconds);
        return std::int64_t(std::trunc((float(k) * spg) * float(tps)));
    }
    if (s.kind == 1)
        return k;
    const float interval = float(tps) * float(s.seconds); // tokens_per_second * second_per_grid_t
    return std::int64_t(std::trunc(float(k) * interval));
}

inline Table ropeIndex(std::vector<Segment> segments, const QString &vision, const QString &era, std::int64_t merge,
                       double tps, std::int64_t timestamp)
{
    if (vision == QStringLiteral("qwen3-vl")) { // repeat_interleave(video_grid_thw, t), timestamps between frames
        std::vector<Segment> frames;
        for (const Segment &s : segments) {
            for (std::int64_t k = 0; k < (s.kind == 2 ? s.t : 1); ++k) {
                if (k > 0)
                    frames.push_back({0, timestamp + 2, 0, 0, 0, 0.0});
                Segment f = s;
                f.t = s.kind == 2 ? 1 : s.t;
                frames.push_back(f);
            }
        }
        segments = frames;
    }
    Table out;
    std::int64_t st = 0, maxSoFar = -1;
    for (const Segment &s : segments) {
        if (s.kind == 0) {
            for (std::int64_t i = 0; i < s.n; ++i) {
                out.kind.push_back(0);
                out.t.push_back(st + i);
                out.h.push_back(st + i);
                out.w.push_back(st + i);
            }
            st += s.n;
            maxSoFar = st - 1;
            continue;
        }
        const std::int64_t T = s.t, H = s.h / merge, W = s.w / merge;
        for (std::int64_t k = 0; k < T; ++k) {
            for (std::int64_t r = 0; r < H; ++r) {
                for (std::int64_t c = 0; c < W; ++c) {
                    out.kind.push_back(s.kind);
                    out.t.push_back(st + offsetOf(k, s, vision, era, tps));
                    out.h.push_back(st + r);
                    out.w.push_back(st + c);
                    maxSoFar = std::max({maxSoFar, out.t.back(), out.h.back(), out.w.back()});
                }
            }
        }
        st = era == QStringLiteral("v4") ? maxSoFar + 1 : st + std::max(s.h, s.w) / merge;
    }
    return out;
}

inline std::vector<int> chunkedAxes(const Ids &section)
{
    std::vector<int> axes;
    for (int a = 0; a < 3; ++a)
        axes.insert(axes.end(), std::size_t(section[std::size_t(a)]), a);
    return axes;
}

inline std::vector<int> interleavedAxes(const Ids &section, std::int64_t pairs)
{
    std::vector<int> axes(std::size_t(pairs), 0);
    for (std::int64_t j = 1; j < std::min(3 * section[1], pairs); j += 3)
        axes[std::size_t(j)] = 1;
    for (std::int64_t j = 2; j < std::min(3 * section[2], pairs); j += 3)
        axes[std::size_t(j)] = 2;
    return axes;
}

} // namespace mroperef
