#include "DebertaTableCheck.h"

#include "check/FitNumbers.h"
#include "check/OffsetProfile.h"
#include "check/OffsetReference.h"
#include "check/SampleScore.h"
#include "core/deberta/DebertaBuckets.h"

#include <cmath>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::DebertaTableCheck {

namespace {

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

// The max_position range the runs allow at `buckets`: a bucket is non-increasing in it.
std::optional<std::pair<std::int64_t, std::int64_t>> positionRange(const std::vector<ProfileRun> &runs,
                                                                   std::int64_t buckets)
{
    const auto differs = [&](std::int64_t x, bool tooSmall) {
        for (const ProfileRun &run : runs) {
            for (const std::int64_t d : {run.first, run.last}) {
                const double b = double(DebertaBuckets::bucket(d, buckets, x));
                if (tooSmall ? b > run.value : b < run.value)
                    return true;
            }
        }
        return false;
    };
    return FitNumbers::allowedRange(
        buckets / 2 + 2, Params::kMaxLen, [&](std::int64_t x) { return differs(x, true); },
        [&](std::int64_t x) { return differs(x, false); });
}

Found withRange(std::int64_t buckets, std::pair<std::int64_t, std::int64_t> range, bool shown)
{
    Found found;
    found.buckets = buckets;
    found.lo = range.first;
    found.hi = range.second;
    // DeBERTa-v3's 512 where the table allows it, then the roundest.
    found.maxPosition = found.lo <= 512 && 512 <= found.hi ? 512 : FitNumbers::roundest(found.lo, found.hi);
    found.bucketsShown = shown;
    return found;
}

// The buckets: distances up to mid = buckets / 2 are their own bucket, the first that is not is
// past mid. Each mid below it that a max_position allows, a power of two's buckets first, then the
// most.
std::optional<Found> fitRuns(const std::vector<ProfileRun> &runs)
{
    std::int64_t firstLog = -1;
    std::int64_t farthest = 0;
    for (const ProfileRun &run : runs) {
        farthest = std::max(farthest, run.last);
        // The first distance that is not its own bucket: the run's first where its value is not,
        // else the one after it.
        if (firstLog < 0 && (run.value != double(run.first) || run.last != run.first))
            firstLog = run.value == double(run.first) ? run.first + 1 : run.first;
    }
    if (firstLog < 0) {
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
OffsetReference::Values valuesOf(const Found &found, bool reversed = false)
{
    return [found, reversed](std::int64_t first, std::int64_t count, float *out) {
        for (std::int64_t k = 0; k < count; ++k) {
            const std::int64_t offset = reversed ? first + k : -(first + k);
            out[k] = float(DebertaBuckets::bucket(offset, found.buckets, found.maxPosition));
        }
    };
}

TableMatch matchOf(const TableEvidence &e, const Found &found, std::shared_ptr<const OffsetReference> reference)
{
    TableMatch m;
    m.table = kTable;
    m.findings = {{u"buckets"_s, found.buckets}, {u"max_position"_s, found.maxPosition}};
    m.positionOffset = 0;
    m.firstPositionRow = 0;
    m.precision = tablePrecision(storedFormat(e.table.storedType()), false);
    m.reference = std::move(reference);
    m.tolerance = cellTolerance(storedFormat(e.table.storedType()), e.table.storedType(), e.table.textRounding(),
                                double(std::max(found.buckets, std::max(e.rows(), e.cols()))));
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

std::optional<TableCandidate> fit(const TableEvidence &e)
{
    if (e.sameRow || e.infinite)
        return std::nullopt;
    const std::optional<OffsetProfile> profile = offsetProfile(e.sample);
    if (!profile || !profile->isToeplitz())
        return std::nullopt;
    // A table of j - i reads as DeBERTa's mirrored: the mistake, against the buckets of i - j.
    std::optional<Found> found = find(*profile);
    const bool reversed = !found;
    if (reversed)
        found = find(profile->mirrored());
    if (!found)
        return std::nullopt;
    const auto reference = std::make_shared<const OffsetReference>(e.cols(), valuesOf(*found));
    const auto read = reversed ? std::make_shared<const OffsetReference>(e.cols(), valuesOf(*found, true)) : reference;
    const SampleScore score
        = scoreOnSample(*read, e.sample,
                        cellTolerance(storedFormat(e.table.storedType()), e.table.storedType(), e.table.textRounding(),
                                      double(std::max(found->buckets, std::max(e.rows(), e.cols())))));
    TableCandidate c;
    c.compared = score.compared;
    c.bad = score.bad;
    c.claims = explains(c.compared, c.bad);
    if (c.claims) {
        c.match = matchOf(e, *found, reference);
        if (reversed)
            c.match.markRelativeReversed(
                u"the buckets of j − i, the key's position minus the query's: HF's build_relative_position takes "
                "relative_pos = query_ids − key_ids (i − j), so every bucket has the other sign"_s);
    }
    return c;
}

std::variant<TableMatch, QString> expect(const TableEvidence &e, const Params &params, const QString &table)
{
    if (table != kTable)
        return u"DeBERTa's table is 'deberta-bucket', not '%1'"_s.arg(table);
    if (!params.isValid() || params.encoding != Encoding::Deberta)
        return u"the parameters are not a valid DeBERTa's"_s;
    Found found;
    found.buckets = params.deberta.buckets;
    found.maxPosition = found.lo = found.hi = params.deberta.maxPosition;
    TableMatch m = matchOf(e, found, std::make_shared<const OffsetReference>(e.cols(), valuesOf(found)));
    m.params = params;
    return m;
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
    h.publishedForms = publishedForms;
    return h;
}

} // namespace posenc::DebertaTableCheck
