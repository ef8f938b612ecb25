// DeBERTa (docs/ARCHITECTURE.md, Encoding families): no term added to X; log buckets of query - key,
// as HF's make_log_bucket_position makes them, index its disentangled attention's relative embeddings.
#include "core/FamilySpec.h"

#include "core/deberta/DebertaBuckets.h"
#include "core/deberta/DebertaLessonNumbers.h"
#include "core/deberta/DebertaParamRows.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What describe prints after the buckets and max_position, each with its meaning.
QList<RelativeBuckets::Derived> debertaDerived(const Params &params)
{
    const DebertaBuckets::Description d = DebertaBuckets::describe(params);
    return {
        {u"mid"_s, d.mid, u"buckets / 2: each |i - j| <= mid is its own bucket"_s},
        {u"log_start"_s, d.logStart, u"mid + 1, the first distance in a logarithmic bucket"_s},
        {u"bucket_at_max_position"_s, d.bucketAtMaxPosition, {}},
        {u"bucket_at_max_len"_s, d.bucketAtMaxLen, u"the buckets of i - j = max_position and max-len - 1"_s},
        {u"capped"_s, d.capped, u"false: the bucket goes on growing past max_position (1000 is 317 at 256 and 512)"_s},
    };
}

} // namespace

FamilySpec makeDebertaFamily()
{
    FamilySpec family = RelativeBuckets::spec(DebertaBuckets::bucketFamily(), debertaDerived);
    family.word = u"deberta"_s;
    family.help = u"deberta (log buckets)"_s;
    family.formula
        = u"no term added; log buckets of i − j index the relative embeddings of its disentangled attention (He et al. "
          "2021; DeBERTa-v2, DeBERTa-v3)"_s;
    family.heading = u"DeBERTa log buckets"_s;
    family.rows = DebertaParamRows::rows;
    family.describeSource = u"HF's make_log_bucket_position, in float32"_s;
    family.lessonNumbers = DebertaLessonNumbers::entries;
    return family;
}

} // namespace posenc
