// KERPLE (docs/ARCHITECTURE.md, Encoding families): no term added to X; head h adds
// −r1_h·log(1 + r2_h·(i − j)) to its attention scores, its log kernel (Chi et al. 2022), as the
// authors' ParallelKerpleLog computes it.
#include "core/FamilySpec.h"

#include "core/kerple/KerpleBias.h"
#include "core/kerple/KerpleParamRows.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// Every head's r1 or r2 as the reference uses it.
std::vector<double> byHead(const KerpleParams &p, bool first)
{
    std::vector<double> values;
    for (std::int64_t h = 1; h <= p.heads; ++h)
        values.push_back(first ? KerpleBias::r1(p, h) : KerpleBias::r2(p, h));
    return values;
}

Description::Entries kerpleEntries(const Params &params)
{
    const KerpleParams &p = params.kerple;
    return {
        {u"r1"_s, KerpleBias::r1(p, p.head)},
        {u"r2"_s, KerpleBias::r2(p, p.head)},
        {u"r1_heads"_s, byHead(p, true)},
        {u"r2_heads"_s, byHead(p, false)},
        {u"clamped_heads"_s, KerpleBias::clampedHeads(p)},
        {u"dtype"_s, KerpleBias::dtypeWord(p.dtype)},
        {u"bias_distance_1"_s, KerpleBias::bias(p, -1)},
        {u"farthest_bias"_s, KerpleBias::bias(p, 1 - params.maxLen)},
        {u"after_query"_s, 0.0},
    };
}

} // namespace

FamilySpec makeKerpleFamily()
{
    // X is s·E alone: head K's bias in the heatmap, the heads against the offset, the magnitudes.
    return HeadBias::spec(
        KerpleBias::biasFamily(),
        {.word = u"kerple"_s,
         .help = u"kerple (logarithmic in the distance)"_s,
         .formula = u"no term added; head h adds −r1<sub>h</sub>·log(1 + r2<sub>h</sub>·(i − j)) to query i's score "
                    "of key j ≤ i, 0 after it, r1 and r2 learned per head (Chi et al. 2022, KERPLE's log kernel)"_s,
         .rows = KerpleParamRows::rows,
         .describe = kerpleEntries,
         .describeSource = u"ParallelKerpleLog.forward of chijames/KERPLE (megatron/mpu/layers.py)"_s,
         .describeKeys = {
             {u"r1, r2"_s, u"head K's bias_p and bias_a as used: in the dtype, at least eps = 0.01"_s},
             {u"r1_heads, r2_heads"_s, u"the same of heads 1 .. H"_s},
             {u"clamped_heads"_s, u"the heads whose r1 or r2 is below eps and taken as eps"_s},
             {u"dtype"_s, u"the dtype of the scores, in which the distances and each operation are rounded"_s},
             {u"bias_distance_1"_s, u"-r1 log(1 + r2): head K's bias of a key 1 position before the query"_s},
             {u"farthest_bias"_s, u"head K's bias at distance max-len - 1"_s},
             {u"after_query"_s, u"what the table holds after the query: torch.tril's distance 0, -r1 log 1 = 0"_s},
         },
         .defaultFigures = {{u"heatmap"_s, {{u"quantity"_s, u"kerple-bias"_s}}}, {u"families"_s, {}},
                            {u"magnitudes"_s, {}}}});
}

} // namespace posenc
