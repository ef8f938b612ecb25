#pragma once

#include "check/CellTolerance.h"

#include <cmath>
#include <cstdint>
#include <vector>

// What a mask's fill is in a table of biases: the one rule every reader of a bias's masked cells
// takes, a family's fit and a declared reference alike (docs/ARCHITECTURE.md, Checking a table).
// A mask writes −inf, or its dtype's lowest value: transformers' causal mask is
// torch.full(..., torch.finfo(dtype).min) (src/transformers/modeling_attn_mask_utils.py,
// AttentionMaskConverter._make_causal_mask; _prepare_4d_causal_attention_mask's masked_fill), and
// a bias added to it stays at that value (its unit there is 2^104 in float32).
namespace posenc::MaskFill {

// Below this a value is float32's or bfloat16's lowest (−3.4028e38, −3.3895e38), no bias.
constexpr double kBelow = -1e30;
// float16's lowest, finfo(torch.float16).min: a mask's fill in a table whose values float16 holds.
constexpr double kFloat16Lowest = -65504.0;

// Whether `value` is a mask's fill in a table whose values `format` holds (valuesFormat): −inf and
// float32's or bfloat16's lowest in any table, float16's lowest in a table whose values float16
// holds (an fp16 model's mask, or its bias upcast), never in one of float32 values.
inline bool is(double value, ValueFormat format)
{
    return value <= kBelow || (format == ValueFormat::Float16 && value == kFloat16Lowest);
}

// The table's value precision, the one `is` reads: the narrowest format holding every value but
// the fills any table may hold (−inf, float32's and bfloat16's lowest), so that a mask's −inf does
// not make a float16 table's values float32's. −65504 counts as a value: a table of float16 values
// holds it, one of bfloat16 or float32 values does not.
inline ValueFormat valuesFormat(const float *values, std::int64_t count)
{
    std::vector<float> kept;
    kept.reserve(std::size_t(count));
    for (std::int64_t i = 0; i < count; ++i) {
        if (!(double(values[i]) <= kBelow))
            kept.push_back(values[i]);
    }
    return representableFormat(kept.data(), std::int64_t(kept.size()));
}

} // namespace posenc::MaskFill
