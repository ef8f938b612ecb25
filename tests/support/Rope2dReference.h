#pragma once

// Float64 references for 2-D RoPE, written from the reference code, never from the code under test:
// - qwen-vit: huggingface/transformers models/qwen2_vl/modeling_qwen2_vl.py, VisionRotaryEmbedding
//   (dim = head_dim / 2) and rot_pos_emb (hpos, wpos reshaped (h/m, m, w/m, m), permuted (0, 2, 1, 3));
// - pixtral: models/pixtral/modeling_pixtral.py, PixtralRotaryEmbedding (freqs[::2] rows,
//   freqs[1::2] columns) and position_ids_in_meshgrid (row-major);
// - flux: black-forest-labs/flux src/flux/math.py rope and modules/layers.py EmbedND, ids (0, row,
//   col) of sampling.prepare; FLUX.2's (0, row, col, 0);
// - axial: naver-ai/rope-vit deit/models_v2_rope.py compute_axial_cis and init_t_xy;
// - hunyuan: Tencent-Hunyuan/HunyuanImage-3.0 hunyuan_image_3/modeling_hunyuan_image_3.py build_2d_rope (theta =
//   1 / base^(arange(0, d, 2) / d) reshaped (1, d/4, 2) times the ids (y, x): pair k on y where k is
//   even, on x where odd);
// and the score <R(p0) q, R(p) q> / |q|^2 of q all ones, the mean of cos(angle(p) - angle(p0)).
#include "core/Params.h"

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace rope2dref {

using posenc::Params;
using posenc::Rope2dStyle;

// The float64 reference: each pair's (axis, inverse frequency), axis 1 the row and 2 the column.
struct Pair
{
    int axis;
    double inv;
};

inline std::vector<Pair> pairs(const Params &p)
{
    const double theta = p.rope.theta;
    const std::int64_t d = p.rope.headDim;
    std::vector<Pair> pairs;
    switch (p.rope2d.style) {
    case Rope2dStyle::QwenVit: // inv_freq = 1 / theta^(arange(0, dim, 2) / dim), dim = d / 2
        for (const int axis : {1, 2})
            for (std::int64_t k = 0; k < d / 4; ++k)
                pairs.push_back({axis, 1.0 / std::pow(theta, double(2 * k) / double(d / 2))});
        break;
    case Rope2dStyle::Pixtral: // freqs = 1 / theta^(arange(0, d, 2) / d): rows [::2], columns [1::2]
        for (const int axis : {1, 2})
            for (std::int64_t k = axis - 1; k < d / 2; k += 2)
                pairs.push_back({axis, 1.0 / std::pow(theta, double(2 * k) / double(d))});
        break;
    case Rope2dStyle::Flux: // EmbedND: rope(ids[..., i], axes_dim[i], theta) concatenated
        for (std::size_t i = 0; i < p.rope2d.axesDim.size(); ++i) {
            const std::int64_t a = p.rope2d.axesDim[i];
            for (std::int64_t k = 0; k < a / 2; ++k)
                pairs.push_back({int(i), 1.0 / std::pow(theta, double(2 * k) / double(a))});
        }
        break;
    case Rope2dStyle::Axial: // freqs = 1 / theta^(arange(0, d, 4)[: d/4] / d); x then y
        for (const int axis : {2, 1})
            for (std::int64_t k = 0; k < d / 4; ++k)
                pairs.push_back({axis, 1.0 / std::pow(theta, double(4 * k) / double(d))});
        break;
    case Rope2dStyle::Hunyuan: // (all_pos * theta.reshape(1, d/4, 2)).reshape(L, d/2)
        for (std::int64_t k = 0; k < d / 2; ++k)
            pairs.push_back({k % 2 == 0 ? 1 : 2, 1.0 / std::pow(theta, double(2 * k) / double(d))});
        break;
    }
    return pairs;
}

// (row, column) of patch n in the model's order.
inline std::pair<std::int64_t, std::int64_t> patch(const Params &p, std::int64_t n)
{
    const std::int64_t h = p.sincos2d.grid[0], w = p.sincos2d.grid[1], m = p.mrope.spatialMergeSize;
    if (p.rope2d.style != Rope2dStyle::QwenVit)
        return {n / w, n % w};
    // The order of reshape(h/m, m, w/m, m).permute(0, 2, 1, 3).flatten(): n walks (br, bc, ir, ic).
    std::int64_t i = 0;
    for (std::int64_t br = 0; br < h / m; ++br)
        for (std::int64_t bc = 0; bc < w / m; ++bc)
            for (std::int64_t ir = 0; ir < m; ++ir)
                for (std::int64_t ic = 0; ic < m; ++ic, ++i)
                    if (i == n)
                        return {br * m + ir, bc * m + ic};
    return {-1, -1};
}

inline double angle(const Pair &pair, std::int64_t row, std::int64_t column)
{
    return (pair.axis == 1 ? double(row) : pair.axis == 2 ? double(column) : 0.0) * pair.inv;
}

// The score of patch (row, column) against (row0, column0) for q all ones.
inline double score(const std::vector<Pair> &pairs, std::int64_t row, std::int64_t column, std::int64_t row0,
                    std::int64_t column0)
{
    double sum = 0.0;
    for (const Pair &pair : pairs)
        sum += std::cos(angle(pair, row, column) - angle(pair, row0, column0));
    return sum / double(pairs.size());
}

} // namespace rope2dref
