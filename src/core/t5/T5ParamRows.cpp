#include "T5ParamRows.h"

#include "T5Buckets.h"
#include "core/TrContext.h"

using namespace Qt::StringLiterals;

namespace posenc::T5ParamRows {

namespace {

constexpr TrContext tr {"T5ParamRows"};

ParamSpec bucketsRow()
{
    // Its words are T5Words.json's; the buckets at the parameters follow them.
    return RelativeBuckets::bucketsRow(T5Buckets::bucketFamily(), [](const Params &p) {
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
        T5Buckets::bucketFamily(), [](std::int64_t buckets) { return buckets / 2; }, 1,
        [](const Params &p) {
            return u"a T5 config gives its encoder and its decoder the same max_distance, the decoder's causal "
                   "buckets run logarithmically from max_exact = %1, and the reference divides by ln(max_distance / "
                   "max_exact)"_s.arg(p.t5.buckets / 2);
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
