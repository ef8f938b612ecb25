#include "T5TableCheck.h"

#include "check/BucketFit.h"
#include "core/t5/T5Buckets.h"

#include <cmath>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::T5TableCheck {

namespace {

// A table of i - j reads as T5's mirrored: the mistake, against the buckets of j - i.
const QString kReversed
    = u"the buckets of i − j, the query's position minus the key's: HF's _relative_position_bucket takes "
      "relative_position = memory_position − context_position, the key's minus the query's (j − i), "
      "so the keys before and after the query trade buckets"_s;
const QString kTable = u"t5-bucket"_s;

// What the table shows: the direction, the buckets, and the max_distance range it allows.
struct Found
{
    bool bidirectional = true;
    std::int64_t buckets = 0;
    bool bucketsShown = true; // the table reaches the distances that tell the buckets
    std::int64_t maxDistance = 0; // the roundest of [lo, hi]
    std::int64_t lo = 0, hi = 0;
};

// Whether every value is a whole number from 0, and the offset 0's bucket 0.
bool bucketValues(const OffsetProfile &profile)
{
    if (!profile.has(0) || profile.at(0) != 0.0f)
        return false;
    for (std::size_t k = 0; k < profile.values.size(); ++k) {
        const float v = profile.values[k];
        if (profile.votes[k] > 0 && !(v >= 0.0f && v == std::floor(v) && v < float(T5Params::kMaxBuckets)))
            return false;
    }
    return true;
}

// The max_distance range the side's runs allow at `buckets`.
std::optional<std::pair<std::int64_t, std::int64_t>> distanceRange(const std::vector<ProfileRun> &runs,
                                                                   std::int64_t buckets, bool bidirectional)
{
    return BucketFit::limitRange(runs, buckets / 2 + 1, [&](std::int64_t d, std::int64_t x) {
        return T5Buckets::bucket(-d, buckets, x, bidirectional);
    });
}

// The side's buckets: bidirectional's from the first key after the query (its half's offset),
// causal's from the largest bucket (the cap) up to where the distances stop being their own
// bucket; the fewest that a max_distance allows.
std::optional<Found> fitSide(const OffsetProfile &profile, const std::vector<ProfileRun> &runs, bool bidirectional)
{
    if (runs.empty())
        return std::nullopt;
    std::int64_t least = 2, most = T5Params::kMaxBuckets;
    if (bidirectional) {
        if (!profile.has(-1))
            return std::nullopt;
        least = most = 2 * std::int64_t(profile.at(1) - profile.at(-1));
    } else {
        double largest = 0.0;
        for (const ProfileRun &run : runs)
            largest = std::max(largest, run.value);
        least = std::int64_t(largest) + 1;
        // Distances below max_exact = buckets / 2 are their own bucket: the first that is not
        // bounds max_exact. A table whose every distance is its own bucket does not show them:
        // T5's 32 where it allows it.
        if (const std::int64_t shared = BucketFit::firstShared(runs); shared >= 0)
            most = std::min(most, 2 * (shared - 1) + 1);
        else
            least = most = std::max<std::int64_t>(32, 2 * least);
    }
    Found found;
    found.bidirectional = bidirectional;
    for (std::int64_t n = std::max<std::int64_t>(least, bidirectional ? 4 : 2); n <= most; ++n) {
        if (bidirectional && n % 2 != 0)
            continue;
        if (const auto range = distanceRange(runs, n, bidirectional)) {
            found.buckets = n;
            found.lo = range->first;
            found.hi = range->second;
            // 128 is T5's own; then the roundest the table allows.
            found.maxDistance = BucketFit::namedLimit(found.lo, found.hi, 128);
            found.bucketsShown = bidirectional || least < most;
            return found;
        }
    }
    return std::nullopt;
}

std::optional<Found> find(const OffsetProfile &profile)
{
    if (!bucketValues(profile))
        return std::nullopt;
    // Keys after the query: 0 when causal, from buckets / 2 on when bidirectional.
    const bool bidirectional = profile.has(1) && profile.at(1) > 0.0f;
    for (const std::int32_t minVotes : {1, 2}) {
        if (auto found = fitSide(profile, profileRuns(profile, false, minVotes), bidirectional))
            return found;
    }
    return std::nullopt;
}

// The buckets of j - i, HF's relative_position = memory_position - context_position, or of i - j
// (`reversed`: the difference taken the other way round).
OffsetReference::Values valuesOf(const Found &found, bool reversed)
{
    return [found, reversed](std::int64_t first, std::int64_t count, float *out) {
        for (std::int64_t k = 0; k < count; ++k) {
            const std::int64_t offset = reversed ? -(first + k) : first + k;
            out[k] = float(T5Buckets::bucket(offset, found.buckets, found.maxDistance, found.bidirectional));
        }
    };
}

QString direction(bool bidirectional)
{
    return bidirectional ? u"bidirectional"_s : u"causal"_s;
}

QStringList notes(const Found &found)
{
    QStringList notes;
    if (found.hi > found.lo)
        notes.append(u"any max_distance from %1 to %2 gives this table (its distances do not reach the buckets that "
                     "tell them apart); %3 named"_s.arg(found.lo)
                         .arg(found.hi)
                         .arg(found.maxDistance));
    if (!found.bucketsShown)
        notes.append(u"the table's distances stay below the bucket cap: %1 buckets is the fewest it allows"_s.arg(
            found.buckets));
    return notes;
}

CellTolerance toleranceOf(const TableEvidence &e, const Found &found)
{
    return OffsetFit::tolerance(e, double(found.buckets));
}

TableMatch matchOf(const TableEvidence &e, const Found &found, std::shared_ptr<const OffsetReference> reference)
{
    TableMatch m = OffsetFit::match(e, kTable, std::move(reference), toleranceOf(e, found));
    m.findings = {{u"buckets"_s, found.buckets},
                  {u"max_distance"_s, found.maxDistance},
                  {u"bidirectional"_s, found.bidirectional}};
    m.referenceText = u"t5-bucket, %1, %2 buckets, max_distance %3"_s.arg(direction(found.bidirectional))
                          .arg(found.buckets)
                          .arg(found.maxDistance);
    m.verdict = CheckVerdict::Correct;
    m.correctAgainst = u"HF's T5Attention._relative_position_bucket at these buckets and max_distance"_s;
    m.diagnosis = u"T5's buckets of j − i as HF's _relative_position_bucket makes them: %1, %2 buckets, max_distance "
                  "%3%4"_s.arg(direction(found.bidirectional))
                      .arg(found.buckets)
                      .arg(found.maxDistance)
                      .arg(found.bidirectional ? u" (keys after the query from bucket %1 on)"_s.arg(found.buckets / 2)
                                               : u" (keys after the query in bucket 0)"_s);
    m.notes = notes(found);
    Params p;
    p.encoding = Encoding::T5;
    p.maxLen = std::clamp<std::int64_t>(e.rows(), 1, Params::kMaxLen);
    p.t5.buckets = found.buckets;
    p.t5.maxDistance = found.maxDistance;
    p.t5.causal = !found.bidirectional;
    if (p.isValid())
        m.params = p;
    return m;
}

std::optional<TableCandidate> fit(const TableEvidence &e)
{
    return BucketFit::fit<Found>(e, find, valuesOf, toleranceOf, matchOf, kReversed);
}

std::variant<TableMatch, QString> expect(const TableEvidence &e, const Params &params, const QString &table)
{
    if (auto refused = OffsetFit::refusal(table, params, kTable, Encoding::T5, u"T5"_s))
        return *refused;
    Found found;
    found.bidirectional = !params.t5.causal;
    found.buckets = params.t5.buckets;
    found.maxDistance = found.lo = found.hi = params.t5.maxDistance;
    TableMatch m = matchOf(e, found, std::make_shared<const OffsetReference>(e.cols(), valuesOf(found, false)));
    m.params = params;
    return m;
}

QList<PublishedForm> publishedForms(std::int64_t)
{
    Params p;
    p.encoding = Encoding::T5;
    QList<PublishedForm> forms {{u"T5's encoder"_s, u"google-t5/t5-base, config.json"_s, kTable, p}};
    p.t5.causal = true;
    forms.append({u"T5's decoder"_s, u"google-t5/t5-base, config.json"_s, kTable, p});
    return forms;
}

} // namespace

TableHypothesis hypothesis()
{
    TableHypothesis h;
    h.tables = {kTable};
    h.findingKeys = {u"buckets"_s, u"max_distance"_s, u"bidirectional"_s};
    h.help = u"T5's buckets of j - i (L x L): bidirectional or causal, the buckets and the max_distance the table "
             "allows"_s;
    h.mistakes = {CheckMistakes::kRelativeReversed};
    h.fit = fit;
    h.expect = expect;
    h.referenceCode
        = u"huggingface/transformers src/transformers/models/t5/modeling_t5.py, T5Attention._relative_position_bucket"_s;
    h.publishedForms = publishedForms;
    return h;
}

} // namespace posenc::T5TableCheck
