// KERPLE (docs/ARCHITECTURE.md, Encoding families): no term added to X; head h adds
// −r1_h·log(1 + r2_h·(i − j)) to its attention scores, its log kernel (Chi et al. 2022), as the
// authors' ParallelKerpleLog computes it.
#include "core/FamilySpec.h"

#include "core/kerple/KerpleBias.h"
#include "core/kerple/KerpleParamRows.h"

#include <cmath>

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

// What describe prints after head, keyed by KerpleWords.json's describeKeys.
// A bias past float16's range is torch's -inf there (a distance past 65504 is inf): said as a
// word, since describe --json prints finite numbers only.
Description::Value finiteOrWord(double bias)
{
    if (std::isfinite(bias))
        return bias;
    return bias < 0 ? u"-inf"_s : u"inf"_s;
}

Description::Values kerpleValues(const Params &params)
{
    const KerpleParams &p = params.kerple;
    return {KerpleBias::r1(p, p.head),
            KerpleBias::r2(p, p.head),
            byHead(p, true),
            byHead(p, false),
            KerpleBias::clampedHeads(p),
            KerpleBias::dtypeWord(p.dtype),
            KerpleBias::bias(p, -1),
            finiteOrWord(KerpleBias::bias(p, 1 - params.maxLen)),
            0.0};
}

} // namespace

FamilySpec makeKerpleFamily()
{
    // X is s·E alone: head K's bias in the heatmap, the heads against the offset, the magnitudes.
    // Its words are KerpleWords.json's.
    return HeadBias::spec(
        KerpleBias::biasFamily(),
        {.rows = KerpleParamRows::rows,
         .describe = kerpleValues,
         .defaultFigures
         = {{u"heatmap"_s, {{u"quantity"_s, u"kerple-bias"_s}}}, {u"families"_s, {}}, {u"magnitudes"_s, {}}}});
}

} // namespace posenc
