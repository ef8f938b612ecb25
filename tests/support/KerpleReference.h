#pragma once

// Float64 references for KERPLE's log kernel, written from the reference code, never from the code
// under test: chijames/KERPLE, megatron/mpu/layers.py, ParallelKerpleLog.forward,
//   diff = torch.tril(torch.arange(L).view(L, 1).repeat(1, L) + torch.arange(0, -L, -1))
//   diff = diff.to(x.dtype)
//   bias_p.data = bias_p.data.clamp(min=eps); bias_a.data = bias_a.data.clamp(min=eps)   # eps = 1e-2
//   bias = -bias_p * torch.log(1 + bias_a * diff)
// in the dtype of the scores x, each operation rounded to it as torch rounds a CPU operation: in
// float32, then (bfloat16, float16) to the dtype, to nearest with ties to even. No header of the code
// under test: the command line's tests include it too.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace kerpleref {

constexpr double kEps = 1e-2;
enum class Dtype { Float32, BFloat16, Float16 };

// diff[i, j] = i - j below and on the diagonal, 0 above it (torch.tril).
inline std::int64_t diff(std::int64_t i, std::int64_t j)
{
    return j <= i ? i - j : 0;
}

// A float32 result rounded to the dtype: bfloat16 by its bits, float16 by its 11 significant bits
// (its largest finite value 65504; from 65520 on, inf).
inline double toDtype(double x, Dtype dtype)
{
    const float f = static_cast<float>(x);
    if (dtype == Dtype::Float32 || f == 0.0f || !std::isfinite(f))
        return f;
    if (dtype == Dtype::BFloat16) {
        std::uint32_t bits = std::bit_cast<std::uint32_t>(f);
        bits += 0x7fffu + ((bits >> 16) & 1u);
        return std::bit_cast<float>(bits & 0xffff0000u);
    }
    if (std::fabs(f) >= 65520.0f)
        return std::copysign(std::numeric_limits<double>::infinity(), double(f));
    const double step = std::ldexp(1.0, std::max(std::ilogb(f), -14) - 10);
    return std::nearbyint(double(f) / step) * step;
}

// A parameter as forward uses it: stored in the dtype, clamped to eps (itself in the dtype).
inline double used(double r, Dtype dtype)
{
    return std::max(toDtype(r, dtype), toDtype(kEps, dtype));
}

// Query i's bias of key j, each operation in the dtype.
inline double bias(double r1, double r2, std::int64_t i, std::int64_t j, Dtype dtype)
{
    const double p = used(r1, dtype), a = used(r2, dtype);
    const double d = toDtype(double(diff(i, j)), dtype);
    const double inner = toDtype(1.0 + toDtype(a * d, dtype), dtype);
    return toDtype(-p * toDtype(std::log(inner), dtype), dtype);
}

// The same in float64 throughout: the kernel -r1 log(1 + r2 (i - j)) itself.
inline double exact(double r1, double r2, std::int64_t i, std::int64_t j)
{
    return -std::max(r1, kEps) * std::log(1.0 + std::max(r2, kEps) * double(diff(i, j)));
}

} // namespace kerpleref
