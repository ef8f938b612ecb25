#include "DebertaLessonNumbers.h"

#include "core/FamiliesDistance.h"
#include "core/FamilySpec.h"
#include "core/deberta/DebertaBuckets.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::DebertaLessonNumbers {

using namespace LessonNumbers;

namespace {

// The bucket of a key `relative` = i − j before the query: that of the offset j − i = −relative.
Number debertaBucket(const Params &p, std::int64_t relative)
{
    return RelativeBuckets::bucketNumber(DebertaBuckets::bucketFamily(), p, -relative);
}

// The row of DeBERTa's relative embedding that a key `relative` = i − j before the query reads, as
// transformers' DisentangledSelfAttention.disentangled_attention_bias (modeling_deberta_v2.py)
// gathers it: c2p at c2p_pos = clamp(δ + att_span, 0, 2·att_span − 1), δ = relative_pos[i, j], the
// bucket of i − j; p2c at p2c_pos = clamp(−r_pos + att_span, ...) gathered along the keys' rows and
// transposed, r_pos[j, i] the bucket of j − i = −δ: so p2c reads clamp(δ + att_span) too. att_span
// is position_buckets (pos_ebd_size). The paper's equation reads p2c at δ(j, i): clamp(−δ + att_span).
Number debertaRow(const Params &p, std::int64_t relative, bool paper)
{
    return RelativeBuckets::whenValid(DebertaBuckets::bucketFamily(), p, [&] {
        const std::int64_t span = p.deberta.buckets;
        const std::int64_t bucket = DebertaBuckets::bucket(relative, p.deberta.buckets, p.deberta.maxPosition);
        return integer(std::clamp((paper ? -bucket : bucket) + span, std::int64_t(0), 2 * span - 1));
    });
}

// The last bucket the attention reads for a key before the query: relative_pos + att_span is
// clamped to 2·att_span − 1 (disentangled_attention_bias, modeling_deberta_v2.py), att_span =
// position_buckets, so a bucket past position_buckets − 1 reads the row of position_buckets − 1.
std::int64_t clampTop(const Params &p)
{
    return p.deberta.buckets - 1;
}

// The nearest distance i − j whose log bucket (make_log_bucket_position) reaches clampTop: from
// there back every key reads one row.
std::int64_t clampReach(const Params &p)
{
    // buckets - 1 is reached at every setting: the bucket grows with the distance past mid >= 2, and
    // at mid 1 it is 1 = buckets - 1 from distance 1.
    return DebertaBuckets::firstReaching(clampTop(p), p.deberta.buckets, p.deberta.maxPosition).value_or(1);
}

} // namespace

QList<Entry> entries()
{
    return {
        {u"model_deberta"_s,
         u"the model's DeBERTa: the model alone where its name says DeBERTa (LessonNumbers::modelsFamily)"_s,
         std::function<Number(const LessonModel &)>(
             [](const LessonModel &m) { return modelsFamily(m, u"DeBERTa"_s); })},
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
        {u"deberta_c2p_row_10"_s, u"the row of the relative embedding c2p reads for i − j = 10: k + bucket"_s,
         [](const Params &p) { return debertaRow(p, 10, false); }},
        {u"deberta_p2c_row_10"_s, u"… p2c reads in transformers' code: k + bucket, the same row"_s,
         [](const Params &p) { return debertaRow(p, 10, false); }},
        {u"deberta_paper_p2c_row_10"_s, u"… p2c reads in the paper's equation, δ(j, i): k − bucket"_s,
         [](const Params &p) { return debertaRow(p, 10, true); }},
        {u"deberta_c2p_row_1000"_s, u"… c2p reads for i − j = 1000, clamped to 0 … 2k − 1"_s,
         [](const Params &p) { return debertaRow(p, 1000, false); }},
        {u"deberta_p2c_row_1000"_s, u"… p2c reads for 1000 in transformers' code"_s,
         [](const Params &p) { return debertaRow(p, 1000, false); }},
        {u"deberta_paper_p2c_row_1000"_s, u"… p2c reads for 1000 in the paper's equation"_s,
         [](const Params &p) { return debertaRow(p, 1000, true); }},
        {u"fam_deberta_1"_s, u"DeBERTa's bucket of a key 1 before the query (i − j = 1)"_s,
         [](const Params &p) { return debertaBucket(p, 1); }},
        {u"fam_deberta_10"_s, u"… 10 before"_s, [](const Params &p) { return debertaBucket(p, 10); }},
        {u"fam_deberta_100"_s, u"… 100 before"_s, [](const Params &p) { return debertaBucket(p, 100); }},
        {u"fam_deberta_1000"_s, u"… 1000 before"_s, [](const Params &p) { return debertaBucket(p, 1000); }},
        {u"fam_deberta_farthest"_s, u"… fam_farthest before"_s,
         [](const Params &p) {
             return atFamiliesDistance(p, FamiliesDistance::Farthest,
                                       [&](std::int64_t back) { return debertaBucket(p, back); });
         }},
        {u"deberta_clamp_top"_s,
         u"position_buckets − 1: the bucket the attention clamps a key's before the query to (HF's c2p_pos)"_s,
         [](const Params &p) {
             return RelativeBuckets::whenValid(DebertaBuckets::bucketFamily(), p, [&] { return integer(clampTop(p)); });
         }},
        {u"deberta_clamp_reach"_s, u"the nearest distance back whose bucket reaches deberta_clamp_top"_s,
         [](const Params &p) {
             return RelativeBuckets::whenValid(DebertaBuckets::bucketFamily(), p,
                                               [&] { return integer(clampReach(p)); });
         }},
        {u"fam_deberta_farthest_clamped"_s,
         u"a condition: the bucket of the key fam_farthest before the query is past deberta_clamp_top"_s,
         [](const Params &p) {
             return RelativeBuckets::whenValid(DebertaBuckets::bucketFamily(), p, [&] {
                 return atFamiliesDistance(p, FamiliesDistance::Farthest, [&](std::int64_t back) {
                     const std::int64_t bucket = DebertaBuckets::bucket(back, p.deberta.buckets, p.deberta.maxPosition);
                     return condition(bucket > clampTop(p), u"the key's bucket is within the attention's rows"_s);
                 });
             });
         }},
    };
}

} // namespace posenc::DebertaLessonNumbers
