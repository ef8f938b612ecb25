#pragma once

#include "core/FrequencySchedule.h"
#include "core/Params.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

// RoPE's frequencies for every rope_type of HF transformers' modeling_rope_utils.py, quirks
// included, computed in double (docs/ARCHITECTURE.md, Encoding families). Our own code, checked
// against float64 formulas written in the tests (tst_ropefrequencies).
namespace posenc::RopeFrequencies {

// The columns a head rotates: int(head_dim * partial_rotary_factor), or head_dim for
// proportional, whose tail pairs turn at frequency 0.
std::int64_t rotaryDim(const RopeParams &rope);
// rotaryDim / 2.
std::int64_t pairs(const RopeParams &rope);
// proportional's pairs with a frequency: int(F * head_dim // 2); rotaryDim / 2 for the others.
std::int64_t livePairs(const RopeParams &rope);
// The partial_rotary_factor with which `rope` (proportional, of its head_dim) turns `live` pairs:
// 2 live / head_dim, nudged up where int(F * head_dim // 2) falls short of `live`.
// Precondition: 0 <= live <= head_dim / 2.
double factorForLivePairs(RopeParams rope, std::int64_t live);

// What the rope-frequencies table holds, pair by pair.
struct Table
{
    std::vector<double> inv; // inverse frequency after scaling (0 for proportional's tail)
    std::vector<double> invBefore; // the same type's unscaled frequency
    // yarn's ramp gamma_i (0 kept, 1 divided by the factor); llama3's band, 0 kept, 1 blended,
    // 2 divided; 0 for the other types.
    std::vector<double> band;
    double attentionFactor = 1.0; // what multiplies cos and sin, as HF computes it
};

// get_mscale of _compute_yarn_parameters: YaRN's magnitude scaling 0.1 m ln(scale) + 1, and 1 for a
// scale that does not stretch (<= 1).
double getMscale(double scale, double mscale = 1.0);
// _compute_dynamic_ntk_parameters' base: theta (f seq / L0 - (f - 1))^(r / (r - 2)), seq =
// max(max_len, L0), L0 the original length (max_position_embeddings), r the rotary dim.
double dynamicBase(const Params &params);
// What multiplies cos and sin, as HF computes it: the given attention_factor, else yarn's
// get_mscale ratio or get_mscale(f), longrope's sqrt(1 + ln f / ln L0), 1 for the other types.
double attentionFactor(const Params &params);

// The same parameters under encoding rope: what a family that reads RoPE's rows as they are
// (M-RoPE) gives this file's functions.
Params underRope(const Params &params);
// Sets head_dim, widening d_model to hold it (a head is at most d_model wide): what a check that
// reads a head from a table's width, which may pass the default d_model, sets.
void setHeadDim(Params &params, std::int64_t headDim);

// For valid parameters under encoding rope. `maxLen` is the sequence length: dynamic uses
// max(maxLen, original), longrope the long factors when maxLen exceeds the original length.
Table table(const Params &params);
// The table's frequencies and attention factor, as the anchored kernel turns them.
FrequencySchedule schedule(const Params &params);

// The numbers `posenc describe` prints (docs/ARCHITECTURE.md, Encoding families).
struct Description
{
    RopeType type = RopeType::Default;
    std::int64_t rotaryDim = 0;
    double attentionFactor = 1.0;
    double softmaxScaleFactor = 1.0; // get_mscale(f, mscale_all_dim)^2 for a yarn mscale_all_dim
    double logitScale = 1.0; // attentionFactor^2 * softmaxScaleFactor
    // yarn's correction range before and after rounding and clamping (unset for other types).
    std::optional<double> bandLow, bandHigh, bandLowUsed, bandHighUsed;
    // llama3's bands, or for yarn the pairs with ramp 0, between, 1 (unset for other types).
    std::optional<std::int64_t> pairsKept, pairsBlended, pairsDivided;
    double wavelengthMin = 0.0; // after scaling; proportional's zero frequencies excluded
    double wavelengthMax = 0.0;
    // Liu et al. 2023: 2 ceil((r/2) log_theta(L0 / 2 pi)), the pairs that never turn once within
    // the original context L0; for a model that names no L0 and scales its pairs, the first
    // dimension whose scaled pair turns less than once within max_len (as the model runs them).
    std::int64_t criticalDimension = 0;
    // Liu et al.'s count at L0 (or max_len without one) of the unscaled pairs, whichever rule
    // criticalDimension took; and whether it took the scaled pairs' (no L0, pairs scaled).
    std::int64_t liuCriticalDimension = 0;
    bool criticalOfScaledPairs = false;
    double bf16PositionStep = 0.0; // gap between neighbouring bf16 values at max_len - 1
    std::optional<double> fp16PositionStep; // unset where max_len - 1 overflows fp16
};
Description describe(const Params &params);

// The gap between neighbouring values of a float format with `mantissaBits` explicit bits at
// x >= 0 (x below 1 counts as 1).
double positionStep(double x, int mantissaBits);

} // namespace posenc::RopeFrequencies
