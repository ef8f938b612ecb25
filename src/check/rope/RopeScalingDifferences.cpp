#include "check/rope/RopeScalingDifferences.h"

#include "check/DeclaredWords.h"
#include "core/NumberText.h"
#include "core/rope/RopeTypes.h"

#include <tuple>

using namespace Qt::StringLiterals;

namespace posenc::RopeScalingDifferences {

// The scaling's other parameters that differ at one rope_type, each with both values: the
// original length llama3's and YaRN's bands are placed by (transformers' modeling_rope_utils
// _compute_llama3_parameters: low_freq_wavelen = old_context_len / low_freq_factor), and llama3's
// two band factors.
QStringList said(const Params &found, const Params &declared, QStringList &ids)
{
    QStringList sentences;
    const RopeParams &f = found.rope, &d = declared.rope;
    if (RopeTypes::of(f.type).takesOriginal && f.originalMaxLen != d.originalMaxLen) {
        ids.append(kOriginalMaxLen);
        sentences.append(u"original_max_position_embeddings %1 where %2 %3"_s.arg(f.originalMaxLen.value_or(0))
                             .arg(d.originalMaxLen.value_or(0))
                             .arg(DeclaredWords::isDeclared()));
    }
    if (f.type != RopeType::Llama3)
        return sentences;
    for (const auto &[id, name, mine, theirs] :
         {std::tuple {kLowFreqFactor, u"low_freq_factor"_s, f.lowFreqFactor, d.lowFreqFactor},
          std::tuple {kHighFreqFactor, u"high_freq_factor"_s, f.highFreqFactor, d.highFreqFactor}}) {
        if (mine == theirs)
            continue;
        ids.append(id);
        sentences.append(u"%1 %2 where %3 %4"_s.arg(name, NumberText::exact(mine), NumberText::exact(theirs),
                                                    DeclaredWords::isDeclared()));
    }
    return sentences;
}

} // namespace posenc::RopeScalingDifferences
