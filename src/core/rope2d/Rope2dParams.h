#pragma once

#include <cstdint>
#include <utility>
#include <vector>

// 2-D rotary embeddings' parameters (docs/ARCHITECTURE.md, Encoding families): Params holds them as
// `params.rope2d`. head_dim and rope_theta are RoPE's rows, spatial_merge_size M-RoPE's and the grid
// the 2-D sin-cos family's, which this family reads as they are (FamilySpec::borrows).
namespace posenc {

// How a vision model splits a head's rotary pairs between the axes of its patch grid:
// - qwen-vit: Qwen2-VL's VisionRotaryEmbedding, rows on the first half of the pairs and columns on
//   the second, each axis the whole ladder of head_dim / 2, patches in 2 x 2 merge order;
// - pixtral: one ladder over head_dim, rows on its even frequencies and columns on its odd ones;
// - flux: FLUX's EmbedND, axis i its own ladder over axes_dim[i] (ids (0, row, col[, 0]));
// - axial: RoPE-ViT's compute_axial_cis, columns then rows on one ladder of head_dim / 4;
// - hunyuan: HunyuanImage 3.0's build_2d_rope, one ladder over head_dim in column order, pair k
//   turning with the row where k is even and with the column where it is odd (y and x interleaved).
enum class Rope2dStyle { QwenVit, Pixtral, Flux, Axial, Hunyuan };

struct Rope2dParams
{
    static constexpr std::int64_t kMaxAxes = 8;

    Rope2dStyle style = Rope2dStyle::QwenVit;
    std::vector<std::int64_t> axesDim = {16, 56, 56}; // flux: the columns of each axis
    std::vector<std::int64_t> patch; // rope2d-score's patch (row, column); empty: the grid's centre
    // The ids of the grid's first patch (row, column): an image placed after other tokens, as
    // HunyuanImage 3.0's beta_y = L + (wh - h)/2, beta_x = L + (wh - w)/2; empty: (0, 0).
    std::vector<std::int64_t> origin;

    // rope2d-score's patch in `grid` (H, W): the one given, or the centre (H/2, W/2).
    std::pair<std::int64_t, std::int64_t> patchIn(const std::vector<std::int64_t> &grid) const
    {
        if (patch.size() == 2)
            return {patch[0], patch[1]};
        return {grid.size() == 2 ? grid[0] / 2 : 0, grid.size() == 2 ? grid[1] / 2 : 0};
    }

    // The first patch's row and column ids.
    std::pair<std::int64_t, std::int64_t> originIds() const
    {
        return origin.size() == 2 ? std::pair {origin[0], origin[1]} : std::pair<std::int64_t, std::int64_t> {0, 0};
    }

    friend bool operator==(const Rope2dParams &, const Rope2dParams &) = default;
};

} // namespace posenc
