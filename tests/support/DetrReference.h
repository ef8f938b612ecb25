#pragma once

// The float64 reference of DETR's 2-D sine map, written from the reference code, never from the
// code under test: facebookresearch/detr models/position_encoding.py, PositionEmbeddingSine.forward
// (y_embed, x_embed = cumsum of ones along the rows and the columns; normalize=True
// divides by the last + 1e-6 and multiplies by 2 pi; Deformable DETR's subtracts 0.5 first),
// dim_t = temperature^(2 (j // 2) / num_pos_feats), each half's channel j sin for even j and cos for
// odd (stack and flatten), cat((pos_y, pos_x)) then permute to [C, H, W].
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace detrref {

enum class Normalize { None, Detr, Deformable };

// The map [C, H, W] (C = 2 num_pos_feats) row by row, rounded once to float32; `xFirst` the halves
// the other way round (cat((pos_x, pos_y))). A padded image: the mask's not-masked cells are rows
// below `validH` and columns below `validW` (NestedTensor pads the bottom and the right), y_embed
// the cumsum of the mask down each column (0 in a masked column) divided by its last, x_embed alike
// along each row.
inline std::vector<float> map(std::int64_t c, std::int64_t h, std::int64_t w, Normalize normalize,
                              double temperature = 10000.0, bool xFirst = false, std::int64_t validH = -1,
                              std::int64_t validW = -1)
{
    const std::int64_t npf = c / 2;
    validH = validH < 0 ? h : validH;
    validW = validW < 0 ? w : validW;
    // The cumsum s at a cell and the last one n of its column (row).
    const auto coordinate = [&](std::int64_t s, std::int64_t n) {
        if (normalize == Normalize::None)
            return double(s);
        const double offset = normalize == Normalize::Deformable ? 0.5 : 0.0;
        return (double(s) - offset) / double(float(double(n) + 1e-6)) * 2.0 * M_PI;
    };
    std::vector<float> out;
    for (std::int64_t ch = 0; ch < c; ++ch) {
        const bool row = (ch < npf) != xFirst;
        const std::int64_t j = ch % npf;
        const double dimT = std::pow(temperature, double(2 * (j / 2)) / double(npf));
        for (std::int64_t y = 0; y < h; ++y)
            for (std::int64_t x = 0; x < w; ++x) {
                const std::int64_t sy = x < validW ? std::min(y + 1, validH) : 0, ny = x < validW ? validH : 0;
                const std::int64_t sx = y < validH ? std::min(x + 1, validW) : 0, nx = y < validH ? validW : 0;
                const double angle = (row ? coordinate(sy, ny) : coordinate(sx, nx)) / dimT;
                out.push_back(float(j % 2 == 0 ? std::sin(angle) : std::cos(angle)));
            }
    }
    return out;
}

} // namespace detrref
