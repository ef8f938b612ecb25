#pragma once

#include "FamilySpec.h"
#include "FamilyWords.h"
#include "LessonNumbers.h"
#include "ParamTable.h"
#include "Params.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

// The kit of a family whose relative position picks a bucket (T5, DeBERTa; docs/ARCHITECTURE.md,
// Adding an encoding family), written once: the bucket of a key's offset at the family's settings,
// why there is none, its two settings (the buckets and the limit its logarithmic buckets are scaled
// to) and their rows, its descriptor's shared part and the lessons' numbers of it. A family gives its
// formula, its other settings and its words (its words file: docs/ARCHITECTURE.md, Adding an encoding
// family); render's BucketPanel and check's BucketFit take the same Family.
namespace posenc::RelativeBuckets {

// Where a family keeps its bucket count and its limit (T5's max_distance, DeBERTa's max_position),
// their rows' keys, the limit's name in describe and the check, and which counts its reference
// takes: from `leastBuckets` to `maxBuckets`, even where `evenBuckets` says so (the reference halves
// them).
struct Settings
{
    std::function<std::int64_t &(Params &)> buckets, limit;
    QString bucketsKey, limitKey; // "t5-buckets", "t5-max-distance"
    QString limitName; // "max_distance"
    std::int64_t maxBuckets = 0;
    std::function<std::int64_t(const Params &)> leastBuckets;
    std::function<bool(const Params &)> evenBuckets;
};

// The settings of a family's group of Params whose members are `buckets` and `limit` (params.t5),
// the counts as `leastBuckets` and `evenBuckets` say, up to the group's kMaxBuckets.
template<class Group>
Settings settingsOf(Group Params::*group, std::int64_t Group::*limit, QString bucketsKey, QString limitKey,
                    QString limitName, std::function<std::int64_t(const Params &)> leastBuckets,
                    std::function<bool(const Params &)> evenBuckets)
{
    return {[group](Params &p) -> std::int64_t & { return (p.*group).buckets; },
            [group, limit](Params &p) -> std::int64_t & { return (p.*group).*limit; },
            std::move(bucketsKey),
            std::move(limitKey),
            std::move(limitName),
            Group::kMaxBuckets,
            std::move(leastBuckets),
            std::move(evenBuckets)};
}

struct Family
{
    Encoding encoding = {};
    QString name; // "T5": "T5 bucket"
    // Its words file (<Family>Words.json): its descriptor's words and describe's meanings, and under
    // "rows" the words of its rows of the bucket count and the limit, by key.
    FamilyWords words;
    Settings settings;
    // The bucket of the key's offset k = j − i at the settings: its reference function.
    std::function<std::int64_t(const Params &, std::int64_t k)> ofOffset;
    // Why its buckets cannot be computed at these settings (not valid, or not what the reference
    // function needs), if they cannot.
    std::function<std::optional<QString>(const Params &)> problem;
};

// Its bucket count and limit at `params`, and the same set.
std::int64_t buckets(const Family &family, const Params &params);
std::int64_t limit(const Family &family, const Params &params);
void setSettings(const Family &family, Params &params, std::int64_t buckets, std::int64_t limit);
// Whether its bucket count is one its reference takes at the other settings.
bool bucketsValid(const Family &family, const Params &params);

// The buckets of the offsets first .. first + count − 1 at the settings, as float32; of the offsets
// negated where `reversed` (the difference taken the other way round).
void fillOffsets(const Family &family, const Params &params, std::int64_t first, std::int64_t count, float *out,
                 bool reversed = false);

// The lessons' number of the bucket of offset `k`, or why there is none: the family's settings are
// not valid.
LessonNumbers::Number bucketNumber(const Family &family, const Params &params, std::int64_t k);
// `value` where the family's settings are valid, else none and why.
LessonNumbers::Number whenValid(const Family &family, const Params &params,
                                const std::function<LessonNumbers::Number()> &value);

// Its row of the bucket count, keyed as its settings say, within their counts, with the words of its
// key in the family's words file: an odd count where they must be even refused with "whyEven"
// (ParamRows::evenInteger's "evenNote" and "note" beside the range); "help" as ParamSpec's; its
// tooltip "formula", then `now` (the numbers at the settings) where the count is valid. Idle under
// another encoding.
ParamSpec bucketsRow(const Family &family, std::function<QString(const Params &)> now);
// Its row of the limit: more than `floor` of the bucket count (the file's "floorName", "t5-buckets /
// 2"; where the count is not valid, more than `fallback`), up to max_len's greatest, the floor and
// `why` in the range's words; "help", "formula" and `now` as bucketsRow's, `now` where the limit is
// valid too.
ParamSpec limitRow(const Family &family, std::function<std::int64_t(std::int64_t buckets)> floor, std::int64_t fallback,
                   std::function<QString(const Params &)> why, std::function<QString(const Params &)> now);

// What a family of the kit gives its descriptor beyond its Family and its words: its rows, the values
// `posenc describe` prints after its two settings (`derived`, keyed by its words file's
// "describeKeys") and its lessons' numbers.
struct Parts
{
    std::function<QList<ParamSpec>()> rows {};
    std::function<Description::Values(const Params &)> derived {};
    std::function<QList<LessonNumbers::Entry>()> lessonNumbers {};
};

// Its descriptor: a bias on the scores with the words of its words file (Families::fromWords),
// `parts`' rows and lessons' numbers, its bucket as the families figure's score, the buckets figure
// first among its views, and `posenc describe`'s entries: its two settings ("buckets", its limit),
// then `parts.derived` at the settings, their meanings the kit's of the settings, then the file's.
FamilySpec spec(const Family &family, Parts parts);

} // namespace posenc::RelativeBuckets
