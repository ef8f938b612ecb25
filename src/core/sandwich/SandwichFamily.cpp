// Sandwich (docs/ARCHITECTURE.md, Encoding families): no term added to X; head h adds the
// sinusoid's PE_i . PE_j, shifted by -d/2 and divided by 8h/H, to its attention scores (Chi et al.
// 2023), as NVIDIA NeMo's SandwichRelativePositionEmbedding computes it.
#include "core/FamilySpec.h"

#include "core/sandwich/SandwichBias.h"
#include "core/sandwich/SandwichParamRows.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What describe prints after the mask, keyed by SandwichWords.json's describeKeys.
Description::Values sandwichValues(const Params &params)
{
    const SandwichBias::Description d = SandwichBias::describe(params);
    return {d.terms, d.firstFrequency, d.lastFrequency, d.scale, d.nearBias, d.farthestBias, d.farMean, d.afterQuery};
}

} // namespace

FamilySpec makeSandwichFamily()
{
    // X is s·E alone: the bias of head K, the heads against the distance, and the families. Its
    // words are SandwichWords.json's.
    return HeadBias::spec(
        SandwichBias::biasFamily(),
        {.rows = SandwichParamRows::rows,
         .shape = [](const Params &p) { return Description::Values {p.sandwich.headDim}; },
         .describe = sandwichValues,
         .defaultFigures
         = {{u"sandwich-bias"_s, {}}, {u"sandwich-distance"_s, {}}, {u"families"_s, {}}, {u"magnitudes"_s, {}}}});
}

} // namespace posenc
