#pragma once

#include "check/CellTolerance.h"

#include <cmath>

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

// Whether `value` is a mask's fill in a table whose values `format` holds.
inline bool is(double value, ValueFormat format)
{
    return value <= kBelow || (format == ValueFormat::Float16 && value == kFloat16Lowest);
}

} // namespace posenc::MaskFill
