#pragma once

#include "core/FrequencySchedule.h"
#include "core/Params.h"

#include <cstdint>

namespace posenc {

// What one column of a sinusoidal table holds: sin or cos of the angle p * w_pair.
struct ColumnRole
{
    std::int64_t pair = 0;
    bool isCos = false;
    friend bool operator==(const ColumnRole &, const ColumnRole &) = default;
};

// The paper's frequencies w_i = exp(-2 i ln(b) / d), in double, and where each lives.
namespace Frequencies {

std::int64_t pairCount(std::int64_t dModel); // ceil(d / 2): pairs holding a sine
double angular(std::int64_t pair, std::int64_t dModel, double base);
// The schedule of the sinusoidal table: w_0 .. w_{ceil(d/2) - 1}, amplitude 1.
FrequencySchedule schedule(std::int64_t dModel, double base);
double wavelength(std::int64_t pair, std::int64_t dModel, double base); // 2 pi / w
// `cosFirst` (diffusers' flip_sin_to_cos, split layout only): the d - ceil(d/2) cosines before the
// ceil(d/2) sines.
ColumnRole role(std::int64_t column, std::int64_t dModel, Layout layout, bool cosFirst = false);
// The column holding the sine (isCos false) or cosine of a pair; -1 where d is odd and the
// last pair has no cosine column.
std::int64_t column(ColumnRole role, std::int64_t dModel, Layout layout, bool cosFirst = false);
// The same for a family's parameters: their layout, flip and shifted frequencies.
ColumnRole role(std::int64_t column, std::int64_t dModel, const SinusoidalParams &params);
std::int64_t column(ColumnRole role, std::int64_t dModel, const SinusoidalParams &params);
double angular(std::int64_t pair, std::int64_t dModel, const SinusoidalParams &params);
double wavelength(std::int64_t pair, std::int64_t dModel, const SinusoidalParams &params);
FrequencySchedule schedule(std::int64_t dModel, const SinusoidalParams &params);

} // namespace Frequencies

} // namespace posenc
