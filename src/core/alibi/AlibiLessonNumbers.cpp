#include "AlibiLessonNumbers.h"

#include "core/FamiliesDistance.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/alibi/AlibiAttention.h"
#include "core/alibi/AlibiSlopes.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::AlibiLessonNumbers {

using namespace LessonNumbers;

namespace {

const QString kNoAlibi = u"not here: the model has no ALiBi heads"_s;

double slope(const Params &p, std::int64_t head)
{
    return AlibiSlopes::of(p.alibi.heads, head);
}

// The head of the gentlest slope: the last of the geometric series, 2^-8.
std::int64_t gentlest(const Params &p)
{
    return AlibiSlopes::geometricHeads(p.alibi.heads);
}

// The query the alibi-attention figure takes at first, in a table of `maxLen` positions: the last
// under the causal mask, the middle one symmetric.
std::int64_t alibiQuery(const Params &p, std::int64_t maxLen)
{
    return p.alibi.mask == AlibiMask::Causal ? maxLen - 1 : (maxLen - 1) / 2;
}

Number span(const Params &p, std::int64_t head, double share, std::int64_t maxLen)
{
    const AlibiAttention::Keys keys = AlibiAttention::keysOf(maxLen, alibiQuery(p, maxLen), p.alibi.mask);
    return integer(AlibiAttention::span(slope(p, head), keys, share));
}

// The slopes of the heads after the largest power of two: "0.707, 0.354, 0.177 and 0.0884".
Number interleaved(const Params &p)
{
    const std::vector<double> slopes = AlibiSlopes::all(p.alibi.heads);
    const std::int64_t from = gentlest(p);
    if (from == p.alibi.heads)
        return none(u"H is a power of two: every head's slope is of one geometric series"_s);
    QStringList values;
    for (std::int64_t k = from; k < p.alibi.heads; ++k)
        values.append(NumberText::prose(slopes[std::size_t(k)]));
    const QString text
        = values.size() == 1 ? values[0] : values.mid(0, values.size() - 1).join(u", "_s) + u" and "_s + values.back();
    return {double(values.size()), text, {}, false};
}

} // namespace

QList<Entry> entries()
{
    return {
        {u"alibi_heads"_s, u"H, ALiBi's heads"_s, [](const Params &p) { return integer(p.alibi.heads); }},
        {u"alibi_causal"_s, u"a condition: ALiBi's causal mask (−inf after the query)"_s,
         [](const Params &p) { return condition(p.alibi.mask == AlibiMask::Causal, u"its mask is symmetric"_s); }},
        {u"alibi_power"_s, u"P, the largest power of two ≤ H: heads 1..P are the geometric series"_s,
         [](const Params &p) { return integer(gentlest(p)); }},
        {u"alibi_twice"_s, u"2P: the series the heads after P take every other slope of"_s,
         [](const Params &p) { return integer(2 * gentlest(p)); }},
        {u"alibi_ratio"_s, u"r = 2^(−8/P): the ratio of the geometric series, and its first slope"_s,
         [](const Params &p) { return real(std::exp2(-8.0 / double(gentlest(p)))); }},
        {u"alibi_slope_1"_s, u"m₁, head 1's slope: the steepest"_s, [](const Params &p) { return real(slope(p, 1)); }},
        {u"alibi_slope_p"_s, u"m_P = 2⁻⁸, head P's slope: the gentlest"_s,
         [](const Params &p) { return real(slope(p, gentlest(p))); }},
        {u"alibi_slope_h"_s, u"m_H, the last head's slope"_s,
         [](const Params &p) { return real(slope(p, p.alibi.heads)); }},
        {u"alibi_interleaved"_s, u"the slopes of heads P + 1..H, interleaved from the 2P-head series"_s, interleaved},
        {u"alibi_plain_h"_s, u"2^(−8H/H) = 2⁻⁸: what a plain geometric series gives the last head"_s,
         [](const Params &) { return real(std::exp2(-8.0)); }},
        // Head K and its slope are a model's only where it has ALiBi: left-padding told T5-base
        // and DeBERTa, which bias by buckets, "in head 1 (slope 0.5)".
        {u"alibi_head"_s, u"K, the head the bias figure shows, of a model with ALiBi"_s,
         [](const Params &p) { return p.encoding == Encoding::Alibi ? integer(p.alibi.head) : none(kNoAlibi); }},
        {u"alibi_slope_k"_s, u"m_K, head K's slope, of a model with ALiBi"_s,
         [](const Params &p) { return p.encoding == Encoding::Alibi ? real(slope(p, p.alibi.head)) : none(kNoAlibi); }},
        {u"alibi_bias_k_1"_s, u"−m_K: head K's bias of a key 1 position away"_s,
         [](const Params &p) { return real(-slope(p, p.alibi.head)); }},
        {u"alibi_bias_k_100"_s, u"−100·m_K: head K's bias of a key 100 positions away"_s,
         [](const Params &p) { return real(-100.0 * slope(p, p.alibi.head)); }},
        {u"alibi_query"_s, u"the query the attention figure takes: L − 1 (causal) or (L − 1)/2 (symmetric)"_s,
         [](const Params &p) { return integer(alibiQuery(p, p.maxLen)); }},
        {u"alibi_self_1"_s, u"the weight head 1 gives the query's own key, content scores zero"_s,
         [](const Params &p) {
             const auto keys = AlibiAttention::keysOf(p.maxLen, alibiQuery(p, p.maxLen), p.alibi.mask);
             return real(AlibiAttention::weight(slope(p, 1), keys, 0));
         }},
        // The alibi lesson said "head 1 puts half its weight on the keys within a distance of 0".
        {u"alibi_own_half_1"_s, u"a condition: head 1 puts half its weight or more on the query's own key"_s,
         [](const Params &p) {
             const auto keys = AlibiAttention::keysOf(p.maxLen, alibiQuery(p, p.maxLen), p.alibi.mask);
             return condition(AlibiAttention::weight(slope(p, 1), keys, 0) >= 0.5,
                              u"head 1's own key holds less than half its weight"_s);
         }},
        {u"alibi_span_1_half"_s, u"the distance within which head 1 puts half its weight"_s,
         [](const Params &p) { return span(p, 1, 0.5, p.maxLen); }},
        {u"alibi_span_1_90"_s, u"the distance within which head 1 puts 90% of its weight"_s,
         [](const Params &p) { return span(p, 1, 0.9, p.maxLen); }},
        {u"alibi_span_p_half"_s, u"the distance within which head P puts half its weight"_s,
         [](const Params &p) { return span(p, gentlest(p), 0.5, p.maxLen); }},
        {u"alibi_span_p_90"_s, u"the distance within which head P puts 90% of its weight"_s,
         [](const Params &p) { return span(p, gentlest(p), 0.9, p.maxLen); }},
        {u"alibi_span_p_90_10x"_s, u"the same at ten times the length: 10·L positions"_s,
         [](const Params &p) { return span(p, gentlest(p), 0.9, 10 * p.maxLen); }},
        {u"alibi_length_10x"_s, u"10·L"_s, [](const Params &p) { return integer(10 * p.maxLen); }},
        {u"alibi_bias_p_1000"_s, u"−1000·m_P: head P's bias of a key 1000 positions away, at any length"_s,
         [](const Params &p) { return real(-1000.0 * slope(p, gentlest(p))); }},
        {u"fam_alibi_1_100"_s, u"head 1's ALiBi bias of a key 100 before the query"_s,
         [](const Params &p) { return real(-100.0 * slope(p, 1)); }},
        {u"fam_alibi_1_far"_s, u"head 1's ALiBi bias of the key fam_far before the families figure's query"_s,
         [](const Params &p) {
             return atFamiliesDistance(p, FamiliesDistance::Far,
                                       [&](std::int64_t back) { return real(-double(back) * slope(p, 1)); });
         }},
    };
}

} // namespace posenc::AlibiLessonNumbers
