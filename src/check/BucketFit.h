#pragma once

#include "check/OffsetFit.h"
#include "core/RelativeBuckets.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

// The hypothesis of a table of relative-position buckets (T5's, DeBERTa's; docs/ARCHITECTURE.md,
// Checking a table), written once on core's RelativeBuckets kit: the range of the limit
// (max_distance, max_position) the table's runs of equal buckets allow, the limit named of it, the
// first distance that shares a bucket, the fit of a table read the family's way round or mirrored
// (the mistake relative-position-reversed), the match's findings, notes and parameters, and the
// match against given parameters. A family gives what it reads of the profile and its words.
namespace posenc::BucketFit {

// What a table shows of a family's buckets: its settings (the family's encoding and group: the
// buckets, the limit named, its other settings), the limit's range [lo, hi] the table allows, and
// whether it tells the bucket count.
struct Found
{
    Params params;
    std::int64_t lo = 0, hi = 0;
    bool bucketsShown = true;
};

// A table no settings of the family give, read as its map computed without a part of its function
// (T5's log branch or clamp): the settings, the mistake and its words, and that map's values and
// largest value, which the table is streamed against (TableMatch::asRead).
struct DefectReading
{
    Found found;
    QString mistake;
    QString diagnosis;
    OffsetReference::Values values;
    double largest = 0.0;
};

// A family's table of buckets as the check reads it.
struct Table
{
    RelativeBuckets::Family buckets;
    QString table; // its word, "t5-bucket"
    QString help; // its line of `posenc check --help`
    QString referenceCode; // TableHypothesis::referenceCode
    QString reference; // the reference function: "HF's make_log_bucket_position"
    std::int64_t ownLimit = 0; // the model's own limit, named where a table allows it (T5's 128)
    // Whether a map of fewer queries than keys holds the first queries (DeBERTa's
    // build_relative_position: arange(query_size) against arange(key_size)) rather than the last, a
    // cache's (queryStart).
    bool queriesFirst = false;
    // Whether every value of the profile is a bucket of the family's (whole numbers, bucket 0 at
    // offset 0, ...), and the settings its runs of equal values show, fewest votes first.
    std::function<bool(const OffsetProfile &)> bucketValues;
    std::function<std::optional<Found>(const OffsetProfile &, const std::vector<ProfileRun> &)> fitRuns;
    // The largest value its tolerance is scaled to (OffsetFit::tolerance).
    std::function<double(const TableEvidence &, const Params &)> largest;
    // Its findings after the buckets and the limit, and their keys ("bidirectional"), if any.
    QStringList moreFindingKeys;
    std::function<QList<MatchField>(const Params &)> moreFindings;
    // Its words: of its settings after the table's word in the reference ("bidirectional, 32
    // buckets, max_distance 128"), of a table that is its (the diagnosis), why a limit range is not
    // told apart (after "any max_distance from 100 to 128 gives this table"), of buckets the table
    // does not show (%1 the buckets named), and of the mirrored table (the mistake).
    std::function<QString(const Params &)> settingsWords;
    std::function<QString(const Params &)> diagnosis;
    QString rangeWhy;
    QString bucketsHidden;
    QString reversedWhy;
    std::function<QList<PublishedForm>(std::int64_t cols)> publishedForms;
    // The defect read where no settings give the table, if the family knows any.
    std::function<std::optional<DefectReading>(const OffsetProfile &)> defect;
    // The mistakes the defects name.
    QStringList defectMistakes;
};

// The limits from `least` on that the runs allow at `params`' buckets: the family's bucket of a
// distance before the query (the offset −d) at a limit, non-increasing in the limit at any
// distance. Nothing where none does.
std::optional<std::pair<std::int64_t, std::int64_t>> limitRange(const RelativeBuckets::Family &family,
                                                                const Params &params,
                                                                const std::vector<ProfileRun> &runs,
                                                                std::int64_t least);

// The settings of `params` at `buckets` and the limit a table allows (`range`), named: the model's
// own where the range allows it, else the roundest; `shown` whether the table tells the buckets.
Found found(const Table &table, Params params, std::int64_t buckets, std::pair<std::int64_t, std::int64_t> range,
            bool shown);

// The first distance of the runs that is not its own bucket (the first run's whose value is not its
// distance, else the one after it); -1 where every distance is its own.
std::int64_t firstShared(const std::vector<ProfileRun> &runs);

// The hypothesis of its table.
TableHypothesis hypothesis(const Table &table);

} // namespace posenc::BucketFit
