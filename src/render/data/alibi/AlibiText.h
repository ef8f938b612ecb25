#pragma once

#include "core/Params.h"

#include <QString>

// The words and numbers the ALiBi figures show of the parameters, shared by their data and their
// drawing: a slope as a number and as the power of two it is, the interleave of the heads.
namespace posenc::AlibiText {

// "0.0884 (2⁻³·⁵)": the slope to three significant digits, and its power of two where the
// exponent is a multiple of 1/64 (every slope of up to 512 heads).
QString slopeText(double slope);
// The power of two alone: "2⁻³·⁵", or "" where the exponent is not a multiple of 1/64.
QString powerText(double slope);
// What the heads after the largest power of two P <= H are, in words: "heads 9–12 take every
// other slope of the 16-head series (its 1st, 3rd, 5th and 7th): the first above head 1's slope,
// each other one halfway between two slopes of heads 1–8 on a log scale"; "" where H is a power
// of two.
QString interleaveText(std::int64_t heads);
// "H = 12 heads, head K = 3 (m = 0.25 (2⁻²))".
QString headText(const AlibiParams &alibi);
// "causal mask" or "symmetric (bidirectional)".
QString maskText(AlibiMask mask);

} // namespace posenc::AlibiText
