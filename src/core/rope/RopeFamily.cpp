// RoPE (docs/ARCHITECTURE.md, Encoding families): no term added to X; each head's query and key
// rotated by position, as HF transformers' modeling_rope_utils.py computes every rope_type.
#include "core/FamilySpec.h"

#include "core/ParamText.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeLessonNumbers.h"
#include "core/rope/RopeParamRows.h"
#include "core/rope/RopeTypes.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// RoPE's keys in the order of the table, which --help lists too.
Description::Entries ropeEntries(const Params &params)
{
    const RopeFrequencies::Description d = RopeFrequencies::describe(params);
    return {
        {u"rope_type"_s, RopeTypes::word(params.rope.type)},
        {u"rotary_dim"_s, d.rotaryDim},
        {u"attention_factor"_s, d.attentionFactor},
        {u"softmax_scale_factor"_s, d.softmaxScaleFactor},
        {u"logit_scale"_s, d.logitScale},
        {u"band_low"_s, Description::orNull(d.bandLow)},
        {u"band_high"_s, Description::orNull(d.bandHigh)},
        {u"band_low_used"_s, Description::orNull(d.bandLowUsed)},
        {u"band_high_used"_s, Description::orNull(d.bandHighUsed)},
        {u"pairs_kept"_s, Description::orNull(d.pairsKept)},
        {u"pairs_blended"_s, Description::orNull(d.pairsBlended)},
        {u"pairs_divided"_s, Description::orNull(d.pairsDivided)},
        {u"wavelength_min"_s, d.wavelengthMin},
        {u"wavelength_max"_s, d.wavelengthMax},
        {u"critical_dimension"_s, d.criticalDimension},
        {u"bf16_position_step"_s, d.bf16PositionStep},
        {u"fp16_position_step"_s, Description::orNull(d.fp16PositionStep)},
    };
}

} // namespace

FamilySpec makeRopeFamily()
{
    FamilySpec family = Families::fromWords(FamilyWords(u"Rope"_s), FamilyKind::Rotation);
    family.rows = RopeParamRows::rows;
    family.describe = ropeEntries;
    // The meaning of rope_type lists the types (RopeTypes).
    for (auto &[keys, meaning] : family.describeKeys)
        if (keys == u"rope_type"_s)
            meaning = meaning.arg(RopeTypes::words().join(u", "_s));
    family.defaultFigures
        = {{u"rope-frequencies"_s, {}}, {u"rope-rotation"_s, {}}, {u"rope-score"_s, {}}, {u"rope-precision"_s, {}}};
    family.lessonNumbers = RopeLessonNumbers::entries;
    return family;
}

} // namespace posenc
