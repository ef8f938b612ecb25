#pragma once

// M-RoPE tensors as engineers dump them from transformers, for posenc check's tests. Every table and
// id array is written here from the reference code, never from posenc's:
// - the ids: huggingface/transformers models/qwen2_vl/modeling_qwen2_vl.py, Qwen2VLModel.get_rope_index
//   (4.x: text at arange(n) + st_idx on the three axes; a grid at stack([t, h, w]) + st_idx, w
//   fastest; st_idx = the ids' max + 1 after each span), with Qwen2.5-VL's video time
//   (models/qwen2_5_vl/modeling_qwen2_5_vl.py, get_rope_index: t_index = (arange(T) *
//   second_per_grid_t * tokens_per_second).long()); left padding's ids 1 (position_ids =
//   torch.ones(...), only the attention mask's tokens filled);
// - the cos: Qwen2VLRotaryEmbedding.forward (inv_freq = 1 / theta^(2j / d) in float32, freqs =
//   inv_freq @ position_ids in float32, one [3, B, L, d] cos per axis, emb = cat(freqs, freqs)), then
//   apply_multimodal_rotary_pos_emb's merge (mrope_section * 2 chunks, chunk i from axis i % 3);
//   Qwen3-VL's apply_interleaved_mrope (models/qwen3_vl/modeling_qwen3_vl.py: h at pairs 1 mod 3
//   below 3 s_h, w at 2 mod 3 below 3 s_w, t the rest).
#include "CliCheckRun.h"
#include "NpyBytes.h"

#include <QStringList>
#include <QTemporaryDir>

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace MropeDumps {

using namespace Qt::StringLiterals;

using Id = std::array<std::int64_t, 3>; // t, h, w

// A prompt's span: text of n tokens (frames 0), or a vision grid of merged h x w tokens a frame,
// each frame k at t = tOf(k).
struct Span
{
    std::int64_t n = 0, frames = 0, h = 0, w = 0;
    double step = 1.0; // second_per_grid * tokens_per_second (Qwen2.5-VL); 1: Qwen2-VL's index
};

inline Span text(std::int64_t n)
{
    return {n, 0, 0, 0};
}

inline Span grid(std::int64_t frames, std::int64_t h, std::int64_t w, double step = 1.0)
{
    return {0, frames, h, w, step};
}

// get_rope_index (4.x) of one row.
inline std::vector<Id> ropeIndex(const std::vector<Span> &spans)
{
    std::vector<Id> ids;
    std::int64_t st = 0;
    for (const Span &s : spans) {
        std::int64_t largest = st - 1;
        if (s.frames == 0) {
            for (std::int64_t k = 0; k < s.n; ++k)
                ids.push_back({st + k, st + k, st + k});
            largest = st + s.n - 1;
        }
        for (std::int64_t k = 0; k < s.frames; ++k) {
            const auto t = std::int64_t(float(float(k) * float(s.step)));
            for (std::int64_t y = 0; y < s.h; ++y)
                for (std::int64_t x = 0; x < s.w; ++x) {
                    ids.push_back({st + t, st + y, st + x});
                    largest = std::max({largest, st + t, st + y, st + x});
                }
        }
        st = largest + 1;
    }
    return ids;
}

// cos of a float32 angle as a float32 cos within one unit in the last place gives it (torch's
// vectorised emb.cos() is not always correctly rounded): the float32 value next below the correctly
// rounded one toward 0 wherever that still lies within one of its units of the exact cosine. A
// faithful computation the check must take as correct, whose slowest pairs at float32 cannot tell
// ids one apart.
inline double faithfulCos(float angle)
{
    const double exact = std::cos(double(angle));
    const float rounded = float(exact);
    const float below = std::nextafter(rounded, 0.0f);
    const double unit = double(std::nextafter(below, 2.0f)) - double(below);
    return std::fabs(double(below) - exact) < std::fabs(unit) ? double(below) : double(rounded);
}

// The axis of pair j: chunked (apply_multimodal_rotary_pos_emb) or interleaved (apply_interleaved_mrope).
inline int axisOf(std::int64_t j, const std::array<std::int64_t, 3> &section, bool interleaved)
{
    if (interleaved)
        return j % 3 == 1 && j < 3 * section[1] ? 1 : j % 3 == 2 && j < 3 * section[2] ? 2 : 0;
    return j < section[0] ? 0 : j < section[0] + section[1] ? 1 : 2;
}

// inv_freq = 1 / theta^(2j / d), held in float32.
inline float invFreq(std::int64_t j, double theta, std::int64_t pairs)
{
    return float(1.0 / std::pow(theta, double(2 * j) / double(2 * pairs)));
}

// The merged cos table [L, 2 * pairs].
inline std::vector<double> mropeCos(const std::vector<Id> &ids, double theta,
                                    const std::array<std::int64_t, 3> &section, bool interleaved)
{
    const std::int64_t pairs = section[0] + section[1] + section[2];
    std::vector<double> v;
    for (const Id &id : ids)
        for (std::int64_t c = 0; c < 2 * pairs; ++c) {
            const std::int64_t j = c % pairs;
            const float angle = float(id[std::size_t(axisOf(j, section, interleaved))]) * invFreq(j, theta, pairs);
            v.push_back(faithfulCos(angle));
        }
    return v;
}

// A port's merged cos in float64 (angles and cosines in double, then stored as float32, as numpy
// ports write it): chunked sections; `secondHalfAtT` leaves the second half of cat(freqs, freqs)
// at the t ids (xLLM's apply_mrope before xLLM-AI/xllm#746).
inline std::vector<double> portCos(const std::vector<Id> &ids, double theta, const std::array<std::int64_t, 3> &section,
                                   bool secondHalfAtT = false)
{
    const std::int64_t pairs = section[0] + section[1] + section[2];
    std::vector<double> v;
    for (const Id &id : ids)
        for (std::int64_t c = 0; c < 2 * pairs; ++c) {
            const std::int64_t j = c % pairs;
            const int axis = secondHalfAtT && c >= pairs ? 0 : axisOf(j, section, false);
            v.push_back(std::cos(double(id[std::size_t(axis)]) * std::pow(theta, -double(j) / double(pairs))));
        }
    return v;
}

// The merged sin table [L, 2 * pairs] (chunked sections), sin in double of the float32 angle.
inline std::vector<double> mropeSin(const std::vector<Id> &ids, double theta,
                                    const std::array<std::int64_t, 3> &section)
{
    const std::int64_t pairs = section[0] + section[1] + section[2];
    std::vector<double> v;
    for (const Id &id : ids)
        for (std::int64_t c = 0; c < 2 * pairs; ++c) {
            const std::int64_t j = c % pairs;
            v.push_back(std::sin(double(float(id[std::size_t(axisOf(j, section, false))]) * invFreq(j, theta, pairs))));
        }
    return v;
}

// [3, L]: t's ids, then h's, then w's.
inline std::vector<double> threeAxes(const std::vector<Id> &ids)
{
    std::vector<double> v;
    for (int a = 0; a < 3; ++a)
        for (const Id &id : ids)
            v.push_back(double(id[std::size_t(a)]));
    return v;
}

// Qwen2VLRotaryEmbedding.forward's cos before the merge, [3, B, L, 2 * pairs]: slice [a, b] turns
// every column at ids[a] (each of the B rows the same ids); `order` the axes' ids each slice takes.
inline std::vector<double> perAxisCos(const std::vector<Id> &ids, double theta, std::int64_t pairs, std::int64_t batch,
                                      const std::array<int, 3> &order = {0, 1, 2})
{
    std::vector<double> v;
    for (int a = 0; a < 3; ++a)
        for (std::int64_t b = 0; b < batch; ++b)
            for (const Id &id : ids)
                for (std::int64_t c = 0; c < 2 * pairs; ++c) {
                    const float angle
                        = float(id[std::size_t(order[std::size_t(a)])]) * invFreq(c % pairs, theta, pairs);
                    v.push_back(faithfulCos(angle));
                }
    return v;
}

inline const std::array<std::int64_t, 3> kQwen2 {16, 24, 24};
inline const std::array<std::int64_t, 3> kQwen3 {24, 20, 20};

inline QString saved(const QTemporaryDir &dir, const QString &name, const std::vector<std::int64_t> &shape,
                     const std::vector<double> &values)
{
    return CliCheck::write(dir, name, npy(shape, values));
}

inline QStringList mistakesOf(const CliCheck::Checked &c)
{
    return c.json.value(u"mistakes"_s).toVariant().toStringList();
}

} // namespace MropeDumps
