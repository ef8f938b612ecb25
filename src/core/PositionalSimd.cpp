#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/PositionalSimd.cpp"
#include <hwy/foreach_target.h> // before highway.h

#include <hwy/highway.h>

#include "core/PositionalSimd.h"

#include <utility>

HWY_BEFORE_NAMESPACE();
namespace posenc {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// Pairs [from, to) of the run one by one, each through every row: the scalar target's way and
// the vector targets' tail. The same roundings as the vector loop, one operation at a time.
void rotateScalar(const PairRun &run, std::int64_t from, std::int64_t to)
{
    const int rotations = run.rows - 1 + (run.advancePast ? 1 : 0);
    for (std::int64_t i = from; i < to; ++i) {
        double s = run.sines[i];
        double c = run.cosines[i];
        const double rc = run.rotCos[i];
        const double rs = run.rotSin[i];
        for (int r = 0;; ++r) {
            if (run.interleaved) {
                run.interleavedRows[r][2 * i] = static_cast<float>(s);
                run.interleavedRows[r][2 * i + 1] = static_cast<float>(c);
            } else {
                if (run.sineRows[r])
                    run.sineRows[r][i] = static_cast<float>(s);
                if (run.cosineRows[r])
                    run.cosineRows[r][i] = static_cast<float>(c);
            }
            if (r == rotations)
                break;
            const double next = s * rc + c * rs;
            c = c * rc - s * rs;
            s = next;
            if (r + 1 == run.rows)
                break; // advanced past the run's last row
        }
        run.sines[i] = s;
        run.cosines[i] = c;
    }
}

#if HWY_TARGET != HWY_SCALAR
using DF = hn::ScalableTag<float>;
using DD = hn::Repartition<double, DF>; // half as many lanes
using VF = hn::Vec<DF>;
using VD = hn::Vec<DD>;

template<class V> HWY_INLINE void put(V v, float *at, bool streaming)
{
    if (streaming)
        hn::Stream(v, DF(), at);
    else
        hn::StoreU(v, DF(), at);
}

bool aligned(const float *at)
{
    return at && reinterpret_cast<std::uintptr_t>(at) % (hn::Lanes(DF()) * sizeof(float)) == 0;
}

// The lanes that, taken from the sines (or cosines) of a vector's worth of pairs, make the
// 128-bit blocks of InterleaveLower and InterleaveUpper come out as the pairs in order: block b
// of the lower half takes pairs 2b, 2b + 1, of the upper half pairs N/2 + 2b, N/2 + 2b + 1.
void interleaveOrder(std::int32_t *order)
{
    const auto n = static_cast<std::int32_t>(hn::Lanes(DF()));
    for (std::int32_t lane = 0; lane < n; ++lane) {
        const std::int32_t block = lane / 4;
        const std::int32_t within = lane % 4;
        order[lane] = within < 2 ? 2 * block + within : n / 2 + 2 * block + within - 2;
    }
}
#endif

#if HWY_TARGET != HWY_SCALAR
// Where a row's values go, and whether with non-temporal stores.
struct RowTargets
{
    decltype(hn::SetTableIndices(DF(), std::declval<const std::int32_t *>())) order;
    bool streamAt[PairRun::kMaxRows];
    bool streamSines[PairRun::kMaxRows];
    bool streamCosines[PairRun::kMaxRows];
};

// Pairs i .. i + Units * Lanes(DF) - 1 through every row of the run, their state in registers.
template<int Units> HWY_INLINE void rotateUnits(const PairRun &run, const RowTargets &to, std::int64_t i)
{
    const DF df;
    const DD dd;
    const hn::Rebind<float, DD> dh;
    const auto nf = static_cast<std::int64_t>(hn::Lanes(df));
    const auto nd = static_cast<std::int64_t>(hn::Lanes(dd));
    const int rotations = run.rows - 1 + (run.advancePast ? 1 : 0);
    // Two double vectors of sines (cosines) per unit: one float vector of pairs.
    VD s[2 * Units], c[2 * Units];
    for (int k = 0; k < 2 * Units; ++k) {
        s[k] = hn::LoadU(dd, run.sines + i + k * nd);
        c[k] = hn::LoadU(dd, run.cosines + i + k * nd);
    }
    for (int r = 0;; ++r) {
        for (int u = 0; u < Units; ++u) {
            const std::int64_t at = i + u * nf;
            const VF sines = hn::Combine(df, hn::DemoteTo(dh, s[2 * u + 1]), hn::DemoteTo(dh, s[2 * u]));
            const VF cosines = hn::Combine(df, hn::DemoteTo(dh, c[2 * u + 1]), hn::DemoteTo(dh, c[2 * u]));
            if (run.interleaved) {
                const VF sv = hn::TableLookupLanes(sines, to.order);
                const VF cv = hn::TableLookupLanes(cosines, to.order);
                float *row = run.interleavedRows[r] + 2 * at;
                put(hn::InterleaveLower(df, sv, cv), row, to.streamAt[r]);
                put(hn::InterleaveUpper(df, sv, cv), row + nf, to.streamAt[r]);
            } else {
                if (run.sineRows[r])
                    put(sines, run.sineRows[r] + at, to.streamSines[r]);
                if (run.cosineRows[r])
                    put(cosines, run.cosineRows[r] + at, to.streamCosines[r]);
            }
        }
        if (r == rotations)
            break;
        for (int k = 0; k < 2 * Units; ++k) {
            const VD rc = hn::LoadU(dd, run.rotCos + i + k * nd);
            const VD rs = hn::LoadU(dd, run.rotSin + i + k * nd);
            const VD next = hn::Add(hn::Mul(s[k], rc), hn::Mul(c[k], rs));
            c[k] = hn::Sub(hn::Mul(c[k], rc), hn::Mul(s[k], rs));
            s[k] = next;
        }
        if (r + 1 == run.rows)
            break; // advanced past the run's last row
    }
    if (rotations > 0) {
        for (int k = 0; k < 2 * Units; ++k) {
            hn::StoreU(s[k], dd, run.sines + i + k * nd);
            hn::StoreU(c[k], dd, run.cosines + i + k * nd);
        }
    }
}
#endif

void RotatePairs(const PairRun &run)
{
    std::int64_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    const DF df;
    const auto nf = static_cast<std::int64_t>(hn::Lanes(df)); // pairs per unit
    alignas(64) std::int32_t lanes[hn::MaxLanes(DF())];
    interleaveOrder(lanes);
    RowTargets to {hn::SetTableIndices(df, lanes), {}, {}, {}};
    // Each step moves every row's destination by whole vectors: the first one's alignment holds.
    for (int r = 0; r < run.rows; ++r) {
        to.streamAt[r] = run.streaming && run.interleaved && aligned(run.interleavedRows[r]);
        to.streamSines[r] = run.streaming && !run.interleaved && aligned(run.sineRows[r]);
        to.streamCosines[r] = run.streaming && !run.interleaved && aligned(run.cosineRows[r]);
    }
    // Units enough that each step gives every row whole cache lines of sines and of cosines:
    // non-temporal stores then leave each line complete, however many rows are written.
    constexpr int kLineUnits = static_cast<int>(HWY_MAX(std::size_t(1), 16 / hn::MaxLanes(DF())));
    for (; i + kLineUnits * nf <= run.pairs; i += kLineUnits * nf)
        rotateUnits<kLineUnits>(run, to, i);
    for (; i + nf <= run.pairs; i += nf)
        rotateUnits<1>(run, to, i);
#endif
    rotateScalar(run, i, run.pairs);
}

} // namespace HWY_NAMESPACE
} // namespace posenc
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace posenc {

HWY_EXPORT(RotatePairs);

void rotatePairs(const PairRun &run)
{
    HWY_DYNAMIC_DISPATCH(RotatePairs)(run);
}

} // namespace posenc
#endif
