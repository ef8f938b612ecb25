#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/DropoutSimd.cpp"
#include <hwy/foreach_target.h> // before highway.h

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "core/DropoutSimd-inl.h"
#include "core/DropoutSimd.h"

#include <algorithm>

HWY_BEFORE_NAMESPACE();
namespace posenc {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;

bool bitOf(const std::uint64_t *bits, std::int64_t c)
{
    return (bits[c / 64] >> (c % 64)) & 1u;
}

// The cells one at a time, as the vector loops compute them.
float dropoutCell(const InputRow &x, std::int64_t c, bool kept, float keep, bool embeddingOnly)
{
    return dropoutValue(x.scale * x.embedding[c], x.positional[c], kept, keep, embeddingOnly);
}

bool streamsTo(const float *out, bool streaming)
{
    return streaming && reinterpret_cast<std::uintptr_t>(out) % (hn::Lanes(DF()) * sizeof(float)) == 0;
}

template<class V> HWY_INLINE void put(V v, float *at, bool stream)
{
    if (stream)
        hn::Stream(v, DF(), at);
    else
        hn::StoreU(v, DF(), at);
}

void CompareBytes(const std::uint8_t *top, std::int64_t count, std::uint32_t threshold, std::uint64_t *below,
                  std::uint64_t *equal)
{
    const std::int64_t words = (count + 63) / 64;
    std::fill_n(below, words, std::uint64_t(0));
    std::fill_n(equal, words, std::uint64_t(0));
    std::int64_t c = 0;
#if HWY_TARGET != HWY_SCALAR
    const hn::ScalableTag<std::uint8_t> d8;
    const auto n = static_cast<std::int64_t>(hn::Lanes(d8)); // a multiple of 8
    const auto t = hn::Set(d8, static_cast<std::uint8_t>(threshold));
    auto *belowBytes = reinterpret_cast<std::uint8_t *>(below);
    auto *equalBytes = reinterpret_cast<std::uint8_t *>(equal);
    for (; c + n <= count; c += n) {
        const auto v = hn::LoadU(d8, top + c);
        hn::StoreMaskBits(d8, hn::Lt(v, t), belowBytes + c / 8);
        hn::StoreMaskBits(d8, hn::Eq(v, t), equalBytes + c / 8);
    }
#endif
    for (; c < count; ++c) {
        below[c / 64] |= std::uint64_t(top[c] < threshold) << (c % 64);
        equal[c / 64] |= std::uint64_t(top[c] == threshold) << (c % 64);
    }
}

void ApplyDropout(const InputRow &x, const std::uint64_t *kept, float keep, bool embeddingOnly, std::int64_t cols,
                  float *out, bool streaming)
{
    std::int64_t c = 0;
#if HWY_TARGET != HWY_SCALAR
    const DF df;
    const auto n = static_cast<std::int64_t>(hn::Lanes(df));
    const KeptLanes lanes;
    const auto scale = hn::Set(df, x.scale);
    const auto keepv = hn::Set(df, keep);
    const bool stream = streamsTo(out, streaming);
    for (; c + n <= cols; c += n) {
        hwy::Prefetch(x.embedding + c + kPrefetchFloats);
        const auto mask = lanes.at(kept, c);
        const auto scaled = hn::Mul(scale, hn::LoadU(df, x.embedding + c));
        const auto positional = hn::LoadU(df, x.positional + c);
        put(dropoutLanes(mask, scaled, positional, keepv, embeddingOnly), out + c, stream);
    }
#else
    (void)streaming;
#endif
    for (; c < cols; ++c)
        out[c] = dropoutCell(x, c, bitOf(kept, c), keep, embeddingOnly);
}

void AddScaled(const InputRow &x, std::int64_t cols, float *out, bool streaming)
{
    std::int64_t c = 0;
#if HWY_TARGET != HWY_SCALAR
    const DF df;
    const auto n = static_cast<std::int64_t>(hn::Lanes(df));
    const auto scale = hn::Set(df, x.scale);
    const bool stream = streamsTo(out, streaming);
    for (; c + n <= cols; c += n) {
        hwy::Prefetch(x.embedding + c + kPrefetchFloats);
        put(hn::Add(hn::Mul(scale, hn::LoadU(df, x.embedding + c)), hn::LoadU(df, x.positional + c)), out + c, stream);
    }
#else
    (void)streaming;
#endif
    for (; c < cols; ++c)
        out[c] = x.scale * x.embedding[c] + x.positional[c];
}

void MaskOfBits(const std::uint64_t *kept, std::int64_t cols, float *out)
{
    std::int64_t c = 0;
#if HWY_TARGET != HWY_SCALAR
    const DF df;
    const auto n = static_cast<std::int64_t>(hn::Lanes(df));
    const KeptLanes lanes;
    const auto one = hn::Set(df, 1.0f);
    for (; c + n <= cols; c += n)
        hn::StoreU(hn::IfThenElseZero(lanes.at(kept, c), one), df, out + c);
#endif
    for (; c < cols; ++c)
        out[c] = bitOf(kept, c) ? 1.0f : 0.0f;
}

} // namespace HWY_NAMESPACE
} // namespace posenc
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace posenc {

HWY_EXPORT(CompareBytes);
HWY_EXPORT(ApplyDropout);
HWY_EXPORT(AddScaled);
HWY_EXPORT(MaskOfBits);

void compareBytes(const std::uint8_t *top, std::int64_t count, std::uint32_t threshold, std::uint64_t *below,
                  std::uint64_t *equal)
{
    HWY_DYNAMIC_DISPATCH(CompareBytes)(top, count, threshold, below, equal);
}

void applyDropout(const InputRow &x, const std::uint64_t *kept, float keep, bool embeddingOnly, std::int64_t cols,
                  float *out, bool streaming)
{
    HWY_DYNAMIC_DISPATCH(ApplyDropout)(x, kept, keep, embeddingOnly, cols, out, streaming);
}

void addScaled(const InputRow &x, std::int64_t cols, float *out, bool streaming)
{
    HWY_DYNAMIC_DISPATCH(AddScaled)(x, cols, out, streaming);
}

void maskOfBits(const std::uint64_t *kept, std::int64_t cols, float *out)
{
    HWY_DYNAMIC_DISPATCH(MaskOfBits)(kept, cols, out);
}

} // namespace posenc
#endif
