// DeBERTa's test record (tests/support/TestFamily.h): its buckets against the float64 buckets of
// support/DebertaReference.h (HF transformers' make_log_bucket_position).
#include "support/DebertaReference.h"
#include "support/TestFamily.h"

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// Its tables over its rows' corners, at 1 position (every cell 0) to many.
QList<TestRoundTrip> roundTrips(bool longMode)
{
    QList<TestRoundTrip> cases;
    const QList<std::int64_t> lengths
        = longMode ? QList<std::int64_t> {1, 2, 64, 1024, 16384} : QList<std::int64_t> {1, 2, 64, 1024};
    for (const std::int64_t L : lengths) {
        const QString zero = L == 1 ? u"every cell is 0"_s : QString();
        for (const auto &[buckets, position] :
             QList<std::pair<std::int64_t, std::int64_t>> {{2, 3}, {256, 512}, {128, 256}, {65536, 32770}}) {
            Params p;
            p.encoding = Encoding::Deberta;
            p.maxLen = L;
            p.deberta = {buckets, position};
            cases.append({u"deberta %1/%2 L %3"_s.arg(buckets).arg(position).arg(L), p, u"deberta-bucket"_s, zero});
        }
    }
    return cases;
}

} // namespace

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
    f.roundTrips = roundTrips;
    f.readBack = {{u"deberta-buckets"_s, u"128"_s}, {u"deberta-max-position"_s, u"1024"_s}};
    f.quantities = {u"deberta-bucket"_s};
    f.presets = {u"deberta-v3-base"_s};
    f.describeKeys = {u"buckets"_s,           u"max_position"_s, u"mid"_s, u"log_start"_s, u"bucket_at_max_position"_s,
                      u"bucket_at_max_len"_s, u"capped"_s};
    f.helpFlags = {u"--deberta-buckets N"_s, u"--deberta-max-position N"_s};
    f.cliFlags = {u"--deberta-buckets"_s, u"8"_s, u"--deberta-max-position"_s, u"6"_s};
    f.refusals = {
        {u"odd DeBERTa"_s,
         {u"--encoding"_s, u"deberta"_s, u"--deberta-buckets"_s, u"255"_s},
         {u"--deberta-buckets: is odd"_s, u"it must be an even integer in [2, 65536]; got 255"_s}},
        {u"DeBERTa max position too small"_s,
         {u"--encoding"_s, u"deberta"_s, u"--deberta-max-position"_s, u"129"_s},
         {u"--deberta-max-position: must be an integer in [130, 16777216] (more than deberta-buckets / 2 + 1 = 129"_s,
          u"got 129"_s}},
    };
    f.otherValues = {
        {u"deberta-buckets"_s, {u"6"_s, u"8"_s}},
        {u"deberta-max-position"_s, {u"20"_s, u"12"_s, u"1024"_s}},
    };
    // Its panel: the bucket of q - j = -k at each offset k.
    f.panel = [](const posenc::Params &p, std::int64_t, const TestPanel &drawn) -> std::optional<QString> {
        for (std::int64_t k = drawn.pixels.first; k <= drawn.pixels.last; ++k)
            if (!buckettie::matches(std::int64_t(drawn.stepAt(k)),
                                    debertaref::deberta(-k, p.deberta.buckets, p.deberta.maxPosition)))
                return u"k %1: %2"_s.arg(k).arg(drawn.stepAt(k));
        return std::nullopt;
    };
    return f;
}
