#include "T5Buckets.h"

#include "core/FamilySpec.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace Qt::StringLiterals;

namespace posenc::T5Buckets {

std::int64_t sideBuckets(std::int64_t buckets, bool bidirectional)
{
    return bidirectional ? buckets / 2 : buckets;
}

std::int64_t maxExact(std::int64_t buckets, bool bidirectional)
{
    return sideBuckets(buckets, bidirectional) / 2;
}

std::int64_t bucket(std::int64_t relative, std::int64_t buckets, std::int64_t maxDistance, bool bidirectional)
{
    const std::int64_t n = sideBuckets(buckets, bidirectional);
    std::int64_t result = 0;
    std::int64_t distance = 0;
    if (bidirectional) {
        if (relative > 0)
            result += n;
        distance = std::abs(relative);
    } else {
        distance = -std::min<std::int64_t>(relative, 0);
    }
    const std::int64_t exact = n / 2;
    if (distance < exact)
        return result + distance;
    return result + std::min(unclampedLogBucket(distance, n, maxDistance), n - 1);
}

std::int64_t unclampedLogBucket(std::int64_t distance, std::int64_t sideBuckets, std::int64_t maxDistance)
{
    const std::int64_t n = sideBuckets;
    const std::int64_t exact = n / 2;
    // relative_position.float() / max_exact, torch.log, / math.log(max_distance / max_exact) (a
    // Python float, taken as float32 by the float32 tensor), * (num_buckets - max_exact): float32.
    const float ratio = static_cast<float>(distance) / static_cast<float>(exact);
    const float span = static_cast<float>(std::log(static_cast<double>(maxDistance) / static_cast<double>(exact)));
    const float scaled = std::log(ratio) / span * static_cast<float>(n - exact);
    return exact + static_cast<std::int64_t>(scaled);
}

std::int64_t firstDistance(std::int64_t sideBucket, std::int64_t buckets, std::int64_t maxDistance, bool bidirectional)
{
    // A key before the query (relative = -d) takes its side's bucket without the offset.
    const auto at = [&](std::int64_t d) { return bucket(-d, buckets, maxDistance, bidirectional); };
    // Every distance from max_distance on is in the last bucket (the logarithm's part reaches
    // n - max_exact there), so the answer is at most max_distance.
    std::int64_t lo = 0;
    std::int64_t hi = maxDistance;
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (at(mid) >= sideBucket)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

Description describe(const Params &params)
{
    const T5Params &t5 = params.t5;
    Description d;
    d.bidirectional = !t5.causal;
    d.sideBuckets = sideBuckets(t5.buckets, d.bidirectional);
    d.maxExact = maxExact(t5.buckets, d.bidirectional);
    for (std::int64_t b = d.maxExact; b < d.sideBuckets; ++b)
        d.logBucketStarts.push_back(firstDistance(b, t5.buckets, t5.maxDistance, d.bidirectional));
    for (std::size_t i = 0; i + 1 < d.logBucketStarts.size(); ++i)
        d.emptyBuckets += d.logBucketStarts[i] == d.logBucketStarts[i + 1];
    d.lastBucketStart = d.logBucketStarts.back();
    return d;
}

std::optional<QString> problem(const Params &params)
{
    if (!familyUnder(params, Encoding::T5).validate().isEmpty())
        return QStringLiteral("T5's settings are not valid: see its group");
    // What the reference function needs, whatever the rows check.
    const T5Params &t5 = params.t5;
    if (t5.buckets < 2 || t5.maxDistance <= maxExact(t5.buckets, !t5.causal))
        return QStringLiteral("T5 needs at least 2 buckets and max_distance past the exact ones");
    return std::nullopt;
}

std::int64_t ofOffset(const Params &params, std::int64_t k)
{
    return bucket(k, params.t5.buckets, params.t5.maxDistance, !params.t5.causal);
}

const RelativeBuckets::Family &bucketFamily()
{
    // The fewest buckets: each direction needs max_exact = side / 2 >= 1, or the reference divides
    // by zero; the bidirectional map halves the buckets first (num_buckets //= 2), so it takes an
    // even count.
    static const RelativeBuckets::Family family {
        Encoding::T5,
        u"T5"_s,
        FamilyWords(u"T5"_s),
        RelativeBuckets::settingsOf(
            &Params::t5, &T5Params::maxDistance, u"t5-buckets"_s, u"t5-max-distance"_s, u"max_distance"_s,
            [](const Params &p) -> std::int64_t { return p.t5.causal ? 2 : 4; },
            [](const Params &p) { return !p.t5.causal; }),
        ofOffset,
        problem};
    return family;
}

} // namespace posenc::T5Buckets
