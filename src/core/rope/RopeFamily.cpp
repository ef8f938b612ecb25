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
    FamilySpec family;
    family.word = u"rope"_s;
    family.kind = FamilyKind::Rotation;
    family.help = u"no term but queries and keys rotated by position (rope)"_s;
    family.formula = u"no term added, X = s·E; each head's query and key are rotated by position, pair i by "
                     "p·θ<sub>i</sub> (Su et al. 2021; Llama, Qwen, Mistral)"_s;
    family.heading = u"RoPE"_s;
    family.rows = RopeParamRows::rows;
    family.describe = ropeEntries;
    family.describeSource = u"HF transformers' modeling_rope_utils.py"_s;
    family.describeKeys = {
        {u"rope_type"_s, u"the type: "_s + RopeTypes::words().join(u", "_s)},
        {u"rotary_dim"_s, u"the columns of a head that turn"_s},
        {u"attention_factor"_s, u"what multiplies cos and sin"_s},
        {u"softmax_scale_factor"_s,
         u"yarn with mscale_all_dim: get_mscale(f, mscale_all_dim)^2, which DeepSeek-style "
         "attention multiplies its softmax scale by; else 1"_s},
        {u"logit_scale"_s, u"attention_factor^2 * softmax_scale_factor: the scaling's effect on q.k"_s},
        {u"band_low, band_high"_s, u"yarn's correction range before rounding and clamping"_s},
        {u"band_low_used, band_high_used"_s, u"the same as used"_s},
        {u"pairs_kept, pairs_blended, pairs_divided"_s, u"llama3's bands, or yarn's pairs with ramp 0, between, 1"_s},
        {u"wavelength_min, wavelength_max"_s, u"2 pi / theta after scaling (frequencies of 0 left out)"_s},
        {u"critical_dimension"_s,
         u"Liu et al. 2023: 2 ceil((r/2) log_theta(L0 / 2 pi)), L0 the original context "
         "(or max-len without one)"_s},
        {u"bf16_position_step, fp16_position_step"_s,
         u"the gap between neighbouring positions bf16 or fp16 holds at max-len - 1 (fp16: "
         "null where it overflows)"_s},
    };
    family.defaultFigures
        = {{u"rope-frequencies"_s, {}}, {u"rope-rotation"_s, {}}, {u"rope-score"_s, {}}, {u"rope-precision"_s, {}}};
    family.lessonNumbers = RopeLessonNumbers::entries;
    return family;
}

} // namespace posenc
