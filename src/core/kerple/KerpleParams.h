#pragma once

#include <cstdint>
#include <vector>

// KERPLE's parameters (docs/ARCHITECTURE.md, Encoding families): Params holds them as
// `params.kerple`.
namespace posenc {

// The dtype of the attention scores x, which the reference casts its distances to (diff.to(x.dtype))
// and computes the bias in, its parameters bias_p and bias_a stored in it (params_dtype).
enum class KerpleDtype { Float32, BFloat16, Float16 };

// Chi et al. 2022 (arXiv 2205.09921), its log kernel as the authors' ParallelKerpleLog computes it
// (chijames/KERPLE, megatron/mpu/layers.py): H heads, head h (numbered 1..H) adding
// −r1_h·log(1 + r2_h·(i − j)) to query i's score of key j ≤ i, and 0 after it (torch.tril). r1 and
// r2 are learned per head (bias_p and bias_a): each list holds one value for every head, or H, head
// h's at index h − 1. Like ALiBi it adds no term to X.
struct KerpleParams
{
    static constexpr std::int64_t kMaxHeads = 4096;
    // The reference's eps: r1 and r2 are clamped to at least this before use.
    static constexpr double kEps = 1e-2;
    static constexpr double kMaxR = 1e6;

    std::int64_t heads = 12;
    std::int64_t head = 1; // 1..heads
    std::vector<double> r1 {1.0}; // bias_p: one value, or one per head
    std::vector<double> r2 {1.0}; // bias_a
    KerpleDtype dtype = KerpleDtype::Float32;

    friend bool operator==(const KerpleParams &, const KerpleParams &) = default;
};

} // namespace posenc
