// ALiBi (docs/ARCHITECTURE.md, Encoding families): no term added to X; head k adds -m_k times the
// distance to its attention scores, its slopes from get_slopes (Press et al. 2022).
#include "core/FamilySpec.h"

#include "core/alibi/AlibiLessonNumbers.h"
#include "core/alibi/AlibiParamRows.h"
#include "core/alibi/AlibiSlopes.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What describe prints after the mask, keyed by AlibiWords.json's describeKeys.
Description::Values alibiValues(const Params &params)
{
    const AlibiSlopes::Description d = AlibiSlopes::describe(params);
    return {d.slope, d.slopes, d.geometricHeads, d.interleavedHeads, d.halfWeightDistance, d.farthestBias};
}

} // namespace

FamilySpec makeAlibiFamily()
{
    // Its words are AlibiWords.json's.
    FamilySpec family = HeadBias::spec(
        AlibiSlopes::biasFamily(),
        {.rows = AlibiParamRows::rows,
         .describe = alibiValues,
         .defaultFigures
         = {{u"alibi-bias"_s, {}}, {u"alibi-attention"_s, {}}, {u"alibi-slopes"_s, {}}, {u"families"_s, {}}},
         .lessonNumbers = AlibiLessonNumbers::entries});
    // The symmetric mask is a bidirectional model's -m|i - j| (Jina-BERT-v2, an encoder): every key is
    // seen, after the query too.
    family.attendsBothWays = [](const Params &params) { return params.alibi.mask == AlibiMask::Symmetric; };
    return family;
}

} // namespace posenc
