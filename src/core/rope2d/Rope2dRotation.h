#pragma once

#include "core/Block.h"
#include "core/Params.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace posenc {

// 2-D rotary embeddings of a patch grid, as the reference code builds them (docs/ARCHITECTURE.md,
// Encoding families), each pair's angle its axis's id times its inverse frequency:
// - qwen-vit: huggingface/transformers models/qwen2_vl/modeling_qwen2_vl.py, VisionRotaryEmbedding
//   (dim = head_dim / 2, inv_k = 1 / theta^(2k / dim)) and Qwen2VisionTransformerPretrainedModel.
//   rot_pos_emb (pairs 0 .. head_dim/4 - 1 the row, the rest the column; patches in 2 x 2 merge
//   order: block row, block column, row and column in the block), emb = cat(rotary, rotary);
// - pixtral: models/pixtral/modeling_pixtral.py, PixtralRotaryEmbedding (f_k = 1 / theta^(2k /
//   head_dim); rows take f_0, f_2, ..., columns f_1, f_3, ...), patches row-major, cat twice;
// - flux: black-forest-labs/flux src/flux/modules/layers.py EmbedND and src/flux/math.py rope (axis
//   i contributes axes_dim[i] / 2 pairs turning at theta^(-2k / axes_dim[i]); image ids (0, row,
//   col) from sampling.prepare, FLUX.2's (0, row, col, 0)), adjacent columns (2k, 2k + 1) a pair;
// - axial: naver-ai/rope-vit deit/models_v2_rope.py compute_axial_cis (f_k = 1 / theta^(4k /
//   head_dim), k < head_dim / 4; pairs 0 .. head_dim/4 - 1 the column x, the rest the row y),
//   complex pairs (2p, 2p + 1), patches row-major (t_x = n % W, t_y = n // W);
// - hunyuan: Tencent-Hunyuan/HunyuanImage-3.0 hunyuan_image_3/modeling_hunyuan_image_3.py, build_2d_rope (theta =
//   1 / base^(arange(0, d, 2) / d) reshaped (1, d/4, 2) times the ids (y, x): pair k on y where k
//   is even, on x where odd, each at theta_k), patches row-major, idx_theta.repeat(1, 2).
// Every axis's ids start at the grid's origin (Rope2dParams::origin: HunyuanImage's beta_y, beta_x).
// An engine source: each axis's cos and sin at every coordinate are computed once (in double,
// rounded to float32), and a row of the table is copied from them.
class Rope2dRotation
{
public:
    // Axis numbers, as FLUX's ids: 0 t, 1 h (row), 2 w (column), 3 l.
    static constexpr int kRow = 1;
    static constexpr int kColumn = 2;

    // Precondition: params valid, encoding rope-2d.
    explicit Rope2dRotation(const Params &params);

    // The problem with the style's split for these parameters, in words, or nothing.
    static std::optional<QString> styleProblem(const Params &params);
    static std::optional<QString> axesProblem(const Params &params);

    std::int64_t rows() const { return m_rows; }
    std::int64_t columns() const { return m_columns; }
    std::int64_t patches() const { return m_rows * m_columns; }
    std::int64_t headDim() const { return 2 * pairs(); }
    std::int64_t pairs() const { return std::ssize(m_inv); }
    const std::vector<int> &axes() const { return m_axes; }
    const std::vector<double> &inverseFrequencies() const { return m_inv; }

    // The id of an axis's first coordinate (the grid's origin, Rope2dParams::origin).
    std::int64_t originOf(int axis) const;
    // The (row, column) of the n-th patch in the model's order.
    std::pair<std::int64_t, std::int64_t> patchAt(std::int64_t n) const;
    // Pair j's angle at (row, column).
    double angle(std::int64_t j, std::int64_t row, std::int64_t column) const;

    // A block of rope2d-cos (`cosine`) or rope2d-sin: patches in the model's order x head_dim. Rows
    // past the grid's last patch hold NaN: the grid has no such patch.
    void fillTable(bool cosine, const Block &block, BlockRef out) const;
    // A block of rope2d-score: <R(p0) q, R(p) q> / |q|^2 for q all ones, the grid's rows x columns.
    void fillScore(const Block &block, BlockRef out, std::int64_t patchRow, std::int64_t patchColumn) const;

private:
    // A run of consecutive pairs on one axis, and its place in a row of the table.
    struct Run
    {
        int axis = 0;
        std::int64_t firstPair = 0;
        std::int64_t count = 0;
        std::int64_t firstColumn = 0; // its first column (half: and firstColumn + pairs)
        std::int64_t width = 0; // columns per copy: count (half) or 2 count (interleaved)
        std::vector<float> cos, sin; // coordinate-major: width values per coordinate
    };
    std::int64_t coordinates(int axis) const;
    void copyRun(const Run &run, bool cosine, std::int64_t coordinate, std::int64_t rowColumn, const Block &block,
                 float *out) const;

    Rope2dStyle m_style;
    std::int64_t m_rows, m_columns, m_merge;
    bool m_half; // rotate_half's columns (c, c + pairs); else adjacent pairs (2k, 2k + 1)
    std::pair<std::int64_t, std::int64_t> m_origin; // the first patch's (row, column) ids
    std::vector<int> m_axes;
    std::vector<double> m_inv;
    std::vector<Run> m_runs;
};

} // namespace posenc
