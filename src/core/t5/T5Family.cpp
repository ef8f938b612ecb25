// T5 (docs/ARCHITECTURE.md, Encoding families): no term added to X; each head adds a learned scalar
// per bucket of key - query, as HF's _relative_position_bucket buckets it.
#include "core/FamilySpec.h"

#include "core/t5/T5Buckets.h"
#include "core/t5/T5LessonNumbers.h"
#include "core/t5/T5ParamRows.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What describe prints after the buckets and max_distance, keyed by T5Words.json's describeKeys.
Description::Values t5Values(const Params &params)
{
    const T5Buckets::Description d = T5Buckets::describe(params);
    return {d.bidirectional ? u"bidirectional"_s : u"causal"_s,
            d.sideBuckets,
            d.maxExact,
            d.logBucketStarts,
            d.emptyBuckets,
            d.lastBucketStart};
}

} // namespace

FamilySpec makeT5Family()
{
    FamilySpec family = RelativeBuckets::spec(
        T5Buckets::bucketFamily(),
        {.rows = T5ParamRows::rows, .derived = t5Values, .lessonNumbers = T5LessonNumbers::entries});
    // The encoder's map is bidirectional and its self-attention unmasked but for padding; the
    // decoder's (--t5-causal) is causal (models/t5/modeling_t5.py, T5Attention.compute_bias's
    // bidirectional=(not self.is_decoder), T5Stack's causal mask only where is_decoder).
    family.attendsBothWays = [](const Params &params) { return !params.t5.causal; };
    return family;
}

} // namespace posenc
