// T5 (docs/ARCHITECTURE.md, Encoding families): no term added to X; each head adds a learned scalar
// per bucket of key - query, as HF's _relative_position_bucket buckets it.
#include "core/FamilySpec.h"

#include "core/t5/T5Buckets.h"
#include "core/t5/T5LessonNumbers.h"
#include "core/t5/T5ParamRows.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

Description::Entries t5Entries(const Params &params)
{
    const T5Buckets::Description d = T5Buckets::describe(params);
    return {
        {u"buckets"_s, d.buckets},
        {u"max_distance"_s, d.maxDistance},
        {u"direction"_s, d.bidirectional ? u"bidirectional"_s : u"causal"_s},
        {u"side_buckets"_s, d.sideBuckets},
        {u"max_exact"_s, d.maxExact},
        {u"log_bucket_starts"_s, d.logBucketStarts},
        {u"empty_buckets"_s, d.emptyBuckets},
        {u"last_bucket_start"_s, d.lastBucketStart},
    };
}

} // namespace

FamilySpec makeT5Family()
{
    FamilySpec family;
    family.word = u"t5"_s;
    family.kind = FamilyKind::ScoreBias;
    family.help = u"t5 (buckets of key - query)"_s;
    family.formula = u"no term added; each head adds a learned scalar per bucket of j − i, exact near and logarithmic "
                     u"far (Raffel et "
                     "al. 2020; T5, Flan-T5, mT5, Chronos)"_s;
    family.heading = u"T5 relative buckets"_s;
    family.rows = T5ParamRows::rows;
    family.describe = t5Entries;
    family.describeSource = u"HF's _relative_position_bucket, its logarithm in float32"_s;
    family.describeKeys = {
        {u"buckets, max_distance"_s, u"the parameters"_s},
        {u"direction"_s, u"bidirectional (the encoder) or causal (the decoder)"_s},
        {u"side_buckets"_s, u"n: buckets / 2 when bidirectional, else buckets"_s},
        {u"max_exact"_s, u"n / 2: each distance below it is its own bucket"_s},
        {u"log_bucket_starts"_s,
         u"the first distance of each logarithmic bucket max_exact .. n - 1 (a bucket no "
         "distance falls in starts where the next one does)"_s},
        {u"empty_buckets"_s, u"logarithmic buckets that no distance falls in"_s},
        {u"last_bucket_start"_s, u"every key at this distance or farther shares bucket n - 1"_s},
    };
    // X is s·E alone: its heatmap beside the buckets, which act on the scores.
    family.defaultFigures = {
        {u"buckets"_s, {}}, {u"families"_s, {}}, {u"heatmap"_s, {{u"quantity"_s, u"input"_s}}}, {u"magnitudes"_s, {}}};
    family.lessonNumbers = T5LessonNumbers::entries;
    family.score
        = FamilyScore {u"T5 bucket"_s, [](const Params &p, std::int64_t q, std::int64_t k) {
                           const RelativeBuckets::Family &buckets = T5Buckets::bucketFamily();
                           return buckets.problem(p) ? std::nullopt : std::optional(double(buckets.ofOffset(p, k - q)));
                       }};
    return family;
}

} // namespace posenc
