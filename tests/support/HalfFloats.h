#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

// What torch holds of a float32 value in bfloat16 and float16 (tensor.to(torch.bfloat16) and
// .to(torch.float16)), as float32: to nearest, ties to even, on the float's bits.
namespace halffloats {

// bfloat16: the upper 16 bits kept.
inline float toBFloat16(float x)
{
    std::uint32_t u = std::bit_cast<std::uint32_t>(x);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return std::bit_cast<float>(u & 0xFFFF0000u);
}

// float16: 10 bits of mantissa kept, and below float16's least normal 2^-14 a multiple of its
// least subnormal 2^-24 (values past 65504 are not handled).
inline float toFloat16(float x)
{
    if (std::fabs(x) < 0x1p-14f)
        return std::nearbyint(x * 0x1p24f) * 0x1p-24f;
    std::uint32_t u = std::bit_cast<std::uint32_t>(x);
    u += 0xFFFu + ((u >> 13) & 1u);
    return std::bit_cast<float>(u & ~0x1FFFu);
}

} // namespace halffloats
