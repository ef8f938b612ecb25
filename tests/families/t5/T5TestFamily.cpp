// T5's test record (tests/support/TestFamily.h): its buckets against the float64 buckets of
// support/T5Reference.h (HF transformers' T5Attention._relative_position_bucket).
#include "support/T5Reference.h"
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
        for (const auto &[buckets, distance] :
             QList<std::pair<std::int64_t, std::int64_t>> {{4, 3}, {32, 128}, {64, 1000}, {65536, 32769}}) {
            for (const bool causal : {false, true}) {
                Params p;
                p.encoding = Encoding::T5;
                p.maxLen = L;
                p.t5 = {buckets, distance, causal};
                cases.append(
                    {u"t5 %1/%2 %3 L %4"_s.arg(buckets).arg(distance).arg(causal).arg(L), p, u"t5-bucket"_s, zero});
            }
        }
    }
    return cases;
}

} // namespace

POSENC_TEST_FAMILY(T5)
{
    TestFamily f;
    f.figureParams = [](posenc::Params p) {
        p.encoding = posenc::Encoding::T5;
        return p;
    };
    f.changes = {{u"t5-buckets"_s, u"12"_s}, {u"t5-max-distance"_s, u"20"_s}, {u"t5-causal"_s, u"true"_s}};
    // Spans that 16 positions reach past the exact buckets.
    const TestSetting t5 = {{u"encoding"_s, u"t5"_s}, {u"t5-buckets"_s, u"8"_s}, {u"t5-max-distance"_s, u"12"_s}};
    f.settings = {{u"t5"_s, t5}, {u"t5 causal"_s, t5 + TestSetting {{u"t5-causal"_s, u"true"_s}}}};
    for (const QString &causal : {u"false"_s, u"true"_s}) {
        TestReference bucket;
        bucket.name = causal == u"true"_s ? u"t5-bucket causal"_s : u"t5-bucket"_s;
        bucket.quantity = posenc::Quantity::T5Bucket;
        bucket.maxLen = 40;
        bucket.setting = {{u"encoding"_s, u"t5"_s},
                          {u"t5-buckets"_s, u"16"_s},
                          {u"t5-max-distance"_s, u"30"_s},
                          {u"t5-causal"_s, causal}};
        // Cell (i, j) holds the bucket of j - i; a logarithm within 1e-4 of a whole number may round
        // either way in float32, as torch's does.
        bucket.cell = [](const posenc::Params &p, std::int64_t i, std::int64_t j) {
            const t5ref::Bucket b = t5ref::t5(j - i, p.t5.buckets, p.t5.maxDistance, !p.t5.causal);
            return ReferenceCell {double(b.value), b.nearTie ? 1.0 : 0.0};
        };
        f.references.append(bucket);
    }
    f.roundTrips = roundTrips;
    f.readBack = {{u"t5-buckets"_s, u"64"_s}, {u"t5-max-distance"_s, u"256"_s}};
    f.quantities = {u"t5-bucket"_s};
    f.presets = {u"flan-t5-base"_s, u"t5-base"_s};
    f.describeKeys = {u"buckets"_s,   u"max_distance"_s,      u"direction"_s,     u"side_buckets"_s,
                      u"max_exact"_s, u"log_bucket_starts"_s, u"empty_buckets"_s, u"last_bucket_start"_s};
    f.helpFlags = {u"--t5-buckets N"_s, u"--t5-max-distance N"_s, u"--t5-causal "_s};
    f.cliFlags = {u"--t5-buckets"_s, u"33"_s, u"--t5-causal"_s, u"--t5-max-distance"_s, u"17"_s};
    f.refusals = {
        {u"odd bidirectional T5"_s,
         {u"--encoding"_s, u"t5"_s, u"--t5-buckets"_s, u"33"_s},
         {u"--t5-buckets: is odd: the bidirectional map halves the buckets"_s,
          u"it must be an even integer in [4, 65536] (bidirectional); got 33"_s}},
        {u"T5 max distance 16 of 32"_s,
         {u"--encoding"_s, u"t5"_s, u"--t5-max-distance"_s, u"16"_s},
         {u"--t5-max-distance: must be an integer in [17, 16777216] (more than t5-buckets / 2 = 16"_s,
          u"ln(max_distance / max_exact)"_s, u"got 16"_s}},
        {u"T5 max distance 8 of 16 causal"_s,
         {u"--encoding"_s, u"t5"_s, u"--t5-causal"_s, u"--t5-buckets"_s, u"16"_s, u"--t5-max-distance"_s, u"8"_s},
         {u"--t5-max-distance: must be an integer in [9, 16777216]"_s, u"max_exact = 8"_s, u"got 8"_s}},
    };
    f.otherValues = {
        {u"t5-buckets"_s, {u"12"_s, u"8"_s}},
        {u"t5-max-distance"_s, {u"20"_s, u"12"_s}},
        {u"t5-causal"_s, {u"true"_s, u"false"_s}},
    };
    f.idleCases = {{u"t5"_s, {}, u"t5-buckets"_s, std::nullopt},
                   {u"t5"_s, {}, u"t5-max-distance"_s, std::nullopt},
                   {u"t5"_s, {}, u"t5-causal"_s, std::nullopt},
                   {u"t5 causal"_s, {}, u"t5-buckets"_s, std::nullopt},
                   {u"t5 causal"_s, {}, u"t5-max-distance"_s, std::nullopt},
                   {u"t5 causal"_s, {}, u"t5-causal"_s, std::nullopt}};
    // Its panel: the bucket of each offset k, bidirectional or (flipped) causal.
    f.panelParams = [](posenc::Params p, bool flipped) {
        p.t5.causal = flipped;
        return p;
    };
    f.panel = [](const posenc::Params &p, std::int64_t, const TestPanel &drawn) -> std::optional<QString> {
        for (std::int64_t k = drawn.pixels.first; k <= drawn.pixels.last; ++k)
            if (!buckettie::matches(std::int64_t(drawn.stepAt(k)),
                                    t5ref::t5(k, p.t5.buckets, p.t5.maxDistance, !p.t5.causal)))
                return u"k %1: %2"_s.arg(k).arg(drawn.stepAt(k));
        return std::nullopt;
    };
    f.heatmapSign = 1;
    return f;
}
