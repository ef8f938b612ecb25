// DeBERTa's test record (tests/support/TestFamily.h): its buckets against the float64 buckets of
// support/DebertaReference.h (HF transformers' make_log_bucket_position).
#include "support/DebertaReference.h"
#include "support/TestFamily.h"

using namespace Qt::StringLiterals;

POSENC_TEST_FAMILY(Deberta)
{
    TestFamily f;
    f.figureParams = [](posenc::Params p) {
        p.encoding = posenc::Encoding::Deberta;
        return p;
    };
    f.changes = {{u"deberta-buckets"_s, u"6"_s}, {u"deberta-max-position"_s, u"20"_s}};
    f.settings
        = {{u"deberta"_s,
            {{u"encoding"_s, u"deberta"_s}, {u"deberta-buckets"_s, u"8"_s}, {u"deberta-max-position"_s, u"12"_s}}}};
    TestReference bucket;
    bucket.name = u"deberta-bucket"_s;
    bucket.quantity = posenc::Quantity::DebertaBucket;
    bucket.maxLen = 40;
    bucket.setting
        = {{u"encoding"_s, u"deberta"_s}, {u"deberta-buckets"_s, u"16"_s}, {u"deberta-max-position"_s, u"30"_s}};
    // Cell (i, j) holds the bucket of i - j; a logarithm within 1e-4 of a whole number may round
    // either way in float32, as torch's does.
    bucket.cell = [](const posenc::Params &p, std::int64_t i, std::int64_t j) {
        const debertaref::Bucket b = debertaref::deberta(i - j, p.deberta.buckets, p.deberta.maxPosition);
        return ReferenceCell {double(b.value), b.nearTie ? 1.0 : 0.0};
    };
    f.references.append(bucket);
    return f;
}
