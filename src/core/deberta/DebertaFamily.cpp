// DeBERTa (docs/ARCHITECTURE.md, Encoding families): no term added to X; log buckets of query - key,
// as HF's make_log_bucket_position makes them, index its disentangled attention's relative embeddings.
#include "core/FamilySpec.h"

#include "core/deberta/DebertaBuckets.h"
#include "core/deberta/DebertaLessonNumbers.h"
#include "core/deberta/DebertaParamRows.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What describe prints after the buckets and max_position, keyed by DebertaWords.json's describeKeys.
Description::Values debertaValues(const Params &params)
{
    const DebertaBuckets::Description d = DebertaBuckets::describe(params);
    return {d.mid, d.logStart, d.bucketAtMaxPosition, d.bucketAtMaxLen, d.capped};
}

} // namespace

FamilySpec makeDebertaFamily()
{
    FamilySpec family = RelativeBuckets::spec(
        DebertaBuckets::bucketFamily(),
        {.rows = DebertaParamRows::rows, .derived = debertaValues, .lessonNumbers = DebertaLessonNumbers::entries});
    // An encoder: transformers' DebertaV2Model builds no causal mask (models/deberta_v2/
    // modeling_deberta_v2.py, DebertaV2Encoder.get_attention_mask from the padding mask alone).
    family.attendsBothWays = [](const Params &) { return true; };
    return family;
}

} // namespace posenc
