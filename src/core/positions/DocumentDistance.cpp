#include "DocumentDistance.h"

#include "ScoreFromColumns.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posenc::DocumentDistance {

namespace {

// Sum of the integers in [a, b), as a double (the sums of pairs reach past 2^63).
double rangeSum(std::int64_t a, std::int64_t b)
{
    if (b <= a)
        return 0.0;
    return (double(a) + double(b - 1)) * double(b - a) / 2.0;
}

// Sum over m in [a, b) of m (m - 1) / 2: the sums of 0, 1, ..., m - 1.
double triangleSums(std::int64_t a, std::int64_t b)
{
    // sum m(m-1)/2 from 0 to n-1 is n(n-1)(n-2)/6
    const auto upTo = [](std::int64_t n) { return double(n) * double(n - 1) * double(n - 2) / 6.0; };
    return b <= a ? 0.0 : upTo(b) - upTo(a);
}

bool sameAttention(const BatchLayout &layout, IdsChoice choice, const BatchSegment &q, const BatchSegment &k)
{
    return q.isReal() && k.isReal() && (!layout.blockMask(choice) || q.document == k.document);
}

// The attended pairs of a query segment's columns [qa, qb) by a key segment's [ka, kb).
Counts segmentPair(const BatchLayout &layout, IdsChoice choice, const BatchSegment &sq, const BatchSegment &sk,
                   std::int64_t qa, std::int64_t qb, std::int64_t ka, std::int64_t kb)
{
    Counts counts;
    if (qa >= qb || ka >= kb || !sameAttention(layout, choice, sq, sk))
        return counts;
    // Causal: the pairs with q − k >= 0; both ways: every pair of the rectangle.
    const bool causal = !layout.bothWays();
    const std::int64_t hidden = causal ? pairsAtMost(qa, qb, ka, kb, -1) : 0;
    const std::int64_t all = (qb - qa) * (kb - ka);
    counts.attended = all - hidden;
    if (counts.attended == 0)
        return counts;
    // distance = (q − k) + shift, q − k from the rectangle's least (0 where causal) to its largest
    const std::int64_t shift = layout.offset(choice, sq) - layout.offset(choice, sk);
    const double differences = causal ? causalDifferenceSum(qa, qb, ka, kb)
                                      : double(kb - ka) * rangeSum(qa, qb) - double(qb - qa) * rangeSum(ka, kb);
    counts.sum = differences + double(shift) * double(counts.attended);
    counts.least = (causal ? std::max<std::int64_t>(0, qa - (kb - 1)) : qa - (kb - 1)) + shift;
    counts.most = (qb - 1) - ka + shift;
    // negative: q − k <= −shift − 1, among the attended
    const std::int64_t below = pairsAtMost(qa, qb, ka, kb, -shift - 1);
    counts.negative = causal ? (shift < 0 ? below - hidden : 0) : below;
    if (sq.document != sk.document) {
        counts.cross = counts.attended;
        counts.crossNegative = counts.negative;
    }
    return counts;
}

} // namespace

void Counts::add(const Counts &o)
{
    if (o.attended == 0)
        return;
    least = attended == 0 ? o.least : std::min(least, o.least);
    most = attended == 0 ? o.most : std::max(most, o.most);
    attended += o.attended;
    cross += o.cross;
    crossNegative += o.crossNegative;
    negative += o.negative;
    sum += o.sum;
}

std::int64_t pairsAtMost(std::int64_t qa, std::int64_t qb, std::int64_t ka, std::int64_t kb, std::int64_t t)
{
    if (qa >= qb || ka >= kb)
        return 0;
    // For query q the keys k >= q − t: all of them while q − t <= ka (q <= ka + t), then kb − (q − t)
    // while q − t < kb, then none.
    const std::int64_t width = kb - ka;
    std::int64_t total = 0;
    const std::int64_t fullEnd = std::clamp(ka + t + 1, qa, qb);
    total += (fullEnd - qa) * width;
    const std::int64_t partEnd = std::clamp(kb + t, fullEnd, qb);
    // sum over q in [fullEnd, partEnd) of kb + t − q
    total += std::int64_t(double(kb + t) * double(partEnd - fullEnd) - rangeSum(fullEnd, partEnd) + 0.5);
    return total;
}

double causalDifferenceSum(std::int64_t qa, std::int64_t qb, std::int64_t ka, std::int64_t kb)
{
    if (qa >= qb || ka >= kb)
        return 0.0;
    // Queries below kb see keys ka..q: m = q − ka + 1 of them at differences 0..m − 1.
    const std::int64_t aFrom = std::max(qa, ka), aTo = std::min(qb, kb);
    double sum = aFrom < aTo ? triangleSums(aFrom - ka + 1, aTo - ka + 1) : 0.0;
    // Queries from kb on see every key: width · q − (sum of the keys).
    const std::int64_t bFrom = std::max(qa, kb);
    if (bFrom < qb) {
        const double width = double(kb - ka);
        sum += width * rangeSum(bFrom, qb) - double(qb - bFrom) * rangeSum(ka, kb);
    }
    return sum;
}

bool attended(const BatchLayout &layout, IdsChoice choice, std::int64_t b, std::int64_t q, std::int64_t k)
{
    return (k <= q || layout.bothWays())
        && sameAttention(layout, choice, layout.segmentAt(b, q), layout.segmentAt(b, k));
}

Counts rectangle(const BatchLayout &layout, IdsChoice choice, std::int64_t b, std::int64_t q0, std::int64_t q1,
                 std::int64_t k0, std::int64_t k1)
{
    Counts counts;
    const auto segments = layout.row(b);
    for (const BatchSegment &sq : segments) {
        const std::int64_t qa = std::max(q0, sq.start), qb = std::min(q1, sq.end());
        if (qa >= qb)
            continue;
        for (const BatchSegment &sk : segments) {
            if (sk.start >= qb && !layout.bothWays())
                break;
            const std::int64_t ka = std::max(k0, sk.start), kb = std::min(k1, sk.end());
            counts.add(segmentPair(layout, choice, sq, sk, qa, qb, ka, kb));
        }
    }
    return counts;
}

Counts row(const BatchLayout &layout, IdsChoice choice, std::int64_t b)
{
    return rectangle(layout, choice, b, 0, layout.cols(), 0, layout.cols());
}

bool readsColumns(const Params &params)
{
    return ScoreFromColumns::builds(params.encoding);
}

BatchLayout readLayout(const Params &params)
{
    if (!readsColumns(params))
        return BatchLayout(params);
    Params columns = params;
    columns.batch.positions = Positions::ByColumn;
    return BatchLayout(columns);
}

void fill(const BatchLayout &layout, IdsChoice choice, const Block &block, BlockRef out)
{
    const std::int64_t columns = layout.cols();
    const float hidden = std::numeric_limits<float>::quiet_NaN();
    for (std::int64_t r = 0; r < block.rows; ++r) {
        const std::int64_t b = (block.row0 + r) / columns, q = (block.row0 + r) % columns;
        const BatchSegment &sq = layout.segmentAt(b, q);
        const std::int64_t idq = q + layout.offset(choice, sq);
        for (const BatchSegment &sk : layout.row(b)) {
            const std::int64_t from = std::max(block.col0, sk.start), to = std::min(block.colEnd(), sk.end());
            const bool seen = sameAttention(layout, choice, sq, sk);
            const std::int64_t shift = layout.offset(choice, sk);
            for (std::int64_t k = from; k < to; ++k)
                out(r, k - block.col0) = seen && (k <= q || layout.bothWays()) ? float(idq - (k + shift)) : hidden;
        }
    }
}

} // namespace posenc::DocumentDistance
