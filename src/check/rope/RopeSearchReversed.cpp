// RopeSearch's scalings computed the wrong way round, the mistake rope-scaling-reversed
// (docs/ARCHITECTURE.md, Checking a table): llama3's and yarn's, each tried at every original
// length where no correct scaling explained the table.
#include "RopeSearch.h"

#include "core/rope/RopeFrequencies.h"

#include <cmath>
#include <numbers>

namespace posenc::RopeFit {

std::vector<double> reversedLlama3(const Params &params, ScalingMistake mistake)
{
    // modeling_rope_utils.py, _compute_llama3_parameters, with the bands' roles exchanged or the
    // smooth factor reversed.
    const RopeFrequencies::Table t = RopeFrequencies::table(params);
    const RopeParams &rope = params.rope;
    const double factor = rope.factor.value_or(1.0);
    const double original = double(rope.originalMaxLen.value_or(1));
    const double low = rope.lowFreqFactor, high = rope.highFreqFactor;
    std::vector<double> w(t.invBefore.size());
    for (std::size_t i = 0; i < w.size(); ++i) {
        const double inv = t.invBefore[i];
        const double wavelength = 2.0 * std::numbers::pi / inv;
        const bool exchanged = mistake == ScalingMistake::BandsExchanged;
        if (wavelength < original / high)
            w[i] = exchanged ? inv / factor : inv;
        else if (wavelength > original / low || low == high)
            w[i] = exchanged ? inv : inv / factor;
        else {
            const double smooth = 1.0 - (original / wavelength - low) / (high - low);
            w[i] = (1.0 - smooth) * inv / factor + smooth * inv;
        }
    }
    return w;
}

std::vector<double> reversedYarn(const Params &params)
{
    // modeling_rope_utils.py, _compute_yarn_parameters: inv_freq_extrapolation_factor = 1 - ramp,
    // inv_freq = inv_freq_interpolation * (1 - extrapolation_factor) + inv_freq_extrapolation *
    // extrapolation_factor. Here the extrapolation factor is the ramp itself: the fast pairs
    // (ramp 0) divided by the factor, the slow ones (ramp 1) kept.
    const RopeFrequencies::Table t = RopeFrequencies::table(params);
    const double factor = params.rope.factor.value_or(1.0);
    std::vector<double> w(t.invBefore.size());
    for (std::size_t i = 0; i < w.size(); ++i)
        w[i] = t.invBefore[i] / factor * (1.0 - t.band[i]) + t.invBefore[i] * t.band[i];
    return w;
}

// Llama 3's scaling with its blend reversed, or its kept and divided bands exchanged: Meta's
// published bands (low 1, high 4) at each original length.
void RopeSearch::tryReversedLlama3(const Params &p, double factor)
{
    for (std::int64_t original = kLeastOriginal; original <= kMostOriginal; original *= 2) {
        Params q = p;
        q.rope.type = RopeType::Llama3;
        q.rope.factor = factor;
        q.rope.originalMaxLen = original;
        q.rope.lowFreqFactor = 1.0;
        q.rope.highFreqFactor = 4.0;
        for (const ScalingMistake mistake : {ScalingMistake::BlendReversed, ScalingMistake::BandsExchanged}) {
            if (consider(q, {}, mistake))
                return;
        }
    }
}

// YaRN's ramp taken where 1 - ramp belongs (the interpolated and extrapolated bands exchanged):
// HF's defaults beta_fast 32, beta_slow 1, truncated or not, at each original length.
void RopeSearch::tryReversedYarn(const Params &p, double factor)
{
    for (std::int64_t original = kLeastOriginal; original <= kMostOriginal; original *= 2) {
        Params q = p;
        q.rope.type = RopeType::Yarn;
        q.rope.factor = factor;
        q.rope.originalMaxLen = original;
        for (const bool truncate : {true, false}) {
            q.rope.yarnTruncate = truncate;
            if (consider(q, {}, ScalingMistake::BlendReversed))
                return;
        }
    }
}

} // namespace posenc::RopeFit
