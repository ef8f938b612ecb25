#pragma once

#include "LessonNumbers.h"
#include "ParamTable.h"
#include "Params.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <optional>

// The kit of a family whose relative position picks a bucket (T5, DeBERTa; docs/ARCHITECTURE.md,
// Adding an encoding family), written once: the bucket of a key's offset at the family's settings,
// why there is none, and the lessons' numbers of it. render's BucketPanel and check's BucketFit
// take the same family's functions.
namespace posenc::RelativeBuckets {

struct Family
{
    Encoding encoding = {};
    QString name; // "T5"
    // The bucket of the key's offset k = j − i at the settings: its reference function.
    std::function<std::int64_t(const Params &, std::int64_t k)> ofOffset;
    // Why its buckets cannot be computed at these settings (not valid, or not what the reference
    // function needs), if they cannot.
    std::function<std::optional<QString>(const Params &)> problem;
};

// The lessons' number of the bucket of offset `k`, or why there is none: the family's settings are
// not valid.
LessonNumbers::Number bucketNumber(const Family &family, const Params &params, std::int64_t k);
// `value` where the family's settings are valid, else none and why.
LessonNumbers::Number whenValid(const Family &family, const Params &params,
                                const std::function<LessonNumbers::Number()> &value);

// Its row of the limit its logarithmic buckets are scaled to (T5's max_distance, DeBERTa's
// max_position), `field` of its group: more than `floor` of its settings (`floorName`, "t5-buckets /
// 2"; none where its buckets are not valid, then more than `fallback`), up to max_len's greatest, the
// floor and `why` in the range's words.
ParamSpec limitRow(QString key, std::function<std::int64_t &(Params &)> field,
                   std::function<std::optional<std::int64_t>(const Params &)> floor, std::int64_t fallback,
                   QString floorName, std::function<QString(const Params &)> why);

} // namespace posenc::RelativeBuckets
