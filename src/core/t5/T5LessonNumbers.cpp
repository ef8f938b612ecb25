#include "T5LessonNumbers.h"

#include "core/FamiliesDistance.h"
#include "core/FamilySpec.h"
#include "core/t5/T5Buckets.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::T5LessonNumbers {

using namespace LessonNumbers;

namespace {

// The bucket of a key `relative` = j − i from the query.
Number t5Bucket(const Params &p, std::int64_t relative)
{
    return RelativeBuckets::bucketNumber(T5Buckets::bucketFamily(), p, relative);
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

} // namespace

QList<Entry> entries()
{
    return {
        {u"model_t5"_s, u"the model's T5: the model alone where its name says T5 (LessonNumbers::modelsFamily)"_s,
         std::function<Number(const LessonModel &)>([](const LessonModel &m) { return modelsFamily(m, u"T5"_s); })},
        {u"t5_buckets"_s, u"T5's relative_attention_num_buckets"_s,
         [](const Params &p) { return integer(p.t5.buckets); }},
        {u"t5_bidirectional"_s, u"a condition: T5's encoder buckets, keys on both sides"_s,
         [](const Params &p) { return condition(!p.t5.causal, u"T5's decoder buckets, the keys before the query"_s); }},
        {u"t5_side"_s, u"the buckets of one side: half of them bidirectional, all of them causal"_s,
         [](const Params &p) { return integer(t5Side(p)); }},
        {u"t5_exact"_s, u"max_exact: distances below it keep a bucket each"_s,
         [](const Params &p) { return integer(T5Buckets::maxExact(p.t5.buckets, !p.t5.causal)); }},
        {u"t5_max_distance"_s, u"T5's relative_attention_max_distance"_s,
         [](const Params &p) { return integer(p.t5.maxDistance); }},
        {u"t5_last"_s, u"the last bucket of the keys before the query: one side's buckets − 1"_s,
         [](const Params &p) { return integer(t5Side(p) - 1); }},
        {u"t5_cap_start"_s, u"the distance where the keys before the query reach their last bucket"_s,
         [](const Params &p) {
             return RelativeBuckets::whenValid(T5Buckets::bucketFamily(), p, [&] { return integer(t5CapStart(p)); });
         }},
        {u"t5_shared"_s, u"the keys before the last query that share the last bucket, of its L − 1"_s,
         [](const Params &p) {
             return RelativeBuckets::whenValid(T5Buckets::bucketFamily(), p, [&] {
                 return integer(std::max<std::int64_t>(p.maxLen - t5CapStart(p), 0));
             });
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
        {u"fam_t5_1"_s, u"T5's bucket of a key 1 before the query"_s, [](const Params &p) { return t5Bucket(p, -1); }},
        {u"fam_t5_10"_s, u"… 10 before"_s, [](const Params &p) { return t5Bucket(p, -10); }},
        {u"fam_t5_100"_s, u"… 100 before"_s, [](const Params &p) { return t5Bucket(p, -100); }},
        {u"fam_t5_1000"_s, u"… 1000 before"_s, [](const Params &p) { return t5Bucket(p, -1000); }},
        {u"fam_t5_farthest"_s, u"… fam_farthest before"_s,
         [](const Params &p) {
             return atFamiliesDistance(p, FamiliesDistance::Farthest,
                                       [&](std::int64_t back) { return t5Bucket(p, -back); });
         }},
        {u"fam_t5_farthest_last"_s, u"a condition: the key fam_farthest before the query is in T5's last bucket"_s,
         [](const Params &p) {
             return RelativeBuckets::whenValid(T5Buckets::bucketFamily(), p, [&] {
                 return atFamiliesDistance(p, FamiliesDistance::Farthest, [&](std::int64_t back) {
                     return condition(back >= t5CapStart(p), u"the key is nearer than T5's last bucket"_s);
                 });
             });
         }},
    };
}

} // namespace posenc::T5LessonNumbers
