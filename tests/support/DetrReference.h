#pragma once

// The float64 reference of DETR's 2-D sine map, written from the reference code, never from the
// code under test: facebookresearch/detr models/position_encoding.py, PositionEmbeddingSine.forward
// without padding (y_embed, x_embed = cumsum of ones along the rows and the columns; normalize=True
// divides by the last + 1e-6 and multiplies by 2 pi; Deformable DETR's subtracts 0.5 first),
// dim_t = temperature^(2 (j // 2) / num_pos_feats), each half's channel j sin for even j and cos for
// odd (stack and flatten), cat((pos_y, pos_x)) then permute to [C, H, W].
#include <cmath>
#include <cstdint>
#include <vector>

namespace detrref {

enum class Normalize { None, Detr, Deformable };

// The map [C, H, W] (C = 2 num_pos_feats) row by row, rounded once to float32; `xFirst` the halves
// the other way round (cat((pos_x, pos_y))).
inline std::vector<float> map(std::int64_t c, std::int64_t h, std::int64_t w, Normalize normalize,
                              double temperature = 10000.0, bool xFirst = false)
{
    const std::int64_t npf = c / 2;
    const auto coordinate = [&](std::int64_t i, std::int64_t n) {
        if (normalize == Normalize::None)
            return double(i + 1);
        const double offset = normalize == Normalize::Deformable ? 0.5 : 0.0;
        return (double(i + 1) - offset) / double(float(double(n) + 1e-6)) * 2.0 * M_PI;
    };
    std::vector<float> out;
    for (std::int64_t ch = 0; ch < c; ++ch) {
        const bool row = (ch < npf) != xFirst;
        const std::int64_t j = ch % npf;
        const double dimT = std::pow(temperature, double(2 * (j / 2)) / double(npf));
        for (std::int64_t y = 0; y < h; ++y)
            for (std::int64_t x = 0; x < w; ++x) {
                const double angle = (row ? coordinate(y, h) : coordinate(x, w)) / dimT;
                out.push_back(float(j % 2 == 0 ? std::sin(angle) : std::cos(angle)));
            }
    }
    return out;
}

} // namespace detrref
