#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "check/CompareSimd.cpp"
#include <hwy/foreach_target.h> // before highway.h

#include <hwy/highway.h>

#include "check/CompareSimd.h"

#include <cmath>

HWY_BEFORE_NAMESPACE();
namespace posenc {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// Infinities: equal cells agree (a mask's -inf against -inf) and an infinite reference allows only
// itself; without, a reference is finite and a cell's |error| is |table - reference| as it is.
template<int Rows, bool Infinities>
void CompareRowsOf(const float *table, std::int64_t tableStride, const float *reference, std::int64_t referenceStride,
                   float *columnMax, std::int64_t count, float relative, float absolute, const float *extra,
                   const GrowingLimit *growing, RowsComparison &out)
{
    const hn::ScalableTag<float> d;
    using V = hn::Vec<decltype(d)>;
    const auto n = static_cast<std::int64_t>(hn::Lanes(d));
    const V rel = hn::Set(d, relative);
    const V abs = hn::Set(d, absolute);
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
            V limit = hn::Add(hn::Mul(rel, hn::Abs(ref)), abs);
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
            float limit = !Infinities || std::isfinite(ref)
                ? relative * std::fabs(ref) + absolute + (extra ? extra[r * count + i] : 0.0f)
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
                      float absolute, const float *extra, const GrowingLimit *growing, RowsComparison &out)
{
    switch (rows) {
    case 1:
        CompareRowsOf<1, Infinities>(table, tableStride, reference, referenceStride, columnMax, count, relative,
                                     absolute, extra, growing, out);
        break;
    case 2:
        CompareRowsOf<2, Infinities>(table, tableStride, reference, referenceStride, columnMax, count, relative,
                                     absolute, extra, growing, out);
        break;
    case 3:
        CompareRowsOf<3, Infinities>(table, tableStride, reference, referenceStride, columnMax, count, relative,
                                     absolute, extra, growing, out);
        break;
    default:
        CompareRowsOf<4, Infinities>(table, tableStride, reference, referenceStride, columnMax, count, relative,
                                     absolute, extra, growing, out);
        break;
    }
}

RowsComparison CompareRows(const float *table, std::int64_t tableStride, const float *reference,
                           std::int64_t referenceStride, int rows, float *columnMax, std::int64_t count, float relative,
                           float absolute, const float *extra, const GrowingLimit *growing, bool infinities)
{
    RowsComparison out;
    if (infinities)
        CompareRowsOfAny<true>(table, tableStride, reference, referenceStride, rows, columnMax, count, relative,
                               absolute, extra, growing, out);
    else
        CompareRowsOfAny<false>(table, tableStride, reference, referenceStride, rows, columnMax, count, relative,
                                absolute, extra, growing, out);
    return out;
}

} // namespace HWY_NAMESPACE
} // namespace posenc
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace posenc {

HWY_EXPORT(CompareRows);

RowsComparison compareRows(const float *table, std::int64_t tableStride, const float *reference,
                           std::int64_t referenceStride, int rows, float *columnMax, std::int64_t count, float relative,
                           float absolute, const float *extra, const GrowingLimit *growing, bool infinities)
{
    return HWY_DYNAMIC_DISPATCH(CompareRows)(table, tableStride, reference, referenceStride, rows, columnMax, count,
                                             relative, absolute, extra, growing, infinities);
}

} // namespace posenc
#endif
