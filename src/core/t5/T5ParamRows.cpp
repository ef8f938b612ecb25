#include "T5ParamRows.h"

#include "T5Buckets.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace posenc::T5ParamRows {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("T5ParamRows", text);
}

ParamSpec bucketsRow()
{
    return RelativeBuckets::bucketsRow(
        T5Buckets::bucketFamily(), u" (bidirectional)"_s, u" (t5-causal)"_s,
        u"is odd: the bidirectional map halves the buckets (num_buckets //= 2), which would leave the last one "
        "unused"_s,
        u"relative_attention_num_buckets: the buckets of key - query; the bidirectional map halves them\n"
        "      between keys before and after the query, so it needs an even count"_s,
        [] {
            return tr("relative_attention_num_buckets: each head learns one scalar per bucket of key − query. "
                      "Bidirectional (the encoder), n = buckets/2 per side, keys after the query in the upper half; "
                      "causal (the decoder), n = buckets for the keys at or before it. Within a side the distances "
                      "below max_exact = n/2 have a bucket each, the rest share ⌊logarithmic⌋ buckets up to "
                      "max_distance, and every farther key the last one, n − 1 (Raffel et al. 2020).");
        },
        [](const Params &p) {
            return tr(" Now %1 buckets a side, exact below %2.")
                .arg(T5Buckets::sideBuckets(p.t5.buckets, !p.t5.causal))
                .arg(T5Buckets::maxExact(p.t5.buckets, !p.t5.causal));
        });
}

ParamSpec maxDistanceRow()
{
    // Above buckets / 2 for either mask: a config's encoder (max_exact buckets / 4) and decoder
    // (max_exact buckets / 2) share max_distance, and the reference divides by
    // ln(max_distance / max_exact), so the decoder needs max_distance > buckets / 2.
    return RelativeBuckets::limitRow(
        T5Buckets::bucketFamily(), [](std::int64_t buckets) { return buckets / 2; }, 1, u"t5-buckets / 2"_s,
        [](const Params &p) {
            return u"a T5 config gives its encoder and its decoder the same max_distance, the decoder's causal "
                   "buckets run logarithmically from max_exact = %1, and the reference divides by ln(max_distance / "
                   "max_exact)"_s.arg(p.t5.buckets / 2);
        },
        u"relative_attention_max_distance: the logarithmic buckets are scaled to reach it; the last bucket\n"
        "      starts a little before it (91 for the encoder's 32 and 128, 113 for the decoder's) and holds every\n"
        "      farther key"_s,
        [] {
            return tr("relative_attention_max_distance: a distance d ≥ max_exact takes bucket max_exact + "
                      "⌊ln(d/max_exact) / ln(max_distance/max_exact) · (n − max_exact)⌋, computed in float32 as the "
                      "reference does, and at most n − 1: the last bucket starts where that reaches n − 1, a little "
                      "before max_distance, and holds every farther key, so a model cannot tell 200 from 20000 (T5: "
                      "128, the last bucket from 91).");
        },
        [](const Params &p) {
            const std::int64_t last = T5Buckets::sideBuckets(p.t5.buckets, !p.t5.causal) - 1;
            return tr(" Now bucket n − 1 = %1 starts at distance %2.")
                .arg(last)
                .arg(T5Buckets::firstDistance(last, p.t5.buckets, p.t5.maxDistance, !p.t5.causal));
        });
}

ParamSpec causalRow()
{
    ParamSpec s
        = ParamRows::switchRow(u"t5-causal"_s, ParamGroup::Family, [](Params &p) -> bool & { return p.t5.causal; });
    s.help = u"T5's decoder map (bidirectional=False): every bucket for the keys at or before the query, bucket 0\n"
             "      for later ones; without it the encoder's bidirectional map"_s;
    s.label = u"t5_causal"_s;
    s.controlText = u"causal: the decoder's map"_s;
    s.idle = ParamRows::familyIdle(Encoding::T5);
    s.formula = [](const Params &) {
        return tr("Causal, as T5's decoder: _relative_position_bucket(bidirectional=False) buckets the distance "
                  "−min(j − i, 0) of keys at or before the query in all the buckets, and every later key falls "
                  "in bucket 0 (the causal mask hides it). Off, as the encoder: half the buckets for each side, "
                  "the later keys offset by buckets/2.");
    };
    return s;
}

} // namespace

QList<ParamSpec> rows()
{
    return {bucketsRow(), maxDistanceRow(), causalRow()};
}

} // namespace posenc::T5ParamRows
