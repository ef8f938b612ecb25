#include "BucketFit.h"

#include "check/FitNumbers.h"

#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;

namespace posenc::BucketFit {

namespace {

std::optional<Found> find(const Table &table, const OffsetProfile &profile)
{
    if (!table.bucketValues(profile))
        return std::nullopt;
    for (const std::int32_t minVotes : {1, 2}) {
        if (auto found = table.fitRuns(profile, profileRuns(profile, false, minVotes)))
            return found;
    }
    return std::nullopt;
}

// The buckets of the family's offsets at the settings, or of the offsets negated (`reversed`: the
// difference taken the other way round).
OffsetReference::Values valuesOf(const Table &table, const Params &params, bool reversed)
{
    return [family = table.buckets, params, reversed](std::int64_t first, std::int64_t count, float *out) {
        RelativeBuckets::fillOffsets(family, params, first, count, out, reversed);
    };
}

// Buckets are whole numbers, which every faithful computation forms exactly: a cell whose bucket
// the table's format holds must hold it (CellTolerance::heldFormat).
CellTolerance exactTolerance(const TableEvidence &e, double largest)
{
    CellTolerance t = OffsetFit::tolerance(e, largest);
    t.heldFormat = e.format;
    return t;
}

CellTolerance toleranceOf(const Table &table, const TableEvidence &e, const Params &params)
{
    return exactTolerance(e, table.largest(e, params));
}

TableMatch matchOf(const Table &table, const TableEvidence &e, const Found &found,
                   std::shared_ptr<const OffsetReference> reference)
{
    const RelativeBuckets::Family &family = table.buckets;
    const QString &limitName = family.settings.limitName;
    const std::int64_t buckets = RelativeBuckets::buckets(family, found.params);
    const std::int64_t limit = RelativeBuckets::limit(family, found.params);
    TableMatch m = OffsetFit::match(e, table.table, std::move(reference), toleranceOf(table, e, found.params));
    m.findings = {{u"buckets"_s, buckets}, {limitName, limit}};
    if (table.moreFindings)
        m.findings += table.moreFindings(found.params);
    m.referenceText = u"%1, %2"_s.arg(table.table, table.settingsWords(found.params));
    m.verdict = CheckVerdict::Correct;
    m.correctAgainst = u"%1 at these buckets and %2"_s.arg(table.reference, limitName);
    m.diagnosis = table.diagnosis(found.params);
    if (found.hi > found.lo)
        m.notes.append(u"any %1 from %2 to %3 gives this table%4; %5 named"_s.arg(limitName)
                           .arg(found.lo)
                           .arg(found.hi)
                           .arg(table.rangeWhy)
                           .arg(limit));
    if (!found.bucketsShown)
        m.notes.append(table.bucketsHidden.arg(buckets));
    Params p = found.params;
    p.maxLen = std::clamp<std::int64_t>(e.rows(), 1, Params::kMaxLen);
    if (p.isValid())
        m.params = p;
    return m;
}

// A table read as the family's map with a defect: the mistake, compared with the map at its
// settings, and streamed against the defect's map too.
TableCandidate defectCandidate(const Table &table, const TableEvidence &e, const DefectReading &defect)
{
    const auto reference = std::make_shared<const OffsetReference>(e.cols(), e.sample.queryStart,
                                                                   valuesOf(table, defect.found.params, false));
    const auto read = std::make_shared<const OffsetReference>(e.cols(), e.sample.queryStart, defect.values);
    const CellTolerance tolerance = exactTolerance(e, defect.largest);
    return OffsetFit::candidate(e, *read, tolerance, [&] {
        TableMatch m = matchOf(table, e, defect.found, reference);
        m.verdict = CheckVerdict::Mistake;
        m.mistakes = {defect.mistake};
        m.correctAgainst.clear();
        m.diagnosis = defect.diagnosis;
        m.asRead = read;
        m.asReadTolerance = tolerance;
        return m;
    });
}

// The fit of a bucket table: the profile read the family's way round, else mirrored (the table
// holds the other difference: the mistake), else as the map with a defect (`Table::defect`).
// Nothing where none reads as the family's, or where a cell is infinite.
std::optional<TableCandidate> fit(const Table &table, const TableEvidence &e)
{
    const std::optional<OffsetProfile> profile = e.infinite ? std::nullopt : OffsetFit::profile(e);
    if (!profile)
        return std::nullopt;
    std::optional<Found> found = find(table, *profile);
    const bool reversed = !found;
    if (reversed)
        found = find(table, profile->mirrored());
    if (!found && table.defect) {
        if (const auto defect = table.defect(*profile))
            return defectCandidate(table, e, *defect);
    }
    if (!found)
        return std::nullopt;
    const auto reference = std::make_shared<const OffsetReference>(e.cols(), e.sample.queryStart,
                                                                   valuesOf(table, found->params, false));
    const auto read = reversed ? std::make_shared<const OffsetReference>(e.cols(), e.sample.queryStart,
                                                                         valuesOf(table, found->params, true))
                               : reference;
    return OffsetFit::candidate(e, *read, toleranceOf(table, e, found->params), [&] {
        TableMatch m = matchOf(table, e, *found, reference);
        if (reversed)
            m.markRelativeReversed(table.reversedWhy);
        return m;
    });
}

std::variant<TableMatch, QString> expect(const Table &table, const TableEvidence &e, const Params &params,
                                         const QString &word)
{
    const RelativeBuckets::Family &family = table.buckets;
    if (auto refused = OffsetFit::refusal(word, params, table.table, family.encoding, family.name))
        return *refused;
    Found found;
    found.params = params;
    found.lo = found.hi = RelativeBuckets::limit(family, params);
    TableMatch m = matchOf(table, e, found,
                           std::make_shared<const OffsetReference>(e.cols(), e.sample.queryStart,
                                                                   valuesOf(table, params, false)));
    m.params = params;
    return m;
}

} // namespace

std::optional<std::pair<std::int64_t, std::int64_t>> limitRange(const RelativeBuckets::Family &family,
                                                                const Params &params,
                                                                const std::vector<ProfileRun> &runs, std::int64_t least)
{
    Params at = params;
    const auto differs = [&](std::int64_t x, bool tooSmall) {
        family.settings.limit(at) = x;
        for (const ProfileRun &run : runs) {
            for (const std::int64_t d : {run.first, run.last}) {
                const double b = double(family.ofOffset(at, -d));
                if (tooSmall ? b > run.value : b < run.value)
                    return true;
            }
        }
        return false;
    };
    return FitNumbers::allowedRange(
        least, Params::kMaxLen, [&](std::int64_t x) { return differs(x, true); },
        [&](std::int64_t x) { return differs(x, false); });
}

Found found(const Table &table, Params params, std::int64_t buckets, std::pair<std::int64_t, std::int64_t> range,
            bool shown)
{
    Found found;
    found.lo = range.first;
    found.hi = range.second;
    const std::int64_t limit = found.lo <= table.ownLimit && table.ownLimit <= found.hi
        ? table.ownLimit
        : FitNumbers::roundest(found.lo, found.hi);
    RelativeBuckets::setSettings(table.buckets, params, buckets, limit);
    found.params = std::move(params);
    found.bucketsShown = shown;
    return found;
}

std::int64_t firstShared(const std::vector<ProfileRun> &runs)
{
    for (const ProfileRun &run : runs) {
        if (run.value != double(run.first) || run.last != run.first)
            return run.value == double(run.first) ? run.first + 1 : run.first;
    }
    return -1;
}

// The evidence with its queries where the family's code puts them: a map whose queries are the first
// of its keys (DeBERTa's) is read from 0 where no declaration gives the window, a copy of the sample
// taking that start; any other as the sample is.
template<typename Read>
auto atOwnQueries(const Table &table, const TableEvidence &e, Read read)
{
    const std::int64_t start = e.declared.queryStart.value_or(table.queriesFirst ? 0 : e.sample.queryStart);
    if (start == e.sample.queryStart)
        return read(e);
    TableSample sample = e.sample;
    sample.queryStart = start;
    TableEvidence at {e.table, sample, e.framing, e.format, e.declared, e.sameRow, e.infinite};
    return read(at);
}

TableHypothesis hypothesis(const Table &table)
{
    TableHypothesis h;
    h.tables = {table.table};
    h.findingKeys = QStringList {u"buckets"_s, table.buckets.settings.limitName} + table.moreFindingKeys;
    h.help = table.help;
    h.mistakes = QStringList {CheckMistakes::kRelativeReversed} + table.defectMistakes;
    h.fit = [table](const TableEvidence &e) {
        return atOwnQueries(table, e, [&](const TableEvidence &at) { return fit(table, at); });
    };
    h.expect = [table](const TableEvidence &e, const Params &params, const QString &word) {
        return atOwnQueries(table, e, [&](const TableEvidence &at) { return expect(table, at, params, word); });
    };
    h.referenceCode = table.referenceCode;
    h.publishedForms = table.publishedForms;
    return h;
}

} // namespace posenc::BucketFit
