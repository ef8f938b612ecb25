#pragma once

#include "core/Params.h"

#include <cstdint>

// How far a model's context is stretched, for comparing every rope_type on it (docs/ARCHITECTURE.md,
// Encoding families): the rope-scalings figure draws each type at this stretch, and the lessons
// state what each type does there, from the same function.
namespace posenc::RopeStretch {

// The factor taken where the parameters give none and max_len stretches no given original context.
inline constexpr double kAssumedFactor = 4.0;

struct Stretch
{
    double factor = 1.0;
    bool factorAssumed = false; // the parameters give none
    std::int64_t original = 0; // L0
    bool originalAssumed = false; // the parameters give none: max_len
    std::int64_t extended = 0; // the context the scalings stretch to
};

// The parameters' factor, or how far max_len stretches a given original context, else
// kAssumedFactor; the original context, or max_len; and the context stretched to: max_len past a
// given original context, else the factor times the original.
Stretch of(const Params &params);

// The parameters of `type` for the model of `params`, at `stretch`: the model's own type as it is,
// another with the stretch's factor and original context and the model's other keys (yarn's mscale
// pair and an explicit attention factor only for the types that read them).
Params under(const Params &params, RopeType type, const Stretch &stretch);

} // namespace posenc::RopeStretch
