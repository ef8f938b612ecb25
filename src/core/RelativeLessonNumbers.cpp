#include "RelativeLessonNumbers.h"

#include "NumberText.h"
#include "alibi/AlibiAttention.h"
#include "alibi/AlibiSlopes.h"
#include "deberta/DebertaBuckets.h"
#include "rope/RopeFrequencies.h"
#include "sinusoidal/Frequencies.h"
#include "t5/T5Buckets.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RelativeLessonNumbers {

namespace {

using Number = LessonNumbers::Number;

Number real(double v)
{
    return {v, NumberText::prose(v)};
}

Number integer(std::int64_t v)
{
    return {double(v), v < 0 ? u"−"_s + QString::number(-v) : QString::number(v)};
}

Number none(const QString &why)
{
    return {std::nullopt, why};
}

// The parameters of `family`'s group, valid when its family is chosen.
bool validUnder(const Params &p, Encoding family)
{
    Params chosen = p;
    chosen.encoding = family;
    return chosen.validate().isEmpty();
}

// ALiBi.

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
        return {0.0, u"none (H is a power of two)"_s};
    QStringList values;
    for (std::int64_t k = from; k < p.alibi.heads; ++k)
        values.append(NumberText::prose(slopes[std::size_t(k)]));
    const QString text
        = values.size() == 1 ? values[0] : values.mid(0, values.size() - 1).join(u", "_s) + u" and "_s + values.back();
    return {double(values.size()), text};
}

// T5.

const QString kT5Invalid = u"not here: T5's settings are not valid"_s;
const QString kDebertaInvalid = u"not here: DeBERTa's settings are not valid"_s;

Number t5Bucket(const Params &p, std::int64_t relative)
{
    if (!validUnder(p, Encoding::T5))
        return none(kT5Invalid);
    return integer(T5Buckets::bucket(relative, p.t5.buckets, p.t5.maxDistance, !p.t5.causal));
}

std::int64_t t5Side(const Params &p)
{
    return T5Buckets::sideBuckets(p.t5.buckets, !p.t5.causal);
}

// Where the last bucket of the keys before the query starts.
std::int64_t t5CapStart(const Params &p)
{
    return T5Buckets::firstDistance(t5Side(p) - 1, p.t5.buckets, p.t5.maxDistance, !p.t5.causal);
}

Number debertaBucket(const Params &p, std::int64_t relative)
{
    if (!validUnder(p, Encoding::Deberta))
        return none(kDebertaInvalid);
    return integer(DebertaBuckets::bucket(relative, p.deberta.buckets, p.deberta.maxPosition));
}

// The row of DeBERTa's relative embedding that a key `relative` = i − j before the query reads:
// HF's DisentangledSelfAttention.disentangled_attention_bias takes c2p's row at
// clamp(bucket + att_span, 0, 2·att_span − 1) and p2c's at clamp(−bucket + att_span, ...), with
// att_span = position_buckets (pos_ebd_size).
Number debertaRow(const Params &p, std::int64_t relative, bool c2p)
{
    if (!validUnder(p, Encoding::Deberta))
        return none(kDebertaInvalid);
    const std::int64_t span = p.deberta.buckets;
    const std::int64_t bucket = DebertaBuckets::bucket(relative, p.deberta.buckets, p.deberta.maxPosition);
    return integer(std::clamp((c2p ? bucket : -bucket) + span, std::int64_t(0), 2 * span - 1));
}

// The five families at one query: the families figure's, (L - 1) / 2, and a key `distance` before it.

std::int64_t familiesQuery(const Params &p)
{
    return (p.maxLen - 1) / 2;
}

Number peDot(const Params &p, std::int64_t distance)
{
    Params sinusoidal = p;
    sinusoidal.encoding = Encoding::Sinusoidal;
    const std::int64_t k = sinusoidal.peColumns();
    const std::int64_t q = familiesQuery(p), j = q - distance;
    if (j < 0)
        return none(u"not here: no key that far before the query"_s);
    // PE[q] · PE[j]: whole pairs give cos((q - j) w_i), a lone sine sin(q w) sin(j w).
    double sum = 0.0;
    for (std::int64_t i = 0; i < Frequencies::pairCount(k); ++i) {
        const double w = Frequencies::angular(i, k, p.sinusoidal.base);
        sum += 2 * i + 1 < k ? std::cos(double(distance) * w) : std::sin(double(q) * w) * std::sin(double(j) * w);
    }
    return real(sum);
}

Number ropeAligned(const Params &p, double distance)
{
    if (!validUnder(p, Encoding::Rope))
        return none(u"not here: RoPE's settings are not valid"_s);
    Params rotary = p;
    rotary.encoding = Encoding::Rope;
    const std::vector<double> theta = RopeFrequencies::schedule(rotary).w;
    double sum = double(p.rope.headDim) - 2.0 * double(theta.size());
    for (const double t : theta)
        sum += 2.0 * std::cos(distance * t);
    return real(sum / double(p.rope.headDim));
}

QList<Entry> build()
{
    QList<Entry> list = {
        // ALiBi.
        {u"alibi_heads"_s, u"H, ALiBi's heads"_s, [](const Params &p) { return integer(p.alibi.heads); }},
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
        {u"alibi_head"_s, u"K, the head the bias figure shows"_s,
         [](const Params &p) { return integer(p.alibi.head); }},
        {u"alibi_slope_k"_s, u"m_K, head K's slope"_s, [](const Params &p) { return real(slope(p, p.alibi.head)); }},
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

        // T5.
        {u"t5_buckets"_s, u"T5's relative_attention_num_buckets"_s,
         [](const Params &p) { return integer(p.t5.buckets); }},
        {u"t5_side"_s, u"the buckets of one side: half of them bidirectional, all of them causal"_s,
         [](const Params &p) { return integer(t5Side(p)); }},
        {u"t5_exact"_s, u"max_exact: distances below it keep a bucket each"_s,
         [](const Params &p) { return integer(T5Buckets::maxExact(p.t5.buckets, !p.t5.causal)); }},
        {u"t5_max_distance"_s, u"T5's relative_attention_max_distance"_s,
         [](const Params &p) { return integer(p.t5.maxDistance); }},
        {u"t5_last"_s, u"the last bucket of the keys before the query: one side's buckets − 1"_s,
         [](const Params &p) { return integer(t5Side(p) - 1); }},
        {u"t5_cap_start"_s, u"the distance where the keys before the query reach their last bucket"_s,
         [](const Params &p) { return validUnder(p, Encoding::T5) ? integer(t5CapStart(p)) : none(kT5Invalid); }},
        {u"t5_shared"_s, u"the keys before the last query that share the last bucket, of its L − 1"_s,
         [](const Params &p) {
             return validUnder(p, Encoding::T5) ? integer(std::max<std::int64_t>(p.maxLen - t5CapStart(p), 0))
                                                : none(kT5Invalid);
         }},
        {u"t5_before_1"_s, u"the bucket of a key 1 position before the query"_s,
         [](const Params &p) { return t5Bucket(p, -1); }},
        {u"t5_before_7"_s, u"… 7 before"_s, [](const Params &p) { return t5Bucket(p, -7); }},
        {u"t5_before_8"_s, u"… 8 before"_s, [](const Params &p) { return t5Bucket(p, -8); }},
        {u"t5_before_16"_s, u"… 16 before"_s, [](const Params &p) { return t5Bucket(p, -16); }},
        {u"t5_before_32"_s, u"… 32 before"_s, [](const Params &p) { return t5Bucket(p, -32); }},
        {u"t5_before_64"_s, u"… 64 before"_s, [](const Params &p) { return t5Bucket(p, -64); }},
        {u"t5_before_127"_s, u"… 127 before"_s, [](const Params &p) { return t5Bucket(p, -127); }},
        {u"t5_before_128"_s, u"… 128 before"_s, [](const Params &p) { return t5Bucket(p, -128); }},
        {u"t5_before_1000"_s, u"… 1000 before"_s, [](const Params &p) { return t5Bucket(p, -1000); }},
        {u"t5_after_1"_s, u"the bucket of a key 1 position after the query"_s,
         [](const Params &p) { return t5Bucket(p, 1); }},
        {u"t5_after_1000"_s, u"… 1000 after"_s, [](const Params &p) { return t5Bucket(p, 1000); }},

        // DeBERTa.
        {u"deberta_buckets"_s, u"DeBERTa's position_buckets"_s,
         [](const Params &p) { return integer(p.deberta.buckets); }},
        {u"deberta_mid"_s, u"mid = position_buckets / 2: |i − j| up to it keeps its own bucket"_s,
         [](const Params &p) { return integer(p.deberta.buckets / 2); }},
        {u"deberta_top"_s, u"2·mid − 1: the bucket the logarithmic ones reach at max_position − 1"_s,
         [](const Params &p) { return integer(2 * (p.deberta.buckets / 2) - 1); }},
        {u"deberta_max_position"_s, u"DeBERTa's max_position (max_position_embeddings)"_s,
         [](const Params &p) { return integer(p.deberta.maxPosition); }},
        {u"deberta_reach"_s, u"max_position − 1: where the logarithmic buckets reach 2·mid − 1"_s,
         [](const Params &p) { return integer(p.deberta.maxPosition - 1); }},
        {u"deberta_128"_s, u"the bucket of i − j = 128"_s, [](const Params &p) { return debertaBucket(p, 128); }},
        {u"deberta_129"_s, u"… of 129"_s, [](const Params &p) { return debertaBucket(p, 129); }},
        {u"deberta_256"_s, u"… of 256"_s, [](const Params &p) { return debertaBucket(p, 256); }},
        {u"deberta_511"_s, u"… of 511"_s, [](const Params &p) { return debertaBucket(p, 511); }},
        {u"deberta_512"_s, u"… of 512"_s, [](const Params &p) { return debertaBucket(p, 512); }},
        {u"deberta_1000"_s, u"… of 1000"_s, [](const Params &p) { return debertaBucket(p, 1000); }},
        {u"deberta_minus_1000"_s, u"… of −1000"_s, [](const Params &p) { return debertaBucket(p, -1000); }},
        {u"deberta_last"_s, u"the bucket of i − j = L − 1, the farthest in the table"_s,
         [](const Params &p) { return debertaBucket(p, p.maxLen - 1); }},
        {u"deberta_c2p_row_10"_s, u"the row of the relative embedding c2p reads for i − j = 10: bucket + k"_s,
         [](const Params &p) { return debertaRow(p, 10, true); }},
        {u"deberta_p2c_row_10"_s, u"… p2c reads: k − bucket"_s,
         [](const Params &p) { return debertaRow(p, 10, false); }},
        {u"deberta_c2p_row_1000"_s, u"… c2p reads for i − j = 1000, clamped to 0 … 2k − 1"_s,
         [](const Params &p) { return debertaRow(p, 1000, true); }},
        {u"deberta_p2c_row_1000"_s, u"… p2c reads for 1000"_s,
         [](const Params &p) { return debertaRow(p, 1000, false); }},

        // One query, five families: a key `distance` before the query (L - 1) / 2.
        {u"fam_query"_s, u"the query of the families figure: (L − 1)/2"_s,
         [](const Params &p) { return integer(familiesQuery(p)); }},
        {u"fam_pe_0"_s, u"PE[q]·PE[q]: the sinusoid's squared norm, d/2"_s,
         [](const Params &p) { return peDot(p, 0); }},
        {u"fam_pe_1"_s, u"PE[q]·PE[q − 1]"_s, [](const Params &p) { return peDot(p, 1); }},
        {u"fam_pe_100"_s, u"PE[q]·PE[q − 100]"_s, [](const Params &p) { return peDot(p, 100); }},
        {u"fam_rope_1"_s, u"RoPE's ⟨q, R(1)q⟩/‖q‖², q all ones, at the rope settings"_s,
         [](const Params &p) { return ropeAligned(p, 1.0); }},
        {u"fam_rope_100"_s, u"… at distance 100"_s, [](const Params &p) { return ropeAligned(p, 100.0); }},
        {u"fam_alibi_1_100"_s, u"head 1's ALiBi bias of a key 100 before the query"_s,
         [](const Params &p) { return real(-100.0 * slope(p, 1)); }},
        {u"fam_t5_1"_s, u"T5's bucket of a key 1 before the query"_s, [](const Params &p) { return t5Bucket(p, -1); }},
        {u"fam_t5_10"_s, u"… 10 before"_s, [](const Params &p) { return t5Bucket(p, -10); }},
        {u"fam_t5_100"_s, u"… 100 before"_s, [](const Params &p) { return t5Bucket(p, -100); }},
        {u"fam_t5_1000"_s, u"… 1000 before"_s, [](const Params &p) { return t5Bucket(p, -1000); }},
        {u"fam_deberta_1"_s, u"DeBERTa's bucket of a key 1 before the query (i − j = 1)"_s,
         [](const Params &p) { return debertaBucket(p, 1); }},
        {u"fam_deberta_10"_s, u"… 10 before"_s, [](const Params &p) { return debertaBucket(p, 10); }},
        {u"fam_deberta_100"_s, u"… 100 before"_s, [](const Params &p) { return debertaBucket(p, 100); }},
        {u"fam_deberta_1000"_s, u"… 1000 before"_s, [](const Params &p) { return debertaBucket(p, 1000); }},
    };
    return list;
}

} // namespace

const QList<Entry> &entries()
{
    static const QList<Entry> table = build();
    return table;
}

} // namespace posenc::RelativeLessonNumbers
