#include "DebertaParamRows.h"

#include "DebertaBuckets.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace posenc::DebertaParamRows {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("DebertaParamRows", text);
}

ParamSpec bucketsRow()
{
    return RelativeBuckets::bucketsRow(
        DebertaBuckets::bucketFamily(), QString(), QString(),
        u"is odd: make_log_bucket_position takes mid = position_buckets // 2 and scales its logarithmic buckets to "
        "reach 2·mid - 1 at max_position - 1, one short of the last bucket when the count is odd"_s,
        u"position_buckets: relative positions within position_buckets / 2 keep their own bucket, the farther\n"
        "      ones share logarithmic buckets"_s,
        [] {
            return tr("position_buckets: with mid = position_buckets/2, a relative position r = i − j with |r| ≤ mid "
                      "is its own bucket; beyond, sign(r)·(⌈ln(|r|/mid) / ln((max_position − 1)/mid) · (mid − 1)⌉ + "
                      "mid), in float32 as make_log_bucket_position computes it (DeBERTa-v2 and v3: 256). Unlike T5 "
                      "the bucket is not capped: the attention clamps it to its span.");
        },
        [](const Params &p) { return tr(" Now exact within ±%1.").arg(p.deberta.buckets / 2); });
}

ParamSpec maxPositionRow()
{
    // ln((max_position - 1) / mid) must be > 0: max_position - 1 > mid.
    return RelativeBuckets::limitRow(
        DebertaBuckets::bucketFamily(), [](std::int64_t buckets) { return buckets / 2 + 1; }, 2,
        u"deberta-buckets / 2 + 1"_s,
        [](const Params &p) {
            return u"the logarithmic buckets divide by ln((max_position - 1) / mid), mid = %1"_s.arg(p.deberta.buckets
                                                                                                     / 2);
        },
        u"max_relative_positions (max_position_embeddings when a config gives -1): the logarithmic\n"
        "      buckets reach 2*mid - 1 at distance max_position - 1 and go on growing past it"_s,
        [] {
            return tr("max_relative_positions, the span the log buckets are scaled to: at |r| = max_position − 1 the "
                      "bucket is 2·mid − 1, and farther positions go on growing, more slowly (DeBERTa-v3: "
                      "max_relative_positions −1, so max_position_embeddings 512).");
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
