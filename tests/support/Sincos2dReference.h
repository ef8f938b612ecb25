#pragma once

// The float64 reference of the 2-D sin-cos table, written from the reference code, never from the
// code under test: facebookresearch/mae util/pos_embed.py get_2d_sincos_pos_embed (grid =
// meshgrid(grid_w, grid_h), so emb_h, the first half, encodes the column; cls_token=True prepends
// one zero row), its copy in facebookresearch/DiT models.py, and huggingface/diffusers
// models/embeddings.py get_2d_sincos_pos_embed (coordinates arange(H, float32) / (H / base_size) /
// interpolation_scale in float32, each axis by its own size).
#include "core/Block.h"
#include "core/Params.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace sincos2dref {

using posenc::Params;
using posenc::RowMatrixXd;

// get_1d_sincos_pos_embed_from_grid(D', pos): omega = 1 / 10000^(arange(D'/2) / (D'/2)),
// [sin(pos omega) | cos(pos omega)].
inline std::vector<double> oneD(std::int64_t dHalf, double pos)
{
    std::vector<double> out(static_cast<std::size_t>(dHalf), 0.0);
    for (std::int64_t k = 0; k < dHalf / 2; ++k) {
        const double omega = 1.0 / std::pow(10000.0, double(k) / (double(dHalf) / 2.0));
        out[std::size_t(k)] = std::sin(pos * omega);
        out[std::size_t(dHalf / 2 + k)] = std::cos(pos * omega);
    }
    return out;
}

// diffusers' coordinate: torch.arange(size, float32) / (size / base_size) / interpolation_scale.
inline double diffusersCoordinate(std::int64_t i, std::int64_t size, double base, double scale)
{
    return double(float(float(i) / float(double(size) / base)) / float(scale));
}

// The reference table [H·W (+1), d]: row 1 + n (or n) = [1d(d/2, column) | 1d(d/2, row)].
inline RowMatrixXd table(const Params &p)
{
    const std::int64_t h = p.sincos2d.grid[0], w = p.sincos2d.grid[1], d = p.dModel;
    const std::int64_t cls = p.sincos2d.clsToken ? 1 : 0;
    RowMatrixXd out = RowMatrixXd::Zero(cls + h * w, d);
    for (std::int64_t i = 0; i < h; ++i) {
        for (std::int64_t j = 0; j < w; ++j) {
            double y = double(i), x = double(j);
            if (p.sincos2d.baseSize) {
                y = diffusersCoordinate(i, h, *p.sincos2d.baseSize, p.sincos2d.interpolationScale);
                x = diffusersCoordinate(j, w, *p.sincos2d.baseSize, p.sincos2d.interpolationScale);
            }
            const std::vector<double> first = oneD(d / 2, x), second = oneD(d / 2, y);
            for (std::int64_t c = 0; c < d / 2; ++c) {
                out(cls + i * w + j, c) = first[std::size_t(c)];
                out(cls + i * w + j, d / 2 + c) = second[std::size_t(c)];
            }
        }
    }
    return out;
}

} // namespace sincos2dref
