#pragma once

#include <cstdint>
#include <optional>
#include <vector>

// The 2-D sin-cos table's parameters (docs/ARCHITECTURE.md, Encoding families): Params holds them
// as `params.sincos2d`. Its grid is rope-2d's too (FamilySpec::borrows).
namespace posenc {

// get_2d_sincos_pos_embed of MAE, DiT and diffusers: a patch grid of H x W, an optional leading
// zero row for the cls token (MAE), and diffusers' coordinates i / (H / base_size) /
// interpolation_scale where base_size is given (MAE's and DiT's are the indices themselves).
struct Sincos2dParams
{
    static constexpr std::int64_t kMaxSide = 16384;
    static constexpr std::int64_t kMaxPatches = std::int64_t(1) << 24;
    static constexpr double kMaxBaseSize = 1e6;

    std::vector<std::int64_t> grid = {32, 32}; // H, W in patches
    bool clsToken = false;
    std::optional<double> baseSize; // diffusers' base_size; unset: the indices (MAE, DiT)
    double interpolationScale = 1.0; // diffusers' interpolation_scale

    friend bool operator==(const Sincos2dParams &, const Sincos2dParams &) = default;
};

} // namespace posenc
