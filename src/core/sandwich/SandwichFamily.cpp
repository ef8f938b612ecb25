// Sandwich (docs/ARCHITECTURE.md, Encoding families): no term added to X; head h adds the
// sinusoid's PE_i . PE_j, shifted by -d/2 and divided by 8h/H, to its attention scores (Chi et al.
// 2023), as NVIDIA NeMo's SandwichRelativePositionEmbedding computes it.
#include "core/FamilySpec.h"

#include "core/sandwich/SandwichBias.h"
#include "core/sandwich/SandwichParamRows.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

Description::Entries sandwichEntries(const Params &params)
{
    const SandwichBias::Description d = SandwichBias::describe(params);
    return {
        {u"terms"_s, d.terms},      {u"inv_freq_first"_s, d.firstFrequency}, {u"inv_freq_last"_s, d.lastFrequency},
        {u"scale"_s, d.scale},      {u"bias_distance_1"_s, d.nearBias},      {u"farthest_bias"_s, d.farthestBias},
        {u"far_mean"_s, d.farMean}, {u"after_query"_s, d.afterQuery},
    };
}

} // namespace

FamilySpec makeSandwichFamily()
{
    // X is s·E alone: the bias of head K, the heads against the distance, and the families.
    return HeadBias::spec(
        SandwichBias::biasFamily(),
        {.word = u"sandwich"_s,
         .help = u"sandwich (the sinusoid's PE·PE per head)"_s,
         .formula = u"no term added; head h adds (Σ<sub>k</sub> cos(r/10000<sup>2k/d</sup>) − d/2)/(8h/H) at "
                    "distance r = |i − j| (Chi et al. 2023; NVIDIA NeMo's Sandwich)"_s,
         .rows = SandwichParamRows::rows,
         .shape = [](const Params &p) { return Description::Entries {{u"head_dim"_s, p.sandwich.headDim}}; },
         .describe = sandwichEntries,
         .describeSource = u"SandwichRelativePositionEmbedding.forward of NVIDIA NeMo"_s,
         .maskMeaning = u"causal (tril: distance 0 after the query) or bidirectional"_s,
         .shapeKeys = {{u"head_dim"_s, u"the per-head dim d"_s}},
         .describeKeys = {
             {u"terms"_s, u"ceil(d/2): the k of torch.arange(1, d/2 + 1), one more than d/2 for an odd d"_s},
             {u"inv_freq_first, inv_freq_last"_s, u"1/10000^(2k/d) for k = 1 and k = terms"_s},
             {u"scale"_s, u"8K/H, the divisor of head K's bias"_s},
             {u"bias_distance_1"_s, u"head K's bias of a key 1 position away"_s},
             {u"farthest_bias"_s, u"head K's bias at distance max-len - 1"_s},
             {u"far_mean"_s, u"-d/2 / scale: the mean the bias tends to over distances far past 1/inv_freq_last"_s},
             {u"after_query"_s, u"(terms - d/2) / scale: what a causal table holds after the query (0 for an even d)"_s},
         },
         .defaultFigures
         = {{u"sandwich-bias"_s, {}}, {u"sandwich-distance"_s, {}}, {u"families"_s, {}}, {u"magnitudes"_s, {}}}});
}

} // namespace posenc
