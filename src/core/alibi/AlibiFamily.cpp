// ALiBi (docs/ARCHITECTURE.md, Encoding families): no term added to X; head k adds -m_k times the
// distance to its attention scores, its slopes from get_slopes (Press et al. 2022).
#include "core/FamilySpec.h"

#include "core/alibi/AlibiLessonNumbers.h"
#include "core/alibi/AlibiParamRows.h"
#include "core/alibi/AlibiSlopes.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

Description::Entries alibiEntries(const Params &params)
{
    const AlibiSlopes::Description d = AlibiSlopes::describe(params);
    return {
        {u"slope"_s, d.slope},
        {u"slopes"_s, d.slopes},
        {u"geometric_heads"_s, d.geometricHeads},
        {u"interleaved_heads"_s, d.interleavedHeads},
        {u"half_weight_distance"_s, d.halfWeightDistance},
        {u"farthest_bias"_s, d.farthestBias},
    };
}

} // namespace

FamilySpec makeAlibiFamily()
{
    FamilySpec family = HeadBias::spec(
        AlibiSlopes::biasFamily(),
        {.word = u"alibi"_s,
         .help = u"alibi (linear in the distance)"_s,
         .formula = u"no term added; head k adds −m<sub>k</sub>·(i − j) to query i's score of key j (Press et al. "
                    "2022; BLOOM, MPT, Falcon-RW, Baichuan-13B, Jina-BERT-v2)"_s,
         .rows = AlibiParamRows::rows,
         .describe = alibiEntries,
         .describeSource = u"get_slopes of ofirpress/attention_with_linear_biases"_s,
         .maskMeaning = u"causal or symmetric"_s,
         .describeKeys = {
             {u"slope"_s, u"m_K, head K's slope"_s},
             {u"slopes"_s, u"m_1 .. m_H"_s},
             {u"geometric_heads"_s, u"2^floor(log2 H): the heads whose slopes are 2^(-8k/geometric_heads)"_s},
             {u"interleaved_heads"_s, u"H - geometric_heads: every other slope of twice that power"_s},
             {u"half_weight_distance"_s, u"ln 2 / m_K: the distance at which head K's bias reaches -ln 2"_s},
             {u"farthest_bias"_s, u"-m_K (max-len - 1): the bias of the farthest key"_s},
         },
         .defaultFigures = {{u"alibi-bias"_s, {}}, {u"alibi-attention"_s, {}}, {u"alibi-slopes"_s, {}}, {u"families"_s, {}}}});
    family.lessonNumbers = AlibiLessonNumbers::entries;
    return family;
}

} // namespace posenc
