// --apply against a declared reference. The reference's numbers are transformers'
// modeling_rope_utils.py (_compute_*_parameters: inv_freq and attention_factor, computed by
// RopeFrequencies); the comparison of the frequencies is the table check's (RopeCheck's
// nameDeclaredParameter over RopeInvFreq::expect), not one of its own.
#include "check/rope/ApplyReference.h"

#include "check/FamilyCheck.h"
#include "check/rope/RopeCheckWords.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::ApplyReference {

namespace {

// "rope_type llama3 (rope_theta 500000, factor 8, ...), attention factor 1", as the check's
// frequencies are said.
QString referenceWords(const Params &reference)
{
    RopeFit::Hypothesis words;
    words.params = reference;
    words.amplitude = RopeFrequencies::attentionFactor(reference);
    return RopeCheckWords::reference(words).section(u", "_s, 2);
}

} // namespace

QStringList mistakeIds()
{
    return {kAttentionFactor, kAttentionFactorMissing};
}

void compare(ApplyCheck::Result &result, const Params &reference, bool explained, double within, QStringList &lines)
{
    if (!result.params)
        return;
    const qsizetype before = result.mistakes.size();
    // A rotary_dim other than the reference's is named by the partial rotary's lines; the
    // frequencies of two widths are not compared pair by pair.
    const bool sameWidth = RopeFrequencies::rotaryDim(reference.rope) == result.rotaryDim;
    const auto &table = FamilyChecks::of(Encoding::Rope).table;
    if (sameWidth && !explained && table && table->nameDeclaredParameter) {
        TableMatch read;
        read.family = Encoding::Rope;
        read.verdict = CheckVerdict::Variant;
        read.params = result.params;
        if (const auto named = table->nameDeclaredParameter(read, reference)) {
            for (const QString &mistake : named->mistakes) {
                if (!result.mistakes.contains(mistake))
                    result.mistakes.append(mistake);
            }
            lines.append(u"the frequencies differ from the reference declared: "_s + named->diagnosis);
        }
    }
    const double declared = RopeFrequencies::attentionFactor(reference);
    if (std::fabs(result.attentionFactor / declared - 1.0) > within) {
        const bool missing = std::fabs(result.attentionFactor - 1.0) <= within;
        result.mistakes.append(missing ? kAttentionFactorMissing : kAttentionFactor);
        lines.append(u"Y is X turned times %1, where the reference declared multiplies cos and sin by its attention "
                     "factor %2 (modeling_rope_utils.py: attention_factor, the rotary embedding's "
                     "attention_scaling)"_s.arg(NumberText::compact(result.attentionFactor, 6),
                                                NumberText::compact(declared, 6)));
    }
    if (result.mistakes.size() == before)
        result.correctAgainst = u"the reference declared: "_s + referenceWords(reference);
}

} // namespace posenc::ApplyReference
