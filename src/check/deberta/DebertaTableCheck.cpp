#include "DebertaTableCheck.h"

#include "check/BucketFit.h"
#include "core/deberta/DebertaBuckets.h"

#include <cmath>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::DebertaTableCheck {

namespace {

// A table of j - i reads as DeBERTa's mirrored: the mistake, against the buckets of i - j.
const QString kReversed
    = u"the buckets of j − i, the key's position minus the query's: HF's build_relative_position takes "
      "relative_pos = query_ids − key_ids (i − j), so every bucket has the other sign"_s;
const QString kTable = u"deberta-bucket"_s;

// What the table shows: the buckets, and the max_position range it allows.
struct Found
{
    std::int64_t buckets = 0;
    bool bucketsShown = true; // a distance past buckets / 2 is in the table
    std::int64_t maxPosition = 0; // the roundest of [lo, hi]
    std::int64_t lo = 0, hi = 0;
};

// Whether every value is a whole number, the offset 0's bucket 0, and the table antisymmetric
// where both sides are held: the bucket of i - j.
bool bucketValues(const OffsetProfile &profile)
{
    if (!profile.has(0) || profile.at(0) != 0.0f || !profile.has(-1) || profile.at(-1) != 1.0f)
        return false;
    for (std::size_t k = 0; k < profile.values.size(); ++k) {
        const float v = profile.values[k];
        if (profile.votes[k] > 0 && !(v == std::floor(v) && std::fabs(v) < float(Params::kMaxLen)))
            return false;
    }
    return !profile.has(1) || profile.at(1) == -1.0f;
}

// The max_position range the runs allow at `buckets`.
std::optional<std::pair<std::int64_t, std::int64_t>> positionRange(const std::vector<ProfileRun> &runs,
                                                                   std::int64_t buckets)
{
    return BucketFit::limitRange(runs, buckets / 2 + 2,
                                 [&](std::int64_t d, std::int64_t x) { return DebertaBuckets::bucket(d, buckets, x); });
}

Found withRange(std::int64_t buckets, std::pair<std::int64_t, std::int64_t> range, bool shown)
{
    Found found;
    found.buckets = buckets;
    found.lo = range.first;
    found.hi = range.second;
    // DeBERTa-v3's 512 where the table allows it, then the roundest.
    found.maxPosition = BucketFit::namedLimit(found.lo, found.hi, 512);
    found.bucketsShown = shown;
    return found;
}

// The buckets: distances up to mid = buckets / 2 are their own bucket, the first that is not is
// past mid. Each mid below it that a max_position allows, a power of two's buckets first, then the
// most.
std::optional<Found> fitRuns(const std::vector<ProfileRun> &runs)
{
    const std::int64_t firstLog = BucketFit::firstShared(runs);
    if (firstLog < 0) {
        std::int64_t farthest = 0;
        for (const ProfileRun &run : runs)
            farthest = std::max(farthest, run.last);
        // Every distance its own bucket: the buckets do not show; DeBERTa-v3's 256 where allowed.
        const std::int64_t buckets = std::max<std::int64_t>(256, 2 * farthest);
        const auto range = positionRange(runs, buckets);
        return range ? std::optional<Found>(withRange(buckets, *range, false)) : std::nullopt;
    }
    std::optional<Found> most;
    for (std::int64_t mid = firstLog - 1; mid >= 1; --mid) {
        const auto range = positionRange(runs, 2 * mid);
        if (!range)
            continue;
        const Found found = withRange(2 * mid, *range, true);
        if ((mid & (mid - 1)) == 0)
            return found;
        if (!most)
            most = found;
    }
    return most;
}

std::optional<Found> find(const OffsetProfile &profile)
{
    if (!bucketValues(profile))
        return std::nullopt;
    for (const std::int32_t minVotes : {1, 2}) {
        if (auto found = fitRuns(profileRuns(profile, false, minVotes)))
            return found;
    }
    return std::nullopt;
}

// The buckets of i - j, HF's relative_pos = query_ids - key_ids (build_relative_position), or of
// j - i (`reversed`: the difference taken the other way round).
OffsetReference::Values valuesOf(const Found &found, bool reversed)
{
    return [found, reversed](std::int64_t first, std::int64_t count, float *out) {
        for (std::int64_t k = 0; k < count; ++k) {
            const std::int64_t offset = reversed ? first + k : -(first + k);
            out[k] = float(DebertaBuckets::bucket(offset, found.buckets, found.maxPosition));
        }
    };
}

CellTolerance toleranceOf(const TableEvidence &e, const Found &found)
{
    return OffsetFit::tolerance(e, double(std::max(found.buckets, std::max(e.rows(), e.cols()))));
}

TableMatch matchOf(const TableEvidence &e, const Found &found, std::shared_ptr<const OffsetReference> reference)
{
    TableMatch m = OffsetFit::match(e, kTable, std::move(reference), toleranceOf(e, found));
    m.findings = {{u"buckets"_s, found.buckets}, {u"max_position"_s, found.maxPosition}};
    m.referenceText = u"deberta-bucket, %1 buckets, max_position %2"_s.arg(found.buckets).arg(found.maxPosition);
    m.verdict = CheckVerdict::Correct;
    m.correctAgainst = u"HF's make_log_bucket_position at these buckets and max_position"_s;
    m.diagnosis = u"DeBERTa's log buckets of i − j as HF's make_log_bucket_position makes them: %1 buckets "
                  "(|i − j| up to %2 its own), max_position %3, not capped"_s.arg(found.buckets)
                      .arg(found.buckets / 2)
                      .arg(found.maxPosition);
    if (found.hi > found.lo)
        m.notes.append(u"any max_position from %1 to %2 gives this table; %3 named"_s.arg(found.lo).arg(found.hi).arg(
            found.maxPosition));
    if (!found.bucketsShown)
        m.notes.append(
            u"every distance of the table is its own bucket: the buckets do not show, %1 named"_s.arg(found.buckets));
    Params p;
    p.encoding = Encoding::Deberta;
    p.maxLen = std::clamp<std::int64_t>(e.rows(), 1, Params::kMaxLen);
    p.deberta.buckets = found.buckets;
    p.deberta.maxPosition = found.maxPosition;
    if (p.isValid())
        m.params = p;
    return m;
}

std::variant<TableMatch, QString> expect(const TableEvidence &e, const Params &params, const QString &table)
{
    if (auto refused = OffsetFit::refusal(table, params, kTable, Encoding::Deberta, u"DeBERTa"_s))
        return *refused;
    Found found;
    found.buckets = params.deberta.buckets;
    found.maxPosition = found.lo = found.hi = params.deberta.maxPosition;
    TableMatch m = matchOf(e, found, std::make_shared<const OffsetReference>(e.cols(), valuesOf(found, false)));
    m.params = params;
    return m;
}

std::optional<TableCandidate> fit(const TableEvidence &e)
{
    return BucketFit::fit<Found>(e, find, valuesOf, toleranceOf, matchOf, kReversed);
}

QList<PublishedForm> publishedForms(std::int64_t)
{
    Params p;
    p.encoding = Encoding::Deberta;
    return {{u"DeBERTa-v3-base"_s, u"microsoft/deberta-v3-base, config.json"_s, kTable, p}};
}

} // namespace

TableHypothesis hypothesis()
{
    TableHypothesis h;
    h.tables = {kTable};
    h.findingKeys = {u"buckets"_s, u"max_position"_s};
    h.help = u"DeBERTa's log buckets of i - j (L x L): the buckets and the max_position the table allows"_s;
    h.mistakes = {CheckMistakes::kRelativeReversed};
    h.fit = fit;
    h.expect = expect;
    h.referenceCode
        = u"huggingface/transformers src/transformers/models/deberta_v2/modeling_deberta_v2.py, make_log_bucket_position and build_relative_position"_s;
    h.publishedForms = publishedForms;
    return h;
}

} // namespace posenc::DebertaTableCheck
