#pragma once

#include "core/Block.h"
#include "core/Params.h"

#include <cstdint>
#include <vector>

namespace posenc {

// The additive 2-D sin-cos table of a patch grid, laid out as the reference lays it out
// (docs/ARCHITECTURE.md, Encoding families): facebookresearch/mae util/pos_embed.py
// get_2d_sincos_pos_embed (DiT's models.py copies it) and huggingface/diffusers
// src/diffusers/models/embeddings.py get_2d_sincos_pos_embed. Patch n = row * W + column has
// [sin(column w_k) | cos(column w_k) | sin(row w_k) | cos(row w_k)], each d/4 wide, w_k =
// 10000^(-k / (d/4)): meshgrid(grid_w, grid_h) puts w first, so the half named emb_h holds the
// column. With the cls token, one zero row comes first (MAE). With base_size, a coordinate is
// i / (H / base_size) / interpolation_scale in float32, each axis by its own size (diffusers).
// A row is its column's half and its row's half, each computed once in double (or, past a few
// million floats, each cell as it is filled: the same value).
class Sincos2dTable
{
public:
    // Precondition: params valid, encoding sincos-2d; `columns` the term's columns (a multiple of 4).
    Sincos2dTable(const Params &params, std::int64_t columns);

    std::int64_t rows() const { return m_cls + m_height * m_width; }
    // The coordinate of index i on an axis of `size` patches, as the reference computes it.
    static double coordinate(std::int64_t i, std::int64_t size, const Sincos2dParams &sincos);

    // Rows past the grid's last patch hold NaN: the grid has no such patch.
    void fill(const Block &block, BlockRef out) const;

private:
    std::int64_t m_height, m_width, m_cls, m_columns;
    Sincos2dParams m_sincos;
    std::vector<double> m_divisors; // 10000^(k / (d/4)), k < d/4
    std::vector<float> m_columnHalves; // W x d/2, or empty (both or neither): computed as filled
    std::vector<float> m_rowHalves; // H x d/2
};

} // namespace posenc
