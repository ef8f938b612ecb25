// RopeSearch's scalings computed the wrong way round, the mistake rope-scaling-reversed
// (docs/ARCHITECTURE.md, Checking a table): llama3's and yarn's, each tried at every original
// length where no correct scaling explained the table.
#include "RopeSearch.h"

namespace posenc::RopeFit {

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
