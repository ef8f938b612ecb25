#include "RopeLessonNumbers.h"

#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/positions/BatchLayout.h"
#include "core/rope/RopeFrequencies.h"
#include "core/rope/RopeLayoutScore.h"
#include "core/rope/RopeStretch.h"
#include "core/rope/RopeText.h"
#include "core/rope/RopeTypes.h"

#include <functional>

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::RopeLessonNumbers {

using namespace LessonNumbers;

namespace {

const QString kNotRope = u"not here: the encoding is not rope"_s;
// The figure that draws the scores of both layouts (a slide quoting them shows it).
const QString kLayoutsFigure = u"rope-layouts"_s;

bool isRope(const Params &p)
{
    return p.encoding == Encoding::Rope;
}

using RopeLayoutScore::dot;
using RopeLayoutScore::lessonVector;
using RopeLayoutScore::rotated;

// <R(m) q, R(n) k> for the lessons' q and k, in `layout`.
Number ropeScore(const Params &p, double m, double n, RopeLayout layout)
{
    if (!isRope(p))
        return none(kNotRope);
    return real(RopeLayoutScore::score(p, RopeFrequencies::table(p), m, n, layout));
}

// The same score in the model's layout or in the other (`own`), in the digits that tell it from
// the other layout's: the lesson sets one against the other ("−1.002 ... but −1.003 in the other").
Number layoutScore(const Params &p, double n, bool own)
{
    if (!isRope(p))
        return none(kNotRope);
    const RopeFrequencies::Table table = RopeFrequencies::table(p);
    const RopeLayout other = RopeLayoutScore::other(p.rope.layout);
    const double right = RopeLayoutScore::score(p, table, 0.0, n, p.rope.layout);
    const double wrong = RopeLayoutScore::score(p, table, 0.0, n, other);
    return own ? realApart(right, wrong) : realApart(wrong, right);
}

// Where yarn's attention factor comes from, as transformers' _compute_yarn_parameters reads the
// config (RopeFrequencies' yarnAttention).
Number ropeAttentionRule(const Params &p)
{
    if (!isRope(p) || p.rope.type != RopeType::Yarn)
        return none(u"not here: the scaling is not yarn"_s);
    if (p.rope.attentionFactor)
        return word(u"the attention_factor it sets"_s);
    if (p.rope.mscale && p.rope.mscaleAllDim && *p.rope.mscale != 0.0 && *p.rope.mscaleAllDim != 0.0)
        return word(u"get_mscale(f, mscale) / get_mscale(f, mscale_all_dim), mscale %1 over mscale_all_dim %2"_s.arg(
            QString::number(*p.rope.mscale), QString::number(*p.rope.mscaleAllDim)));
    return word(u"0.1·ln f + 1"_s);
}

Number ropeMscaleAllDim(const Params &p)
{
    return isRope(p) && p.rope.mscaleAllDim ? real(*p.rope.mscaleAllDim) : none(u"none (no mscale_all_dim given)"_s);
}

// <q, R(k) q> / |q|^2 for q all ones over head_dim: (2 sum_i cos(k theta_i) + unrotated) / head_dim.
// A distance past the farthest key the attention sees (chunked or sliding-window layers,
// BatchLayout::farthestKey): no score of the model is taken there, so no number is quoted for it.
std::optional<Number> pastReach(const Params &p, double k)
{
    const std::int64_t farthest = BatchLayout::farthestKey(p);
    if (k <= double(farthest) || farthest >= p.maxLen - 1)
        return std::nullopt;
    return none(u"its layers %1: no key lies %2 back"_s.arg(BatchLayout::farthestKeyWhy(p), NumberText::compact(k)));
}

Number ropeOnes(const Params &p, double k)
{
    if (!isRope(p))
        return none(kNotRope);
    if (auto past = pastReach(p, k))
        return *past;
    const RopeFrequencies::Table table = RopeFrequencies::table(p);
    double sum = double(p.rope.headDim) - 2.0 * double(table.inv.size());
    for (const double theta : table.inv)
        sum += 2.0 * std::cos(k * theta);
    return real(sum / double(p.rope.headDim));
}

// RoFormer's bound (1/h) sum_{j=1..h} |S_j|, S_j = sum_{i<j} e^{i k theta_i}.
Number ropeBound(const Params &p, double k)
{
    if (!isRope(p))
        return none(kNotRope);
    if (auto past = pastReach(p, k))
        return *past;
    const RopeFrequencies::Table table = RopeFrequencies::table(p);
    double re = 0.0, im = 0.0, sum = 0.0;
    for (const double theta : table.inv) {
        re += std::cos(k * theta);
        im += std::sin(k * theta);
        sum += std::hypot(re, im);
    }
    return table.inv.empty() ? real(0.0) : real(sum / double(table.inv.size()));
}

// The wavelength 2 pi / theta_i of the first or the last pair that turns, after or before scaling.
Number ropeWavelength(const Params &p, bool last, bool scaled)
{
    if (!isRope(p))
        return none(kNotRope);
    const RopeFrequencies::Table table = RopeFrequencies::table(p);
    const std::vector<double> &inv = scaled ? table.inv : table.invBefore;
    std::size_t i = 0;
    if (last) {
        i = inv.size();
        while (i > 0 && !(inv[i - 1] > 0.0))
            --i;
        if (i == 0)
            return none(u"no pair turns"_s);
        --i;
    }
    return real(2.0 * std::numbers::pi / inv[i]);
}

// A count of RoPE's description that only some types have.
Number ropeCount(const Params &p, std::optional<std::int64_t> RopeFrequencies::Description::*member)
{
    if (!isRope(p))
        return none(kNotRope);
    const auto value = RopeFrequencies::describe(p).*member;
    return value ? integer(*value) : none(u"only llama3 and yarn sort the pairs into bands"_s);
}

// NTK's (dynamic) raised base for these parameters: theta (f seq / L0 - (f - 1))^(r / (r - 2)),
// seq = max(L, L0).
Number ropeDynamicBase(const Params &p)
{
    if (!isRope(p))
        return none(kNotRope);
    if (!p.rope.factor || !p.rope.originalMaxLen)
        return none(u"not here: it needs a factor and an original length"_s);
    const double r = double(RopeFrequencies::rotaryDim(p.rope));
    if (r < 4.0)
        return none(u"not here: dynamic needs a rotary dim of 4 or more"_s);
    return real(RopeFrequencies::dynamicBase(p));
}

// The scaling of the model in words.
QString scalingWords(RopeType type)
{
    switch (type) {
    case RopeType::Default:
        return u"no scaling"_s;
    case RopeType::Linear:
        return u"linear scaling (position interpolation)"_s;
    case RopeType::Dynamic:
        return u"dynamic NTK scaling"_s;
    case RopeType::Yarn:
        return u"YaRN"_s;
    case RopeType::LongRope:
        return u"LongRoPE"_s;
    case RopeType::Llama3:
        return u"llama3 scaling"_s;
    case RopeType::Proportional:
        return u"proportional RoPE"_s;
    }
    return RopeTypes::word(type);
}

// A number of `type`'s scaling of the model at the rope-scalings figure's stretch (RopeStretch):
// what the type does to this model, the model's own type as it is.
Number asType(const Params &p, RopeType type, const std::function<Number(const Params &)> &of)
{
    if (!isRope(p))
        return none(kNotRope);
    const Params under = RopeStretch::under(p, type, RopeStretch::of(p));
    if (!under.isValid())
        return none(u"%1 cannot be applied to these parameters"_s.arg(RopeTypes::word(type)));
    return of(under);
}

// YaRN as a model that names no attention_factor, mscale or mscale_all_dim scales it: its attention
// factor 0.1·ln f + 1 (transformers' _compute_yarn_parameters, get_mscale), which the sentence on
// what YaRN would do states, whatever attention factor the model's own parameters give.
Params yarnDefaultAttention(Params yarn)
{
    yarn.rope.attentionFactor.reset();
    yarn.rope.mscale.reset();
    yarn.rope.mscaleAllDim.reset();
    return yarn;
}

Number bandCount(const Params &p, RopeType type, std::optional<std::int64_t> RopeFrequencies::Description::*member)
{
    return asType(p, type, [member](const Params &under) {
        const auto value = RopeFrequencies::describe(under).*member;
        return value ? integer(*value) : none(u"no bands"_s);
    });
}

// A condition per rope_type, "rope_is_llama3": the model scales with it.
QList<Entry> typeConditions()
{
    QList<Entry> list;
    for (const RopeTypes::TypeSpec &spec : RopeTypes::all()) {
        const RopeType type = spec.type;
        list.append({u"rope_is_"_s + spec.word, u"a condition: the model's rope_type is %1"_s.arg(spec.word),
                     [type](const Params &p) {
                         if (!isRope(p))
                             return none(kNotRope);
                         return condition(p.rope.type == type,
                                          u"its rope_type is %1"_s.arg(RopeTypes::word(p.rope.type)));
                     }});
    }
    return list;
}

// The numbers of the model's scaling and of the others at the rope-scalings figure's stretch.
QList<Entry> scalingEntries()
{
    return {
        {u"rope_unit_attention"_s, u"a condition: the attention factor is 1, the rotation keeps lengths"_s,
         [](const Params &p) {
             return isRope(p)
                 ? condition(RopeFrequencies::attentionFactor(p) == 1.0, u"its attention factor is not 1"_s)
                 : none(kNotRope);
         }},
        {u"rope_layout"_s, u"how the model pairs its columns, in words"_s,
         [](const Params &p) {
             return !isRope(p)                       ? none(kNotRope)
                 : p.rope.layout == RopeLayout::Half ? word(u"as rotate_half does"_s)
                                                     : word(u"interleaved"_s);
         }},
        // The facts a lesson's code box is chosen by (LessonCode): the pairs' layout and how much of
        // a head turns.
        {u"rope_half"_s, u"a condition: the model pairs columns (i, i + r/2), as rotate_half does"_s,
         [](const Params &p) {
             return isRope(p) ? condition(p.rope.layout == RopeLayout::Half, u"it pairs columns (2i, 2i + 1)"_s)
                              : none(kNotRope);
         }},
        {u"rope_interleaved"_s, u"a condition: the model pairs columns (2i, 2i + 1), as rotate_every_two does"_s,
         [](const Params &p) {
             return isRope(p) ? condition(p.rope.layout != RopeLayout::Half, u"it pairs columns (i, i + r/2)"_s)
                              : none(kNotRope);
         }},
        {u"rope_partial"_s, u"a condition: RoPE turns fewer columns than the head has"_s,
         [](const Params &p) {
             return isRope(p) ? condition(RopeFrequencies::rotaryDim(p.rope) < p.rope.headDim,
                                          u"it turns every column of the head"_s)
                              : none(kNotRope);
         }},
        {u"rope_whole"_s, u"a condition: RoPE turns every column of the head"_s,
         [](const Params &p) {
             return isRope(p)
                 ? condition(RopeFrequencies::rotaryDim(p.rope) >= p.rope.headDim, u"it turns only part of the head"_s)
                 : none(kNotRope);
         }},
        {u"as_dynamic_base"_s, u"dynamic NTK's base at the view's stretch: θ·(f·L/L₀ − (f − 1))^(r/(r − 2))"_s,
         [](const Params &p) {
             return asType(p, RopeType::Dynamic, [](const Params &u) {
                 return RopeFrequencies::rotaryDim(u.rope) < 4 ? none(u"dynamic needs a rotary dim of 4 or more"_s)
                                                               : real(RopeFrequencies::dynamicBase(u));
             });
         }},
        {u"stretch_factor"_s,
         u"the factor the rope-scalings view stretches by: the model's, else max_len / L₀, else 4"_s,
         [](const Params &p) { return isRope(p) ? real(RopeStretch::of(p).factor) : none(kNotRope); }},
        {u"stretch_original"_s, u"the original context the rope-scalings view stretches: L₀, else max_len"_s,
         [](const Params &p) { return isRope(p) ? integer(RopeStretch::of(p).original) : none(kNotRope); }},
        {u"stretch_extended"_s, u"the context the rope-scalings view stretches to"_s,
         [](const Params &p) { return isRope(p) ? integer(RopeStretch::of(p).extended) : none(kNotRope); }},
        {u"as_llama3_kept"_s, u"the pairs llama3 keeps at the view's stretch (the model's own where it is llama3)"_s,
         [](const Params &p) { return bandCount(p, RopeType::Llama3, &RopeFrequencies::Description::pairsKept); }},
        {u"as_llama3_blended"_s, u"… blends"_s,
         [](const Params &p) { return bandCount(p, RopeType::Llama3, &RopeFrequencies::Description::pairsBlended); }},
        {u"as_llama3_divided"_s, u"… divides by the factor"_s,
         [](const Params &p) { return bandCount(p, RopeType::Llama3, &RopeFrequencies::Description::pairsDivided); }},
        {u"as_yarn_kept"_s, u"the pairs YaRN keeps (ramp 0) at the view's stretch (the model's own where it is yarn)"_s,
         [](const Params &p) { return bandCount(p, RopeType::Yarn, &RopeFrequencies::Description::pairsKept); }},
        {u"as_yarn_blended"_s, u"… blends (ramp between 0 and 1)"_s,
         [](const Params &p) { return bandCount(p, RopeType::Yarn, &RopeFrequencies::Description::pairsBlended); }},
        {u"as_yarn_divided"_s, u"… divides by the factor (ramp 1)"_s,
         [](const Params &p) { return bandCount(p, RopeType::Yarn, &RopeFrequencies::Description::pairsDivided); }},
        {u"as_yarn_attention"_s, u"YaRN's default attention factor, 0.1·ln f + 1, at the view's stretch"_s,
         [](const Params &p) {
             return asType(p, RopeType::Yarn, [](const Params &u) {
                 return factor(RopeFrequencies::attentionFactor(yarnDefaultAttention(u)));
             });
         }},
        {u"as_yarn_logits"_s, u"what YaRN's default does to q·k at the view's stretch: (0.1·ln f + 1)²"_s,
         [](const Params &p) {
             return asType(p, RopeType::Yarn, [](const Params &u) {
                 return factor(RopeFrequencies::describe(yarnDefaultAttention(u)).logitScale);
             });
         }},
    };
}

// How far back the model's attention lets a query see: rope-decay plotted Llama 4 Scout's
// distances to 131,071, which its chunked RoPE layers never score past 8,191.
QList<Entry> reachEntries()
{
    return {
        {u"rope_farthest"_s,
         u"the farthest distance a query's key lies within the model's chunks or sliding window, where "
         "they stop it short of max_len − 1 (BatchLayout::farthestKey)"_s,
         [](const Params &p) {
             const std::int64_t farthest = BatchLayout::farthestKey(p);
             return isRope(p) && farthest < p.maxLen - 1 ? integer(farthest)
                                                         : none(u"its attention sees every distance within max_len"_s);
         },
         u"rope-score"_s},
        {u"rope_farthest_why"_s, u"why: the chunks or the sliding window its layers attend within"_s,
         [](const Params &p) {
             const QString why = BatchLayout::farthestKeyWhy(p);
             return isRope(p) && !why.isEmpty() ? word(why)
                                                : none(u"its attention sees every distance within max_len"_s);
         }},
    };
}

// RoFormer's bound (1/h)·Σⱼ|Sⱼ| at the distances rope-decay quotes.
QList<Entry> boundEntries()
{
    return {
        {u"rope_bound_0"_s, u"RoFormer's bound (1/h)·Σⱼ|Sⱼ| at distance 0: (h + 1)/2"_s,
         [](const Params &p) { return ropeBound(p, 0.0); }},
        {u"rope_bound_100"_s, u"RoFormer's bound at distance 100"_s,
         [](const Params &p) { return ropeBound(p, 100.0); }},
        {u"rope_bound_1000"_s, u"RoFormer's bound at distance 1000"_s,
         [](const Params &p) { return ropeBound(p, 1000.0); }},
        // The bound is no monotone decay: Gemma 4's rises from 73.4 at 100 to 74.9 at 1000,
        // where rope-decay said it "falls ... to 74.9 at 1000".
        {u"rope_bound_falls_past_100"_s, u"a condition: RoFormer's bound is lower at 1000 than at 100"_s,
         [](const Params &p) {
             const Number at100 = ropeBound(p, 100.0), at1000 = ropeBound(p, 1000.0);
             return condition(at100.value && at1000.value && *at1000.value < *at100.value,
                              u"the bound at 1000 is not below the bound at 100"_s);
         }},
    };
}

} // namespace

QList<Entry> entries()
{
    return typeConditions() + scalingEntries() + float32Entries() + reachEntries() + boundEntries()
        + QList<Entry> {
            {u"rope_type"_s, u"the model's rope_type"_s,
             [](const Params &p) { return isRope(p) ? word(RopeTypes::word(p.rope.type)) : none(kNotRope); }},
            {u"rope_scaling"_s, u"the model's scaling in words: \"llama3 scaling\", \"YaRN\", \"no scaling\""_s,
             [](const Params &p) { return isRope(p) ? word(scalingWords(p.rope.type)) : none(kNotRope); }},
            {u"rope_scaled"_s, u"a condition: the model scales its rotary frequencies"_s,
             [](const Params &p) {
                 return isRope(p) ? condition(p.rope.type != RopeType::Default, u"it has no scaling"_s)
                                  : none(kNotRope);
             }},
            {u"rope_head_dim"_s, u"RoPE's head_dim"_s,
             [](const Params &p) { return isRope(p) ? integer(p.rope.headDim) : none(kNotRope); }},
            {u"rope_rotary_dim"_s, u"the columns of a head that RoPE rotates: int(head_dim · partial_rotary_factor)"_s,
             [](const Params &p) { return isRope(p) ? integer(RopeFrequencies::rotaryDim(p.rope)) : none(kNotRope); }},
            // The columns proportional RoPE's live pairs turn, over which every other rope_type
            // takes its exponent (int(head_dim · partial_rotary_factor)) where proportional takes head_dim.
            {u"rope_live_columns"_s, u"the columns of a head that turn: twice the turning pairs"_s,
             [](const Params &p) { return isRope(p) ? integer(2 * RopeFrequencies::livePairs(p.rope)) : none(kNotRope); }},
            {u"rope_pairs"_s, u"the rotary pairs, rotary dim / 2"_s,
             [](const Params &p) { return isRope(p) ? integer(RopeFrequencies::pairs(p.rope)) : none(kNotRope); }},
            // Proportional RoPE turns only its first F·r/2 pairs: rope-scaling counted Gemma 4's
            // llama3 and YaRN bands, 64 pairs in all, "of its 256 pairs".
            {u"rope_live_pairs"_s, u"the rotary pairs that turn: all of them, or proportional RoPE's first F·r/2"_s,
             [](const Params &p) { return isRope(p) ? integer(RopeFrequencies::livePairs(p.rope)) : none(kNotRope); }},
            {u"rope_some_unturned"_s, u"a condition: some rotary pairs do not turn (proportional RoPE)"_s,
             [](const Params &p) {
                 return isRope(p) ? condition(RopeFrequencies::livePairs(p.rope) < RopeFrequencies::pairs(p.rope),
                                              u"every rotary pair turns"_s)
                                  : none(kNotRope);
             }},
            {u"rope_theta"_s, u"rope_theta, the base of θᵢ = θ^(−2i/r)"_s,
             [](const Params &p) { return isRope(p) ? real(p.rope.theta) : none(kNotRope); }},
            {u"rope_factor"_s, u"the scaling's factor"_s,
             [](const Params &p) {
                 return !isRope(p)   ? none(kNotRope)
                     : p.rope.factor ? real(*p.rope.factor)
                                     : none(u"none (no factor given)"_s);
             }},
            {u"rope_original"_s, u"the original context L₀ a scaling stretches"_s,
             [](const Params &p) {
                 return !isRope(p)           ? none(kNotRope)
                     : p.rope.originalMaxLen ? integer(*p.rope.originalMaxLen)
                                             : none(u"none (no original length given)"_s);
             }},
            {u"rope_attention"_s, u"the attention factor that multiplies cos and sin"_s,
             [](const Params &p) { return isRope(p) ? factor(RopeFrequencies::attentionFactor(p)) : none(kNotRope); }},
            {u"rope_logit_scale"_s,
             u"what the scaling does to q·k: the attention factor squared (times a yarn softmax scale)"_s,
             [](const Params &p) {
                 return isRope(p) ? factor(RopeFrequencies::describe(p).logitScale) : none(kNotRope);
             }},
            {u"rope_attention_rule"_s, u"where yarn's attention factor comes from, in words"_s, ropeAttentionRule},
            {u"rope_mscale_all_dim"_s, u"yarn's mscale_all_dim"_s, ropeMscaleAllDim},
            {u"rope_yarn_mscale"_s, u"yarn's default attention factor for this factor, 0.1·ln f + 1"_s,
             [](const Params &p) {
                 if (!isRope(p))
                     return none(kNotRope);
                 if (!p.rope.factor)
                     return none(u"none (no factor given)"_s);
                 return real(RopeFrequencies::getMscale(*p.rope.factor));
             }},
            {u"rope_yarn_logits"_s, u"(0.1·ln f + 1)²: yarn's default factor on q·k"_s,
             [](const Params &p) {
                 if (!isRope(p))
                     return none(kNotRope);
                 if (!p.rope.factor)
                     return none(u"none (no factor given)"_s);
                 const double m = RopeFrequencies::getMscale(*p.rope.factor);
                 return real(m * m);
             }},
            {u"rope_dynamic_base"_s,
             u"dynamic (NTK) scaling's base: θ·(f·seq/L₀ − (f − 1))^(r/(r − 2)), seq = max(L, L₀)"_s, ropeDynamicBase},
            {u"rope_lambda_first"_s, u"the wavelength of pair 0 after scaling"_s,
             [](const Params &p) { return ropeWavelength(p, false, true); }},
            {u"rope_lambda_last"_s, u"the wavelength of the last pair that turns, after scaling"_s,
             [](const Params &p) { return ropeWavelength(p, true, true); }},
            {u"rope_lambda_first_before"_s, u"the wavelength of pair 0 before scaling"_s,
             [](const Params &p) { return ropeWavelength(p, false, false); }},
            {u"rope_lambda_last_before"_s, u"the wavelength of the last pair that turns, before scaling"_s,
             [](const Params &p) { return ropeWavelength(p, true, false); }},
            {u"rope_critical_dim"_s, u"Liu et al.'s critical dimension, of the pairs as the model runs them"_s,
             [](const Params &p) {
                 return isRope(p) ? integer(RopeFrequencies::describe(p).criticalDimension) : none(kNotRope);
             }},
            // The figures draw rotary pairs, not a head's dimensions: the pair Liu et al.'s
            // critical dimension starts (it counts two dimensions a pair).
            {u"rope_critical_pair"_s, u"the first pair that never turns within L₀: the critical dimension / 2"_s,
             [](const Params &p) {
                 return isRope(p) ? integer(RopeFrequencies::describe(p).criticalDimension / 2) : none(kNotRope);
             }},
            {u"rope_kept"_s, u"the pairs a scaling keeps (llama3's band 0, yarn's ramp 0)"_s,
             [](const Params &p) { return ropeCount(p, &RopeFrequencies::Description::pairsKept); }},
            {u"rope_blended"_s, u"the pairs a scaling blends (llama3's band 1, yarn's ramp between 0 and 1)"_s,
             [](const Params &p) { return ropeCount(p, &RopeFrequencies::Description::pairsBlended); }},
            {u"rope_divided"_s, u"the pairs a scaling divides by the factor (llama3's band 2, yarn's ramp 1)"_s,
             [](const Params &p) { return ropeCount(p, &RopeFrequencies::Description::pairsDivided); }},
            {u"rope_dot_3_10"_s, u"<R(3)q, R(10)k> for q_j = sin(j + 1), k_j = cos(2j + 1), in the layout"_s,
             [](const Params &p) { return ropeScore(p, 3.0, 10.0, p.rope.layout); }},
            {u"rope_dot_100_107"_s, u"<R(100)q, R(107)k>: the same distance 7"_s,
             [](const Params &p) { return ropeScore(p, 100.0, 107.0, p.rope.layout); }},
            {u"rope_dot_3_11"_s, u"<R(3)q, R(11)k>: distance 8"_s,
             [](const Params &p) { return ropeScore(p, 3.0, 11.0, p.rope.layout); }},
            {u"rope_dot_0_7"_s,
             u"<R(0)q, R(7)k>: distance 7 from position 0 (<q, R(7)k> where the attention factor is 1)"_s,
             [](const Params &p) { return ropeScore(p, 0.0, 7.0, p.rope.layout); }},
            {u"rope_norm_q"_s, u"‖q‖ for q_j = sin(j + 1) over head_dim"_s,
             [](const Params &p) {
                 return isRope(p) ? real(std::sqrt(dot(lessonVector(p, true), lessonVector(p, true)))) : none(kNotRope);
             }},
            {u"rope_norm_rq"_s, u"‖R(1000)q‖: the rotation keeps each pair's norm, times the attention factor"_s,
             [](const Params &p) {
                 if (!isRope(p))
                     return none(kNotRope);
                 const std::vector<double> r
                     = rotated(lessonVector(p, true), 1000.0, RopeFrequencies::table(p), p.rope.layout);
                 return real(std::sqrt(dot(r, r)));
             }},
            {u"rope_right_10"_s, u"<q, R(10)k> with the pairs of the layout the weights were trained in"_s,
             [](const Params &p) { return layoutScore(p, 10.0, true); }, kLayoutsFigure},
            {u"rope_wrong_10"_s, u"the same vectors rotated with the other layout's pairs"_s,
             [](const Params &p) { return layoutScore(p, 10.0, false); }, kLayoutsFigure},
            {u"rope_right_100"_s, u"<q, R(100)k> in the layout"_s,
             [](const Params &p) { return layoutScore(p, 100.0, true); }, kLayoutsFigure},
            {u"rope_wrong_100"_s, u"the same in the other layout"_s,
             [](const Params &p) { return layoutScore(p, 100.0, false); }, kLayoutsFigure},
            {u"rope_ones_1"_s, u"<q, R(1)q>/‖q‖² for q all ones: the score of an aligned pair at distance 1"_s,
             [](const Params &p) { return ropeOnes(p, 1.0); }},
            {u"rope_ones_10"_s, u"the same at distance 10"_s, [](const Params &p) { return ropeOnes(p, 10.0); }},
            {u"rope_ones_100"_s, u"the same at distance 100"_s, [](const Params &p) { return ropeOnes(p, 100.0); }},
            {u"rope_ones_1000"_s, u"the same at distance 1000"_s, [](const Params &p) { return ropeOnes(p, 1000.0); }},
            {u"rope_random_std"_s, u"1/√head_dim: the spread of q·k for two random unit vectors of a head"_s,
             [](const Params &p) {
                 return isRope(p) ? real(1.0 / std::sqrt(double(p.rope.headDim))) : none(kNotRope);
             }},
            {u"rope_bf16_step"_s, u"the gap between neighbouring bf16 values at position L − 1"_s,
             [](const Params &p) {
                 return isRope(p) ? real(RopeFrequencies::describe(p).bf16PositionStep) : none(kNotRope);
             }},
        }
        + familiesEntries() + modelEntries();
}

} // namespace posenc::RopeLessonNumbers
