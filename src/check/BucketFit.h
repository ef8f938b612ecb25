#pragma once

#include "check/OffsetFit.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

// What the hypotheses of a table of relative-position buckets share (T5's, DeBERTa's;
// docs/ARCHITECTURE.md, Checking a table): the range of the limit (max_distance, max_position) the
// table's runs of equal buckets allow, the limit named in it, the first distance that shares a
// bucket, and the fit of a table read the family's way round or mirrored (the mistake
// relative-position-reversed). A family gives its bucket function, what it reads of the profile
// and its words.
namespace posenc::BucketFit {

// The limits from `least` on that the runs allow at the family's buckets: `bucket` of a distance at
// a limit, non-increasing in the limit at any distance. Nothing where none does.
std::optional<std::pair<std::int64_t, std::int64_t>>
limitRange(const std::vector<ProfileRun> &runs, std::int64_t least,
           const std::function<std::int64_t(std::int64_t distance, std::int64_t limit)> &bucket);

// The limit named of [lo, hi]: the model's own (`own`) where the table allows it, else the roundest.
std::int64_t namedLimit(std::int64_t lo, std::int64_t hi, std::int64_t own);

// The first distance of the runs that is not its own bucket (the first run's whose value is not its
// distance, else the one after it); -1 where every distance is its own.
std::int64_t firstShared(const std::vector<ProfileRun> &runs);

// The fit of a bucket table: `find` reads the profile the family's way round, else mirrored (the
// table holds the other difference: the mistake, `reversedWhy` its words); `values` are the
// buckets at the offsets, the other way round where `reversed`; `tolerance` and `match` the
// family's. Nothing where neither way reads as the family's, or where a cell is infinite.
template<class Found>
std::optional<TableCandidate> fit(const TableEvidence &e,
                                  const std::function<std::optional<Found>(const OffsetProfile &)> &find,
                                  const std::function<OffsetReference::Values(const Found &, bool reversed)> &values,
                                  const std::function<CellTolerance(const TableEvidence &, const Found &)> &tolerance,
                                  const std::function<TableMatch(const TableEvidence &, const Found &,
                                                                 std::shared_ptr<const OffsetReference>)> &match,
                                  const QString &reversedWhy)
{
    const std::optional<OffsetProfile> profile = e.infinite ? std::nullopt : OffsetFit::profile(e);
    if (!profile)
        return std::nullopt;
    std::optional<Found> found = find(*profile);
    const bool reversed = !found;
    if (reversed)
        found = find(profile->mirrored());
    if (!found)
        return std::nullopt;
    const auto reference = std::make_shared<const OffsetReference>(e.cols(), values(*found, false));
    const auto read = reversed ? std::make_shared<const OffsetReference>(e.cols(), values(*found, true)) : reference;
    return OffsetFit::candidate(e, *read, tolerance(e, *found), [&] {
        TableMatch m = match(e, *found, reference);
        if (reversed)
            m.markRelativeReversed(reversedWhy);
        return m;
    });
}

} // namespace posenc::BucketFit
