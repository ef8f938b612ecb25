#include "T5BucketDefects.h"

#include "check/FitNumbers.h"
#include "core/Params.h"
#include "core/t5/T5Buckets.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc::T5BucketDefects {

namespace {

constexpr std::int64_t kMostTableRows = 8192;

std::int64_t halfOf(const T5Params &p)
{
    return T5Buckets::sideBuckets(p.buckets, !p.causal);
}

std::int64_t correctBucket(std::int64_t k, const T5Params &p)
{
    return T5Buckets::bucket(k, p.buckets, p.maxDistance, !p.causal);
}

template<class Map> bool givesEvery(const Offsets &o, const Map &map)
{
    for (std::int64_t k = 1 - o.length; k < o.length; ++k) {
        if (o.has(k) && o.at(k) != double(map(k)))
            return false;
    }
    return true;
}

// The max_distances at which T5's map (`clamped`) or the map without the clamp on the keys before
// the query gives the table's buckets: each bucket is non-increasing in max_distance.
std::optional<std::int64_t> maxDistanceGiving(const Offsets &o, T5Params p, const Defect *defect)
{
    const auto at = [&](std::int64_t m, std::int64_t k) {
        p.maxDistance = m;
        return defect ? bucket(k, p, *defect) : correctBucket(k, p);
    };
    const auto differs = [&](std::int64_t m, bool tooSmall) {
        for (std::int64_t k = 1 - o.length; k < o.length; ++k) {
            if (!o.has(k))
                continue;
            const double b = double(at(m, k));
            if (tooSmall ? b > o.at(k) : b < o.at(k))
                return true;
        }
        return false;
    };
    const std::int64_t least = T5Buckets::maxExact(p.buckets, !p.causal) + 1;
    const auto range = FitNumbers::allowedRange(
        least, Params::kMaxLen, [&](std::int64_t m) { return differs(m, true); },
        [&](std::int64_t m) { return differs(m, false); });
    if (!range)
        return std::nullopt;
    const std::int64_t m
        = range->first <= 128 && 128 <= range->second ? 128 : FitNumbers::roundest(range->first, range->second);
    if (!givesEvery(o, [&](std::int64_t k) { return at(m, k); }))
        return std::nullopt;
    return m;
}

// Where one side of the table deviates from T5's map: the distances, the table's buckets there and
// the map's.
struct SideDeviation
{
    std::int64_t first = -1, last = -1, count = 0;
    double lowest = 0.0, highest = 0.0;
    std::int64_t mapLowest = 0, mapHighest = 0;
};

SideDeviation deviationOf(const Offsets &o, const T5Params &p, bool after)
{
    SideDeviation s;
    for (std::int64_t d = 1; d < o.length; ++d) {
        const std::int64_t k = after ? d : -d;
        if (!o.has(k) || o.at(k) == double(correctBucket(k, p)))
            continue;
        const double v = o.at(k);
        const std::int64_t b = correctBucket(k, p);
        if (s.count++ == 0) {
            s.first = d;
            s.lowest = s.highest = v;
            s.mapLowest = s.mapHighest = b;
        }
        s.last = d;
        s.lowest = std::min(s.lowest, v);
        s.highest = std::max(s.highest, v);
        s.mapLowest = std::min(s.mapLowest, b);
        s.mapHighest = std::max(s.mapHighest, b);
    }
    return s;
}

QString span(double lo, double hi)
{
    return lo == hi ? QString::number(lo, 'g', 12) : u"%1..%2"_s.arg(lo, 0, 'g', 12).arg(hi, 0, 'g', 12);
}

// "the keys before the query at distances 128..143 (the cells with 128 <= i - j <= 143) hold buckets
// 16..17 where <map> gives 15"
QString sideWords(const SideDeviation &s, bool after, const QString &map)
{
    const QString cells = after ? u"j − i"_s : u"i − j"_s;
    const QString where = s.first == s.last
        ? u"at distance %1 (the cells with %2 = %1)"_s.arg(s.first).arg(cells)
        : u"at distances %1..%2 (the cells with %1 ≤ %3 ≤ %2)"_s.arg(s.first).arg(s.last).arg(cells);
    return u"the keys %1 the query %2 hold buckets %3 where %4 gives %5"_s.arg(
        after ? u"after"_s : u"before"_s, where, span(s.lowest, s.highest), map,
        span(double(s.mapLowest), double(s.mapHighest)));
}

QString mapWords(const QString &reference, const T5Params &p)
{
    return u"%1 (%2, %3 buckets, max_distance %4)"_s.arg(reference, p.causal ? u"causal"_s : u"bidirectional"_s)
        .arg(p.buckets)
        .arg(p.maxDistance);
}

// The words of a defect named: where the table deviates, what the reference function does there
// and which of its lines the table's computation lacks.
QString wordsOf(const Offsets &o, const T5Params &p, const Defect &defect, const QString &reference)
{
    const std::int64_t n = halfOf(p), exact = n / 2;
    const QString map = mapWords(reference, p);
    QStringList sides;
    double largest = 0.0;
    for (const bool after : {false, true}) {
        const SideDeviation s = deviationOf(o, p, after);
        if (s.count > 0)
            sides.append(sideWords(s, after, map));
        largest = std::max(largest, s.highest);
    }
    QString what;
    if (defect.missing == Defect::Part::LogBranch)
        what = u"every distance is a bucket of its own (a key before the query at distance d in bucket d%1), where "
               "_relative_position_bucket takes the distances from max_exact %2 on into log buckets %2 + trunc(log(d / "
               "%2) / log(%3 / %2) · %4), at most %5: the map computed without its log branch "
               "(relative_position_if_large, which torch.where(is_small, ...) takes from max_exact on), as candle#727 "
               "fixed"_s.arg(p.causal ? QString() : u", one after it in %1 + d"_s.arg(n))
                   .arg(exact)
                   .arg(p.maxDistance)
                   .arg(n - exact)
                   .arg(n - 1);
    else
        what
            = u"the log bucket grows past %1, the last of %2, from about max_distance %3 on: the map computed "
              "without the clamp torch.min(relative_position_if_large, num_buckets − 1) of "
              "_relative_position_bucket on %4, as candle#1312 fixed%5"_s.arg(n - 1)
                  .arg(p.causal ? u"the buckets"_s : u"a half's buckets"_s)
                  .arg(p.maxDistance)
                  .arg(defect.before && defect.after ? u"both sides"_s
                           : defect.before           ? u"the keys before the query"_s
                                                     : u"the keys after the query"_s)
                  .arg(
                      !p.causal && defect.before && !defect.after
                          ? u" (those buckets are the keys after the query's, which the far keys before it now share)"_s
                          : QString());
    QString past;
    if (largest >= double(p.buckets))
        past = u"; buckets up to %1, past the %2 rows of relative_attention_bias (an index out of its range)"_s
                   .arg(largest, 0, 'g', 12)
                   .arg(p.buckets);
    return u"%1: %2%3"_s.arg(sides.join(u"; "_s), what, past);
}

Named named(const Offsets &o, const T5Params &p, const Defect &defect, const QString &reference)
{
    Named n;
    n.params = p;
    n.defect = defect;
    n.id = defect.missing == Defect::Part::LogBranch ? kLogBuckets : kClamp;
    n.words = wordsOf(o, p, defect, reference);
    for (const double v : o.values) {
        if (!std::isnan(v))
            n.largest = std::max(n.largest, v);
    }
    return n;
}

const Defect kDefects[] = {{Defect::Part::LogBranch, true, true},
                           {Defect::Part::Clamp, true, false},
                           {Defect::Part::Clamp, false, true},
                           {Defect::Part::Clamp, true, true}};

} // namespace

bool Offsets::has(std::int64_t k) const
{
    return k > -length && k < length && !std::isnan(at(k));
}

Offsets ofProfile(const OffsetProfile &profile)
{
    Offsets o;
    o.length = std::max(-profile.first, profile.last()) + 1;
    o.values.assign(std::size_t(2 * o.length - 1), std::numeric_limits<double>::quiet_NaN());
    for (std::int64_t k = profile.first; k <= profile.last(); ++k) {
        if (profile.has(k))
            o.values[std::size_t(k + o.length - 1)] = double(profile.at(k));
    }
    return o;
}

std::optional<Offsets> ofTable(const TableRows &table)
{
    const std::int64_t length = table.rows();
    if (length != table.cols() || length < 2 || length > kMostTableRows)
        return std::nullopt;
    Offsets o;
    o.length = length;
    o.values.assign(std::size_t(2 * length - 1), std::numeric_limits<double>::quiet_NaN());
    std::vector<float> row(static_cast<std::size_t>(length));
    QString error;
    for (std::int64_t i = 0; i < length; ++i) {
        if (!table.read(i, 1, row.data(), error))
            return std::nullopt;
        for (std::int64_t j = 0; j < length; ++j) {
            const double v = double(row[std::size_t(j)]);
            double &held = o.values[std::size_t(j - i + length - 1)];
            if (!std::isfinite(v) || v != std::floor(v) || (!std::isnan(held) && held != v))
                return std::nullopt;
            held = v;
        }
    }
    return o;
}

std::int64_t bucket(std::int64_t k, const T5Params &params, const Defect &defect)
{
    const bool bidirectional = !params.causal;
    const bool after = k > 0;
    if (!bidirectional && after)
        return 0;
    const std::int64_t n = halfOf(params), exact = n / 2;
    const std::int64_t offset = bidirectional && after ? n : 0;
    const std::int64_t d = std::llabs(k);
    if (defect.missing == Defect::Part::LogBranch || d < exact)
        return offset + d;
    const std::int64_t large = T5Buckets::unclampedLogBucket(d, n, params.maxDistance);
    const bool clamped = after ? !defect.after : !defect.before;
    return offset + (clamped ? std::min(large, n - 1) : large);
}

std::optional<Named> nameAt(const Offsets &o, const T5Params &params, const QString &reference)
{
    if (params.buckets < 2 || params.maxDistance <= T5Buckets::maxExact(params.buckets, !params.causal))
        return std::nullopt;
    const std::int64_t exact = T5Buckets::maxExact(params.buckets, !params.causal);
    // Only the distances past the exact ones may deviate, and a causal map's later keys are bucket 0.
    bool deviates = false;
    for (std::int64_t k = 1 - o.length; k < o.length; ++k) {
        if (!o.has(k) || o.at(k) == double(correctBucket(k, params)))
            continue;
        if (std::llabs(k) < exact || (params.causal && k > 0))
            return std::nullopt;
        deviates = true;
    }
    if (!deviates)
        return std::nullopt;
    for (const Defect &defect : kDefects) {
        // A causal map's later keys are bucket 0 whatever the clamp.
        if (params.causal && defect.missing == Defect::Part::Clamp && defect.after)
            continue;
        if (givesEvery(o, [&](std::int64_t k) { return bucket(k, params, defect); }))
            return named(o, params, defect, reference);
    }
    // The exact buckets kept and the log ones other: a max_distance of the reference's that gives
    // them is a parameter to name, not a defect (DeclaredReading's differing parameters).
    if (maxDistanceGiving(o, params, nullptr))
        return std::nullopt;
    Named n = named(o, params, kDefects[0], reference);
    QStringList sides;
    for (const bool after : {false, true}) {
        const SideDeviation s = deviationOf(o, params, after);
        if (s.count > 0)
            sides.append(sideWords(s, after, mapWords(reference, params)));
    }
    n.words = u"%1: T5's exact buckets below max_exact %2 and other buckets past it, which no max_distance gives: "
              "the log branch of _relative_position_bucket (relative_position_if_large) computed otherwise"_s
                  .arg(sides.join(u"; "_s))
                  .arg(exact);
    return n;
}

std::optional<Named> readUndeclared(const Offsets &o)
{
    if (!o.has(1) || !o.has(-1) || o.at(-1) != 1.0 || o.at(1) < 3.0)
        return std::nullopt;
    const std::int64_t n = std::int64_t(o.at(1)) - 1;
    if (2 * n > T5Params::kMaxBuckets)
        return std::nullopt;
    // A bucket no bidirectional map of half n holds: a key before the query in n or past it, one
    // after it in 2n or past it.
    bool outside = false;
    for (std::int64_t k = 1 - o.length; k < o.length; ++k) {
        if (!o.has(k))
            continue;
        const double v = o.at(k);
        const double lo = k > 0 ? double(n) : 0.0, hi = k > 0 ? double(2 * n) : double(n);
        if (v < 0.0)
            return std::nullopt;
        outside = outside || v < lo || v >= hi;
    }
    if (!outside)
        return std::nullopt;
    T5Params p {2 * n, 128, false};
    // The log branch missing shows no max_distance: T5's own is named.
    if (givesEvery(o, [&](std::int64_t k) { return bucket(k, p, kDefects[0]); }))
        return named(o, p, kDefects[0], u"T5's map"_s);
    for (const Defect &defect : kDefects) {
        if (defect.missing != Defect::Part::Clamp)
            continue;
        if (const auto m = maxDistanceGiving(o, p, &defect)) {
            p.maxDistance = *m;
            return named(o, p, defect, u"T5's map"_s);
        }
    }
    return std::nullopt;
}

} // namespace posenc::T5BucketDefects
