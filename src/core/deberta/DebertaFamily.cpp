// DeBERTa (docs/ARCHITECTURE.md, Encoding families): no term added to X; log buckets of query - key,
// as HF's make_log_bucket_position makes them, index its disentangled attention's relative embeddings.
#include "core/FamilySpec.h"

#include "core/deberta/DebertaBuckets.h"
#include "core/deberta/DebertaLessonNumbers.h"
#include "core/deberta/DebertaParamRows.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

Description::Entries debertaEntries(const Params &params)
{
    const DebertaBuckets::Description d = DebertaBuckets::describe(params);
    return {
        {u"buckets"_s, d.buckets},
        {u"max_position"_s, d.maxPosition},
        {u"mid"_s, d.mid},
        {u"log_start"_s, d.logStart},
        {u"bucket_at_max_position"_s, d.bucketAtMaxPosition},
        {u"bucket_at_max_len"_s, d.bucketAtMaxLen},
        {u"capped"_s, d.capped},
    };
}

} // namespace

FamilySpec makeDebertaFamily()
{
    FamilySpec family;
    family.word = u"deberta"_s;
    family.kind = FamilyKind::ScoreBias;
    family.help = u"deberta (log buckets)"_s;
    family.formula
        = u"no term added; log buckets of i − j index the relative embeddings of its disentangled attention (He et al. "
          "2021; DeBERTa-v2, DeBERTa-v3)"_s;
    family.heading = u"DeBERTa log buckets"_s;
    family.rows = DebertaParamRows::rows;
    family.describe = debertaEntries;
    family.describeSource = u"HF's make_log_bucket_position, in float32"_s;
    family.describeKeys = {
        {u"buckets, max_position"_s, u"the parameters"_s},
        {u"mid"_s, u"buckets / 2: each |i - j| <= mid is its own bucket"_s},
        {u"log_start"_s, u"mid + 1, the first distance in a logarithmic bucket"_s},
        {u"bucket_at_max_position, bucket_at_max_len"_s, u"the buckets of i - j = max_position and max-len - 1"_s},
        {u"capped"_s, u"false: the bucket goes on growing past max_position (1000 is 317 at 256 and 512)"_s},
    };
    // X is s·E alone: its heatmap beside the buckets, which act on the scores.
    family.defaultFigures = {
        {u"buckets"_s, {}}, {u"families"_s, {}}, {u"heatmap"_s, {{u"quantity"_s, u"input"_s}}}, {u"magnitudes"_s, {}}};
    family.lessonNumbers = DebertaLessonNumbers::entries;
    family.score
        = FamilyScore {u"DeBERTa bucket"_s, [](const Params &p, std::int64_t q, std::int64_t k) {
                           const RelativeBuckets::Family &buckets = DebertaBuckets::bucketFamily();
                           return buckets.problem(p) ? std::nullopt : std::optional(double(buckets.ofOffset(p, k - q)));
                       }};
    return family;
}

} // namespace posenc
