#include "DebertaParamRows.h"

#include "DebertaBuckets.h"
#include "core/TrContext.h"

using namespace Qt::StringLiterals;

namespace posenc::DebertaParamRows {

namespace {

constexpr TrContext tr {"DebertaParamRows"};

ParamSpec bucketsRow()
{
    // Its words are DebertaWords.json's; the buckets at the parameters follow them.
    return RelativeBuckets::bucketsRow(DebertaBuckets::bucketFamily(), [](const Params &p) {
        return tr(" Now exact within ±%1.").arg(p.deberta.buckets / 2);
    });
}

ParamSpec maxPositionRow()
{
    // ln((max_position - 1) / mid) must be > 0: max_position - 1 > mid.
    return RelativeBuckets::limitRow(
        DebertaBuckets::bucketFamily(), [](std::int64_t buckets) { return buckets / 2 + 1; }, 2,
        [](const Params &p) {
            return u"the logarithmic buckets divide by ln((max_position - 1) / mid), mid = %1"_s.arg(p.deberta.buckets
                                                                                                     / 2);
        },
        [](const Params &p) {
            return tr(" Now r = %1 takes bucket %2.")
                .arg(p.deberta.maxPosition)
                .arg(DebertaBuckets::bucket(p.deberta.maxPosition, p.deberta.buckets, p.deberta.maxPosition));
        });
}

} // namespace

QList<ParamSpec> rows()
{
    return {bucketsRow(), maxPositionRow()};
}

} // namespace posenc::DebertaParamRows
