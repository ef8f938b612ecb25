#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "check/CompareSimd.cpp"
#include <hwy/foreach_target.h> // before highway.h

#include <hwy/highway.h>

#include "check/CompareSimd.h"

#include <bit>
#include <cmath>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace posenc {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// Infinities: equal cells agree (a mask's -inf against -inf) and an infinite reference allows only
// itself; without, a reference is finite and a cell's |error| is |table - reference| as it is.
template<int Rows, bool Infinities>
void CompareRowsOf(const float *table, std::int64_t tableStride, const float *reference, std::int64_t referenceStride,
                   float *columnMax, std::int64_t count, float relative, float absolute, const float *extra,
                   const GrowingLimit *growing, const HeldValues *held, RowsComparison &out)
{
    const hn::ScalableTag<float> d;
    using V = hn::Vec<decltype(d)>;
    const auto n = static_cast<std::int64_t>(hn::Lanes(d));
    const hn::RebindToUnsigned<decltype(d)> du;
    const V rel = hn::Set(d, relative);
    const V abs = hn::Set(d, absolute);
    const V heldRel = hn::Set(d, held ? held->relative : relative);
    const V heldLeast = hn::Set(d, held ? held->least : 0.0f);
    const V heldGreatest = hn::Set(d, held ? held->greatest : 0.0f);
    const auto heldMask = hn::Set(du, held ? held->mask : 0u);
    V rowMax[Rows];
    V over[Rows]; // all bits set in a lane where a cell was beyond its limit
    V scale[Rows];
    for (int r = 0; r < Rows; ++r) {
        rowMax[r] = hn::Zero(d);
        over[r] = hn::Zero(d);
        scale[r] = hn::Set(d, growing ? growing->rowScale[r] : 0.0f);
    }
    std::int64_t i = 0;
    for (; i + n <= count; i += n) {
        V columns = hn::LoadU(d, columnMax + i);
        const V perColumn = growing ? hn::LoadU(d, growing->perColumn + i) : hn::Zero(d);
        for (int r = 0; r < Rows; ++r) {
            const V t = hn::LoadU(d, table + r * tableStride + i);
            const V ref = hn::LoadU(d, reference + r * referenceStride + i);
            V e = hn::Abs(hn::Sub(t, ref));
            V relativeHere = rel;
            if (held) {
                const V a = hn::Abs(ref);
                const auto own
                    = hn::And(hn::RebindMask(d, hn::Eq(hn::And(hn::BitCast(du, ref), heldMask), hn::Zero(du))),
                              hn::And(hn::Ge(a, heldLeast), hn::Le(a, heldGreatest)));
                relativeHere = hn::IfThenElse(own, heldRel, rel);
            }
            V limit = hn::Add(hn::Mul(relativeHere, hn::Abs(ref)), abs);
            if (extra)
                limit = hn::Add(limit, hn::LoadU(d, extra + r * count + i));
            if (growing)
                limit = hn::Add(limit, hn::Mul(perColumn, scale[r]));
            if constexpr (Infinities) {
                e = hn::IfThenZeroElse(hn::Eq(t, ref), e);
                limit = hn::IfThenElseZero(hn::IsFinite(ref), limit);
            }
            columns = hn::Max(columns, e);
            rowMax[r] = hn::Max(rowMax[r], e);
            // Not (e <= limit): a NaN is over too.
            over[r] = hn::Or(over[r], hn::VecFromMask(d, hn::Not(hn::Le(e, limit))));
        }
        hn::StoreU(columns, d, columnMax + i);
    }
    for (int r = 0; r < Rows; ++r) {
        out.rowMax[r] = hn::GetLane(hn::MaxOfLanes(d, rowMax[r]));
        out.over[r] = !hn::AllFalse(d, hn::MaskFromVec(over[r]));
    }
    for (; i < count; ++i) {
        for (int r = 0; r < Rows; ++r) {
            const float ref = reference[r * referenceStride + i];
            const float cell = table[r * tableStride + i];
            const float e = Infinities && cell == ref ? 0.0f : std::fabs(cell - ref);
            const float a = std::fabs(ref);
            const bool own = held && (std::bit_cast<std::uint32_t>(ref) & held->mask) == 0 && a >= held->least
                && a <= held->greatest;
            float limit = !Infinities || std::isfinite(ref)
                ? (own ? held->relative : relative) * a + absolute + (extra ? extra[r * count + i] : 0.0f)
                : 0.0f;
            if (growing && (!Infinities || std::isfinite(ref)))
                limit += growing->perColumn[i] * growing->rowScale[r];
            columnMax[i] = columnMax[i] < e ? e : columnMax[i];
            out.rowMax[r] = out.rowMax[r] < e ? e : out.rowMax[r];
            out.over[r] = out.over[r] || !(e <= limit);
        }
    }
}

template<bool Infinities>
void CompareRowsOfAny(const float *table, std::int64_t tableStride, const float *reference,
                      std::int64_t referenceStride, int rows, float *columnMax, std::int64_t count, float relative,
                      float absolute, const float *extra, const GrowingLimit *growing, const HeldValues *held,
                      RowsComparison &out)
{
    switch (rows) {
    case 1:
        CompareRowsOf<1, Infinities>(table, tableStride, reference, referenceStride, columnMax, count, relative,
                                     absolute, extra, growing, held, out);
        break;
    case 2:
        CompareRowsOf<2, Infinities>(table, tableStride, reference, referenceStride, columnMax, count, relative,
                                     absolute, extra, growing, held, out);
        break;
    case 3:
        CompareRowsOf<3, Infinities>(table, tableStride, reference, referenceStride, columnMax, count, relative,
                                     absolute, extra, growing, held, out);
        break;
    default:
        CompareRowsOf<4, Infinities>(table, tableStride, reference, referenceStride, columnMax, count, relative,
                                     absolute, extra, growing, held, out);
        break;
    }
}

RowsComparison CompareRows(const float *table, std::int64_t tableStride, const float *reference,
                           std::int64_t referenceStride, int rows, float *columnMax, std::int64_t count, float relative,
                           float absolute, const float *extra, const GrowingLimit *growing, bool infinities,
                           const HeldValues *held)
{
    RowsComparison out;
    if (infinities)
        CompareRowsOfAny<true>(table, tableStride, reference, referenceStride, rows, columnMax, count, relative,
                               absolute, extra, growing, held, out);
    else
        CompareRowsOfAny<false>(table, tableStride, reference, referenceStride, rows, columnMax, count, relative,
                                absolute, extra, growing, held, out);
    return out;
}

// A cell of probeExactValues, as the vectors compute it: the scalar formula.
void ProbeCell(float cell, float ref, double rounding, double position, double relative, double absolute,
               double amplitude, double factor, ExactProbe &out)
{
    const double exact = double(ref);
    const double limit = relative * std::fabs(exact) + absolute;
    const double v = amplitude == 1.0 ? exact : exact / amplitude;
    const double square = 1.0 - v * v;
    const double slope = std::sqrt(0.0 < square ? square : 0.0);
    if (rounding * position * slope < factor * limit)
        return;
    // The float32 number nearest the exact angle p w (w = rounding 2^24 / amplitude): where even it
    // holds the exact value, a float32 angle can too (p / 3 is an integer at every third p).
    const double w = amplitude == 1.0 ? rounding * 0x1p24 : rounding * 0x1p24 / amplitude;
    const double angle = w * position;
    const double nearest = std::fabs(angle - double(float(angle)));
    if (amplitude * slope * nearest <= kFloat32AngleHeld * limit)
        return;
    ++out.moved;
    if (std::fabs(double(cell) - exact) <= limit)
        ++out.exact;
}

void ProbeExactValues(const float *table, const float *reference, std::int64_t count, const double *rounding,
                      const double *tested, double position, double relative, double absolute, double amplitude,
                      double factor, ExactProbe &out)
{
    const hn::ScalableTag<double> d;
    const hn::Rebind<float, decltype(d)> df;
    using V = hn::Vec<decltype(d)>;
    const auto n = static_cast<std::int64_t>(hn::Lanes(d));
    const V rel = hn::Set(d, relative), abs = hn::Set(d, absolute), amp = hn::Set(d, amplitude);
    const V at = hn::Set(d, position), times = hn::Set(d, factor), one = hn::Set(d, 1.0), zero = hn::Zero(d);
    const V scale = hn::Set(d, 0x1p24), heldBy = hn::Set(d, kFloat32AngleHeld);
    // x / 1 is x, bit for bit: a table of amplitude 1 (RoPE's, the sinusoid's) divides nothing.
    const bool unit = amplitude == 1.0;
    std::int64_t i = 0;
    for (; i + n <= count; i += n) {
        const V exact = hn::PromoteTo(d, hn::LoadU(df, reference + i));
        const V cell = hn::PromoteTo(d, hn::LoadU(df, table + i));
        const V limit = hn::Add(hn::Mul(rel, hn::Abs(exact)), abs);
        const V v = unit ? exact : hn::Div(exact, amp);
        const V square = hn::Sub(one, hn::Mul(v, v));
        // std::max(0.0, square): square where 0 < square, else 0.
        const V slope = hn::Sqrt(hn::IfThenElse(hn::Lt(zero, square), square, zero));
        const V round = hn::LoadU(d, rounding + i);
        const V moves = hn::Mul(hn::Mul(round, at), slope);
        const V w = unit ? hn::Mul(round, scale) : hn::Div(hn::Mul(round, scale), amp);
        const V angle = hn::Mul(w, at);
        const V nearest = hn::Abs(hn::Sub(angle, hn::PromoteTo(d, hn::DemoteTo(df, angle))));
        const V held = unit ? hn::Mul(slope, nearest) : hn::Mul(hn::Mul(amp, slope), nearest);
        const auto moved = hn::And(
            hn::And(hn::Not(hn::Lt(moves, hn::Mul(times, limit))), hn::Not(hn::Le(held, hn::Mul(heldBy, limit)))),
            hn::Ne(hn::LoadU(d, tested + i), zero));
        const auto exactHeld = hn::And(moved, hn::Le(hn::Abs(hn::Sub(cell, exact)), limit));
        out.moved += std::int64_t(hn::CountTrue(d, moved));
        out.exact += std::int64_t(hn::CountTrue(d, exactHeld));
    }
    for (; i < count; ++i) {
        if (tested[i] != 0.0)
            ProbeCell(table[i], reference[i], rounding[i], position, relative, absolute, amplitude, factor, out);
    }
}

} // namespace HWY_NAMESPACE
} // namespace posenc
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace posenc {

HWY_EXPORT(CompareRows);
HWY_EXPORT(ProbeExactValues);

RowsComparison compareRows(const float *table, std::int64_t tableStride, const float *reference,
                           std::int64_t referenceStride, int rows, float *columnMax, std::int64_t count, float relative,
                           float absolute, const float *extra, const GrowingLimit *growing, bool infinities,
                           const HeldValues *held)
{
    return HWY_DYNAMIC_DISPATCH(CompareRows)(table, tableStride, reference, referenceStride, rows, columnMax, count,
                                             relative, absolute, extra, growing, infinities, held);
}

void probeExactValues(const float *table, const float *reference, std::int64_t count, const double *rounding,
                      const double *tested, double position, double relative, double absolute, double amplitude,
                      double factor, ExactProbe &out)
{
    HWY_DYNAMIC_DISPATCH(ProbeExactValues)
    (table, reference, count, rounding, tested, position, relative, absolute, amplitude, factor, out);
}

} // namespace posenc
#endif
