#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/PositionalSimd.cpp"
#include <hwy/foreach_target.h> // before highway.h

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "core/DropoutSimd-inl.h"
#include "core/DropoutSimd.h"
#include "core/PositionalSimd.h"

#include <utility>

HWY_BEFORE_NAMESPACE();
namespace posenc {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// Stores one value of row r, the PE's or, with a combine, X's or Y's at that cell.
void emitScalar(const PairRun &run, int r, float *at, float pe)
{
    if (!run.combine) {
        *at = pe;
        return;
    }
    const PairCombine &combine = *run.combine;
    const std::int64_t o = at - combine.origin[r];
    const float scaled = combine.scale * combine.embedding[r][o];
    const std::uint64_t *kept = combine.kept[r];
    if (!kept) {
        *at = scaled + pe;
        return;
    }
    *at = dropoutValue(scaled, pe, (kept[o / 64] >> (o % 64)) & 1u, combine.keep, combine.target);
}

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
                emitScalar(run, r, run.interleavedRows[r] + 2 * i, static_cast<float>(s));
                emitScalar(run, r, run.interleavedRows[r] + 2 * i + 1, static_cast<float>(c));
            } else {
                if (run.sineRows[r])
                    emitScalar(run, r, run.sineRows[r] + i, static_cast<float>(s));
                if (run.cosineRows[r])
                    emitScalar(run, r, run.cosineRows[r] + i, static_cast<float>(c));
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

// Pairs [from, to) of a PairRows one by one, each through every row: the scalar target's way and
// the vector targets' tail, with the roundings of the vector loop.
void rowsScalar(const PairRows &run, std::int64_t from, std::int64_t to)
{
    const int rotations = run.rows - 1 + (run.advancePast ? 1 : 0);
    for (std::int64_t i = from; i < to; ++i) {
        double s = run.sines[i];
        double c = run.cosines[i];
        const double rc = run.rotCos[i];
        const double rs = run.rotSin[i];
        for (int r = 0;; ++r) {
            const std::int64_t o = r * run.stride;
            const auto first = static_cast<float>(run.values == PairValues::Cosines ? c : s);
            const auto second = static_cast<float>(run.values == PairValues::Sines ? s : c);
            if (run.interleaved) {
                run.interleavedRow[o + 2 * i] = first;
                run.interleavedRow[o + 2 * i + 1] = second;
            } else {
                if (run.firstRow)
                    run.firstRow[o + i] = first;
                if (run.secondRow)
                    run.secondRow[o + i] = second;
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
using DH = hn::Rebind<float, DD>; // the float halves of DF
using VF = hn::Vec<DF>;
using VD = hn::Vec<DD>;
using Order = decltype(hn::SetTableIndices(DF(), std::declval<const std::int32_t *>()));

// Which of a run's stores are non-temporal: none, all, or those of the rows that ask for it.
enum class Streams { None, All, PerRow };

template<Streams S> HWY_INLINE void put(VF v, float *at, bool rowStreams)
{
    if (S == Streams::All || (S == Streams::PerRow && rowStreams))
        hn::Stream(v, DF(), at);
    else
        hn::StoreU(v, DF(), at);
}

// A run's combine in registers: the rows' origins, embeddings and keep bits, and the constants.
template<int Rows> struct CombineLocals
{
    explicit CombineLocals(const PairCombine *combine)
    {
        if (!combine)
            return;
        for (int r = 0; r < Rows; ++r) {
            origin[r] = combine->origin[r];
            embedding[r] = combine->embedding[r];
            kept[r] = combine->kept[r];
        }
        scale = hn::Set(DF(), combine->scale);
        keep = hn::Set(DF(), combine->keep);
        target = combine->target;
    }

    // X's or Y's values of row r at `at` from the PE's there, as addScaled() and applyDropout().
    HWY_INLINE VF operator()(int r, const float *at, VF pe) const
    {
        const DF df;
        const std::int64_t o = at - origin[r];
        hwy::Prefetch(embedding[r] + o + kPrefetchFloats);
        const VF scaled = hn::Mul(scale, hn::LoadU(df, embedding[r] + o));
        if (!kept[r])
            return hn::Add(scaled, pe);
        return dropoutLanes(lanes.anywhere(kept[r], o), scaled, pe, keep, target);
    }

    const float *origin[Rows] = {};
    const float *embedding[Rows] = {};
    const std::uint64_t *kept[Rows] = {};
    VF scale = hn::Zero(DF());
    VF keep = hn::Zero(DF());
    DropoutTarget target = DropoutTarget::Sum;
    KeptLanes lanes;
};

bool aligned(const float *at)
{
    return reinterpret_cast<std::uintptr_t>(at) % (hn::Lanes(DF()) * sizeof(float)) == 0;
}

// AVX-512 interleaves a vector's sines and cosines by one two-source permutation (vpermt2ps):
// Highway 1.0 has no portable form of it, and Combine + TableLookupLanes costs a shuffle more
// per vector on the port the kernel is bound by.
#define POSENC_TWO_SOURCE_PERMUTE (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3)

// The lanes that take the sines of Lanes / 2 pairs (source lanes 0 ..) and their cosines (from
// lane Lanes with the two-source permutation, else from Lanes / 2, the upper half of one vector)
// to the pairs in order, sine before cosine.
Order interleaveOrder()
{
    const auto n = static_cast<std::int32_t>(hn::Lanes(DF()));
    alignas(64) std::int32_t order[hn::MaxLanes(DF())];
    const std::int32_t cosines = POSENC_TWO_SOURCE_PERMUTE ? n : n / 2;
    for (std::int32_t lane = 0; lane < n; ++lane)
        order[lane] = lane / 2 + (lane % 2) * cosines;
#if POSENC_TWO_SOURCE_PERMUTE
    return Order {hn::Load(hn::RebindToSigned<DF>(), order).raw}; // indices past Lanes: not SetTableIndices
#else
    return hn::SetTableIndices(DF(), order);
#endif
}

// Pair k's sine and cosine in lanes 2k and 2k + 1, from the state of Lanes / 2 pairs.
HWY_INLINE VF interleaved(VD s, VD c, const Order &order)
{
#if POSENC_TWO_SOURCE_PERMUTE
    return VF {_mm512_permutex2var_ps(_mm512_castps256_ps512(_mm512_cvtpd_ps(s.raw)), order.raw,
                                      _mm512_castps256_ps512(_mm512_cvtpd_ps(c.raw)))};
#else
    const DF df;
    const DH dh;
    return hn::TableLookupLanes(hn::Combine(df, hn::DemoteTo(dh, c), hn::DemoteTo(dh, s)), order);
#endif
}

// The float32 values of 2 * Lanes(DD) pairs, from their two vectors of doubles.
HWY_INLINE VF demoted(VD low, VD high)
{
    const DH dh;
    return hn::Combine(DF(), hn::DemoteTo(dh, high), hn::DemoteTo(dh, low));
}

// Units enough that each step gives every row whole cache lines of sines and of cosines:
// non-temporal stores then leave each line complete, however many rows are written. Two at
// least: on AVX-512, where one unit fills a line, two lines a row per step were measured faster.
constexpr int kLineUnits = static_cast<int>(HWY_MAX(std::size_t(2), 16 / hn::MaxLanes(DF())));

// Pairs i .. i + Units * Lanes(DF) - 1 through the Rows rows of the run, their state and rotation
// in registers; each row receives Units * Lanes(DF) * 2 floats (interleaved) or Units vectors of
// sines and of cosines (split) at each step. The rows, their destinations and the lane order are
// held in locals: the stores may alias anything (vector types do), and would otherwise make the
// compiler read each of them again after every store.
template<int Units, bool Interleaved, Streams S, int Rows, bool Combined>
HWY_INLINE void rotateUnits(const PairRun &run, const Order &laneOrder, const bool (&streams)[2][PairRun::kMaxRows],
                            const CombineLocals<Rows> &combine, std::int64_t i)
{
    const DD dd;
    const auto nd = static_cast<std::int64_t>(hn::Lanes(dd));
    const bool advancePast = run.advancePast;
    const Order order = laneOrder;
    float *first[Rows];
    float *second[Rows];
    bool firstStreams[Rows];
    bool secondStreams[Rows];
    for (int r = 0; r < Rows; ++r) {
        first[r] = Interleaved ? run.interleavedRows[r] : run.sineRows[r];
        second[r] = Interleaved ? nullptr : run.cosineRows[r];
        firstStreams[r] = streams[0][r];
        secondStreams[r] = streams[1][r];
    }
    // The values bound for `at` in row r, turned into X or Y with a combine.
    const auto value = [&](int r, const float *at, VF pe) HWY_ATTR {
        if constexpr (Combined)
            return combine(r, at, pe);
        else
            return pe;
    };
    VD s[2 * Units], c[2 * Units], rc[2 * Units], rs[2 * Units];
    for (int k = 0; k < 2 * Units; ++k) {
        s[k] = hn::LoadU(dd, run.sines + i + k * nd);
        c[k] = hn::LoadU(dd, run.cosines + i + k * nd);
        rc[k] = hn::LoadU(dd, run.rotCos + i + k * nd);
        rs[k] = hn::LoadU(dd, run.rotSin + i + k * nd);
    }
    for (int r = 0; r < Rows; ++r) {
        if constexpr (Interleaved) {
            for (int k = 0; k < 2 * Units; ++k) {
                float *at = first[r] + 2 * (i + k * nd);
                put<S>(value(r, at, interleaved(s[k], c[k], order)), at, firstStreams[r]);
            }
        } else {
            for (int u = 0; u < Units; ++u) {
                const std::int64_t at = i + 2 * u * nd;
                if (first[r])
                    put<S>(value(r, first[r] + at, demoted(s[2 * u], s[2 * u + 1])), first[r] + at, firstStreams[r]);
                if (second[r])
                    put<S>(value(r, second[r] + at, demoted(c[2 * u], c[2 * u + 1])), second[r] + at, secondStreams[r]);
            }
        }
        // After each row but the last, and after the last too when the run advances past it.
        if (r + 1 == Rows && !advancePast)
            break;
        for (int k = 0; k < 2 * Units; ++k) {
            const VD next = hn::Add(hn::Mul(s[k], rc[k]), hn::Mul(c[k], rs[k]));
            c[k] = hn::Sub(hn::Mul(c[k], rc[k]), hn::Mul(s[k], rs[k]));
            s[k] = next;
        }
    }
    if (Rows > 1 || advancePast) {
        for (int k = 0; k < 2 * Units; ++k) {
            hn::StoreU(s[k], dd, run.sines + i + k * nd);
            hn::StoreU(c[k], dd, run.cosines + i + k * nd);
        }
    }
}

// The vector part of the run, pairs [0, the last whole vector's end); returns that end.
template<bool Interleaved, Streams S, int Rows, bool Combined>
std::int64_t rotateVectors(const PairRun &run, const Order &order, const bool (&streams)[2][PairRun::kMaxRows])
{
    const CombineLocals<Rows> combine(Combined ? run.combine : nullptr);
    const auto nf = static_cast<std::int64_t>(hn::Lanes(DF()));
    std::int64_t i = 0;
    for (; i + kLineUnits * nf <= run.pairs; i += kLineUnits * nf)
        rotateUnits<kLineUnits, Interleaved, S, Rows, Combined>(run, order, streams, combine, i);
    for (; i + nf <= run.pairs; i += nf)
        rotateUnits<1, Interleaved, S, Rows, Combined>(run, order, streams, combine, i);
    return i;
}

// The run's rows as a constant, so that the loop over them unrolls.
template<bool Interleaved, Streams S, bool Combined>
std::int64_t rotateVectors(const PairRun &run, const Order &order, const bool (&streams)[2][PairRun::kMaxRows])
{
    static_assert(PairRun::kMaxRows == 4 && PairCombine::kMaxRows == PairRun::kMaxRows);
    switch (run.rows) {
    case 1:
        return rotateVectors<Interleaved, S, 1, Combined>(run, order, streams);
    case 2:
        return rotateVectors<Interleaved, S, 2, Combined>(run, order, streams);
    case 3:
        return rotateVectors<Interleaved, S, 3, Combined>(run, order, streams);
    default:
        return rotateVectors<Interleaved, S, 4, Combined>(run, order, streams);
    }
}

template<bool Interleaved, Streams S>
std::int64_t rotateVectors(const PairRun &run, const Order &order, const bool (&streams)[2][PairRun::kMaxRows])
{
    return run.combine ? rotateVectors<Interleaved, S, true>(run, order, streams)
                       : rotateVectors<Interleaved, S, false>(run, order, streams);
}

template<bool Interleaved> std::int64_t rotateVectors(const PairRun &run, const Order &order)
{
    // Each step moves every row's destination by whole vectors: the first one's alignment holds.
    bool streams[2][PairRun::kMaxRows] = {};
    int streamed = 0;
    int written = 0;
    for (int r = 0; r < run.rows; ++r) {
        const float *targets[2]
            = {Interleaved ? run.interleavedRows[r] : run.sineRows[r], Interleaved ? nullptr : run.cosineRows[r]};
        for (int t = 0; t < 2; ++t) {
            if (!targets[t])
                continue;
            streams[t][r] = run.streaming && aligned(targets[t]);
            streamed += streams[t][r] ? 1 : 0;
            ++written;
        }
    }
    if (streamed == 0)
        return rotateVectors<Interleaved, Streams::None>(run, order, streams);
    if (streamed == written)
        return rotateVectors<Interleaved, Streams::All>(run, order, streams);
    return rotateVectors<Interleaved, Streams::PerRow>(run, order, streams);
}

// A pair's value in its first column and in its second.
template<PairValues V> HWY_INLINE VD firstValue(VD s, VD c)
{
    return V == PairValues::Cosines ? c : s;
}

template<PairValues V> HWY_INLINE VD secondValue(VD s, VD c)
{
    return V == PairValues::Sines ? s : c;
}

// Pairs i .. i + Units * Lanes(DF) - 1 of a PairRows through all its rows, their state and
// rotation in registers; at each step every row's destinations receive whole vectors, as in
// rotateUnits(). Which destinations a row has (First, Second; interleaved: First) is a constant,
// so that the loop over the rows does nothing but the arithmetic and the stores. With
// Streams::PerRow, each row's alignment decides its stores.
template<int Units, bool Interleaved, PairValues V, Streams S, bool First, bool Second>
HWY_INLINE void rowsOfUnits(const PairRows &run, const Order &laneOrder, const bool (&streams)[2], std::int64_t i)
{
    const DD dd;
    const auto nd = static_cast<std::int64_t>(hn::Lanes(dd));
    const Order order = laneOrder;
    const int rows = run.rows;
    const std::int64_t stride = run.stride;
    float *first = First ? (Interleaved ? run.interleavedRow + 2 * i : run.firstRow + i) : nullptr;
    float *second = Second ? run.secondRow + i : nullptr;
    const bool firstStreams = streams[0];
    const bool secondStreams = streams[1];
    VD s[2 * Units], c[2 * Units], rc[2 * Units], rs[2 * Units];
    for (int k = 0; k < 2 * Units; ++k) {
        s[k] = hn::LoadU(dd, run.sines + i + k * nd);
        c[k] = hn::LoadU(dd, run.cosines + i + k * nd);
        rc[k] = hn::LoadU(dd, run.rotCos + i + k * nd);
        rs[k] = hn::LoadU(dd, run.rotSin + i + k * nd);
    }
    // Row r's values.
    const auto storeRow = [&](std::int64_t r) HWY_ATTR {
        float *firstAt = First ? first + r * stride : nullptr;
        float *secondAt = Second ? second + r * stride : nullptr;
        const bool firstRowStreams = S == Streams::PerRow ? First && aligned(firstAt) : firstStreams;
        const bool secondRowStreams = S == Streams::PerRow ? Second && aligned(secondAt) : secondStreams;
        if constexpr (Interleaved) {
            for (int k = 0; k < 2 * Units; ++k)
                put<S>(interleaved(firstValue<V>(s[k], c[k]), secondValue<V>(s[k], c[k]), order), firstAt + 2 * k * nd,
                       firstRowStreams);
        } else {
            for (int u = 0; u < Units; ++u) {
                const VF a = demoted(firstValue<V>(s[2 * u], c[2 * u]), firstValue<V>(s[2 * u + 1], c[2 * u + 1]));
                const VF b = V == PairValues::SineCosine ? demoted(c[2 * u], c[2 * u + 1]) : a;
                if constexpr (First)
                    put<S>(a, firstAt + 2 * u * nd, firstRowStreams);
                if constexpr (Second)
                    put<S>(b, secondAt + 2 * u * nd, secondRowStreams);
            }
        }
    };
    const auto rotate = [&]() HWY_ATTR {
        for (int k = 0; k < 2 * Units; ++k) {
            const VD next = hn::Add(hn::Mul(s[k], rc[k]), hn::Mul(c[k], rs[k]));
            c[k] = hn::Sub(hn::Mul(c[k], rc[k]), hn::Mul(s[k], rs[k]));
            s[k] = next;
        }
    };
    // A rotation after each row but the last, and after the last too when the run advances past it.
    int r = 0;
    for (; r + 1 < rows; ++r) {
        storeRow(r);
        rotate();
    }
    storeRow(r);
    if (run.advancePast)
        rotate();
    for (int k = 0; k < 2 * Units; ++k) {
        hn::StoreU(s[k], dd, run.sines + i + k * nd);
        hn::StoreU(c[k], dd, run.cosines + i + k * nd);
    }
}

// The vector part of a PairRows, pairs [0, the last whole vector's end); returns that end.
template<bool Interleaved, PairValues V, Streams S, bool First, bool Second>
std::int64_t rowsOfVectors(const PairRows &run, const Order &order, const bool (&streams)[2])
{
    const auto nf = static_cast<std::int64_t>(hn::Lanes(DF()));
    std::int64_t i = 0;
    for (; i + kLineUnits * nf <= run.pairs; i += kLineUnits * nf)
        rowsOfUnits<kLineUnits, Interleaved, V, S, First, Second>(run, order, streams, i);
    for (; i + nf <= run.pairs; i += nf)
        rowsOfUnits<1, Interleaved, V, S, First, Second>(run, order, streams, i);
    return i;
}

// The destinations a row has, as constants.
template<bool Interleaved, PairValues V, Streams S>
std::int64_t rowsOfVectors(const PairRows &run, const Order &order, const bool (&streams)[2])
{
    if (Interleaved || (run.firstRow && run.secondRow))
        return rowsOfVectors<Interleaved, V, S, true, !Interleaved>(run, order, streams);
    if (run.firstRow)
        return rowsOfVectors<Interleaved, V, S, true, false>(run, order, streams);
    return rowsOfVectors<Interleaved, V, S, false, true>(run, order, streams);
}

template<bool Interleaved, PairValues V> std::int64_t rowsOfVectors(const PairRows &run, const Order &order)
{
    // A stride of whole vectors keeps every row's alignment the first row's; otherwise each row
    // is looked at.
    const float *targets[2] = {Interleaved ? run.interleavedRow : run.firstRow, Interleaved ? nullptr : run.secondRow};
    bool streams[2] = {};
    int streamed = 0;
    int written = 0;
    for (int t = 0; t < 2; ++t) {
        if (!targets[t])
            continue;
        streams[t] = run.streaming && aligned(targets[t]);
        streamed += streams[t] ? 1 : 0;
        ++written;
    }
    if (!run.streaming)
        return rowsOfVectors<Interleaved, V, Streams::None>(run, order, streams);
    if (run.stride % static_cast<std::int64_t>(hn::Lanes(DF())) != 0)
        return rowsOfVectors<Interleaved, V, Streams::PerRow>(run, order, streams);
    if (streamed == 0)
        return rowsOfVectors<Interleaved, V, Streams::None>(run, order, streams);
    if (streamed == written)
        return rowsOfVectors<Interleaved, V, Streams::All>(run, order, streams);
    return rowsOfVectors<Interleaved, V, Streams::PerRow>(run, order, streams);
}

template<bool Interleaved> std::int64_t rowsOfVectors(const PairRows &run, const Order &order)
{
    switch (run.values) {
    case PairValues::Sines:
        return rowsOfVectors<Interleaved, PairValues::Sines>(run, order);
    case PairValues::Cosines:
        return rowsOfVectors<Interleaved, PairValues::Cosines>(run, order);
    default:
        return rowsOfVectors<Interleaved, PairValues::SineCosine>(run, order);
    }
}
#undef POSENC_TWO_SOURCE_PERMUTE
#endif

void RotateState(double *sines, double *cosines, const double *rotCos, const double *rotSin, std::int64_t pairs,
                 double *copySines, double *copyCosines)
{
    std::int64_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    const DD dd;
    const auto nd = static_cast<std::int64_t>(hn::Lanes(dd));
    for (; i + nd <= pairs; i += nd) {
        const VD s = hn::LoadU(dd, sines + i);
        const VD c = hn::LoadU(dd, cosines + i);
        const VD rc = hn::LoadU(dd, rotCos + i);
        const VD rs = hn::LoadU(dd, rotSin + i);
        const VD nextS = hn::Add(hn::Mul(s, rc), hn::Mul(c, rs));
        const VD nextC = hn::Sub(hn::Mul(c, rc), hn::Mul(s, rs));
        hn::StoreU(nextS, dd, sines + i);
        hn::StoreU(nextC, dd, cosines + i);
        if (copySines) {
            hn::StoreU(nextS, dd, copySines + i);
            hn::StoreU(nextC, dd, copyCosines + i);
        }
    }
#endif
    for (; i < pairs; ++i) {
        const double s = sines[i];
        const double c = cosines[i];
        sines[i] = s * rotCos[i] + c * rotSin[i];
        cosines[i] = c * rotCos[i] - s * rotSin[i];
        if (copySines) {
            copySines[i] = sines[i];
            copyCosines[i] = cosines[i];
        }
    }
}

void RotatePairRows(const PairRows &run)
{
    std::int64_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    const Order order = interleaveOrder();
    i = run.interleaved ? rowsOfVectors<true>(run, order) : rowsOfVectors<false>(run, order);
#endif
    rowsScalar(run, i, run.pairs);
}

void RotatePairs(const PairRun &run)
{
    std::int64_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    const Order order = interleaveOrder();
    i = run.interleaved ? rotateVectors<true>(run, order) : rotateVectors<false>(run, order);
#endif
    rotateScalar(run, i, run.pairs);
}

} // namespace HWY_NAMESPACE
} // namespace posenc
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace posenc {

HWY_EXPORT(RotatePairs);
HWY_EXPORT(RotatePairRows);
HWY_EXPORT(RotateState);

void rotatePairs(const PairRun &run)
{
    HWY_DYNAMIC_DISPATCH(RotatePairs)(run);
}

void rotatePairRows(const PairRows &rows)
{
    HWY_DYNAMIC_DISPATCH(RotatePairRows)(rows);
}

void rotateState(double *sines, double *cosines, const double *rotCos, const double *rotSin, std::int64_t pairs,
                 double *copySines, double *copyCosines)
{
    HWY_DYNAMIC_DISPATCH(RotateState)(sines, cosines, rotCos, rotSin, pairs, copySines, copyCosines);
}

} // namespace posenc
#endif
