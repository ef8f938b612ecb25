// T5 (docs/ARCHITECTURE.md, Encoding families): no term added to X; each head adds a learned scalar
// per bucket of key - query, as HF's _relative_position_bucket buckets it.
#include "core/FamilySpec.h"

#include "core/t5/T5Buckets.h"
#include "core/t5/T5LessonNumbers.h"
#include "core/t5/T5ParamRows.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What describe prints after the buckets and max_distance, each with its meaning.
QList<RelativeBuckets::Derived> t5Derived(const Params &params)
{
    const T5Buckets::Description d = T5Buckets::describe(params);
    return {
        {u"direction"_s, d.bidirectional ? u"bidirectional"_s : u"causal"_s,
         u"bidirectional (the encoder) or causal (the decoder)"_s},
        {u"side_buckets"_s, d.sideBuckets, u"n: buckets / 2 when bidirectional, else buckets"_s},
        {u"max_exact"_s, d.maxExact, u"n / 2: each distance below it is its own bucket"_s},
        {u"log_bucket_starts"_s, d.logBucketStarts,
         u"the first distance of each logarithmic bucket max_exact .. n - 1 (a bucket no distance falls in starts "
         "where the next one does)"_s},
        {u"empty_buckets"_s, d.emptyBuckets, u"logarithmic buckets that no distance falls in"_s},
        {u"last_bucket_start"_s, d.lastBucketStart, u"every key at this distance or farther shares bucket n - 1"_s},
    };
}

} // namespace

FamilySpec makeT5Family()
{
    FamilySpec family = RelativeBuckets::spec(T5Buckets::bucketFamily(), t5Derived);
    family.word = u"t5"_s;
    family.help = u"t5 (buckets of key - query)"_s;
    family.formula = u"no term added; each head adds a learned scalar per bucket of j − i, exact near and logarithmic "
                     u"far (Raffel et "
                     "al. 2020; T5, Flan-T5, mT5, Chronos)"_s;
    family.heading = u"T5 relative buckets"_s;
    family.rows = T5ParamRows::rows;
    family.describeSource = u"HF's _relative_position_bucket, its logarithm in float32"_s;
    family.lessonNumbers = T5LessonNumbers::entries;
    return family;
}

} // namespace posenc
