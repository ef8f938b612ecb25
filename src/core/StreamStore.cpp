#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/StreamStore.cpp"
#include <hwy/foreach_target.h> // before highway.h

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "core/StreamStore.h"

#include <algorithm>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace posenc {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// Floats before the first vector-aligned address of dst, at most count.
template<class D> std::int64_t headOf(D d, const float *dst, std::int64_t count)
{
    const std::uintptr_t bytes = hn::Lanes(d) * sizeof(float);
    const std::uintptr_t misaligned = reinterpret_cast<std::uintptr_t>(dst) % bytes;
    if (misaligned % sizeof(float) != 0)
        return count; // not even float-aligned: no aligned vector address exists
    return std::min<std::int64_t>(count, misaligned == 0 ? 0 : (bytes - misaligned) / sizeof(float));
}

void StreamCopy(float *dst, const float *src, std::int64_t count)
{
    const hn::ScalableTag<float> d;
    const auto n = static_cast<std::int64_t>(hn::Lanes(d));
    std::int64_t i = headOf(d, dst, count);
    std::memcpy(dst, src, static_cast<std::size_t>(i) * sizeof(float));
    for (; i + 2 * n <= count; i += 2 * n) {
        const auto a = hn::LoadU(d, src + i);
        const auto b = hn::LoadU(d, src + i + n);
        hn::Stream(a, d, dst + i);
        hn::Stream(b, d, dst + i + n);
    }
    for (; i + n <= count; i += n)
        hn::Stream(hn::LoadU(d, src + i), d, dst + i);
    std::memcpy(dst + i, src + i, static_cast<std::size_t>(count - i) * sizeof(float));
}

void StreamFill(float *dst, float value, std::int64_t count)
{
    const hn::ScalableTag<float> d;
    const auto n = static_cast<std::int64_t>(hn::Lanes(d));
    std::int64_t i = headOf(d, dst, count);
    std::fill_n(dst, i, value);
    const auto v = hn::Set(d, value);
    for (; i + n <= count; i += n)
        hn::Stream(v, d, dst + i);
    std::fill(dst + i, dst + count, value);
}

} // namespace HWY_NAMESPACE
} // namespace posenc
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace posenc {

HWY_EXPORT(StreamCopy);
HWY_EXPORT(StreamFill);

void streamCopy(float *dst, const float *src, std::int64_t count)
{
    HWY_DYNAMIC_DISPATCH(StreamCopy)(dst, src, count);
}

void streamFill(float *dst, float value, std::int64_t count)
{
    HWY_DYNAMIC_DISPATCH(StreamFill)(dst, value, count);
}

void streamFence()
{
    hwy::FlushStream();
}

} // namespace posenc
#endif
