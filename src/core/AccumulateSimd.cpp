#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/AccumulateSimd.cpp"
#include <hwy/foreach_target.h> // before highway.h

#include <hwy/highway.h>

#include "core/AccumulateSimd.h"

HWY_BEFORE_NAMESPACE();
namespace posenc {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

void AddWeighted(double *into, const float *from, double w, std::int64_t n)
{
    const hn::ScalableTag<double> d;
    const hn::Rebind<float, decltype(d)> df; // as many floats as the vector has doubles
    const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
    const auto weight = hn::Set(d, w);
    std::int64_t j = 0;
    for (; j + lanes <= n; j += lanes) {
        const auto x = hn::PromoteTo(d, hn::LoadU(df, from + j));
        hn::StoreU(hn::Add(hn::LoadU(d, into + j), hn::Mul(weight, x)), d, into + j);
    }
    for (; j < n; ++j)
        into[j] += w * static_cast<double>(from[j]);
}

} // namespace HWY_NAMESPACE
} // namespace posenc
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace posenc::AccumulateSimd {

HWY_EXPORT(AddWeighted);

void addWeighted(double *into, const float *from, double w, std::int64_t n)
{
    HWY_DYNAMIC_DISPATCH(AddWeighted)(into, from, w, n);
}

} // namespace posenc::AccumulateSimd
#endif
