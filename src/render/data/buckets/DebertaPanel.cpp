// DeBERTa's panel of the families figure (BucketPanel): the bucket of each offset, signed.
#include "BucketPanel.h"

#include "core/NumberText.h"
#include "core/deberta/DebertaBuckets.h"

using namespace Qt::StringLiterals;

namespace posenc {

FamilyPanel makeDebertaPanel()
{
    // No bias: the bucket picks a row of a learned relative embedding, whose projections meet the
    // query's and key's contents (HF's DisentangledSelfAttention.disentangled_attention_bias).
    const QString picks = u"c2p + p2c over its bucket's row of a learned relative embedding"_s;
    // The curve is make_log_bucket_position's bucket, unclamped as the table's: the attention
    // clamps bucket + position_buckets to 0 … 2·position_buckets − 1 (c2p_pos, p2c_pos), so the
    // note says where the rows it reads stop.
    return BucketPanel::panel({DebertaBuckets::bucketFamily(), 0xCC79A7, picks, Quantity::DebertaBucket,
                               [](const Params &) { return std::pair(-1.0, 1.0); },
                               [](const Params &p) {
                                   return u"bucket of q − j = −k, %1 buckets, max_position %2, drawn unclamped: "
                                          "the attention clamps it to −%1 … %3"_s.arg(p.deberta.buckets)
                                              .arg(NumberText::count(p.deberta.maxPosition))
                                              .arg(p.deberta.buckets - 1);
                               }});
}

} // namespace posenc
