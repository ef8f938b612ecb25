#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/DropoutSimd.cpp"
#include <hwy/foreach_target.h> // before highway.h

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "core/DropoutSimd-inl.h"
#include "core/DropoutSimd.h"

#include <algorithm>
#include <bit>

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
float dropoutCell(const InputRow &x, std::int64_t c, bool kept, float keep, DropoutTarget target)
{
    return dropoutValue(x.scale * x.embedding[c], x.positional[c], kept, keep, target);
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

// The cells c + k with bit k of `tied` set, after the `count` ties in `ties`. `tied` is not zero:
// its first tie goes without a test, its second without a branch, which would mispredict as
// often as a word has two ties (1 in 8). A step past the last tie writes an entry that the next
// tie overwrites.
HWY_INLINE void listTies(std::uint64_t tied, std::int64_t c, std::uint32_t *ties, std::int64_t &count)
{
    ties[count++] = static_cast<std::uint32_t>(c + std::countr_zero(tied));
    tied &= tied - 1;
    ties[count] = static_cast<std::uint32_t>(c + std::countr_zero(tied));
    count += tied != 0;
    tied &= tied - 1;
    for (; tied != 0; tied &= tied - 1) // a third tie: 1 word of cells in 400
        ties[count++] = static_cast<std::uint32_t>(c + std::countr_zero(tied));
}

std::int64_t CompareBytes(const std::uint8_t *top, std::int64_t count, std::uint32_t threshold, std::uint64_t *below,
                          std::uint32_t *ties)
{
    std::fill_n(below, (count + 63) / 64, std::uint64_t(0));
    std::int64_t tieCount = 0;
    std::int64_t c = 0;
#if HWY_TARGET != HWY_SCALAR
    // 4096 cells at a time: first the comparisons, with each word's ties kept aside and a bit
    // for each word that has any (1 in 4), then the ties of those words only.
    constexpr std::int64_t kWords = 64;
    const hn::CappedTag<std::uint8_t, 64> d8; // a vector's ties within one word
    const auto n = static_cast<std::int64_t>(hn::Lanes(d8)); // a multiple of 8
    const auto t = hn::Set(d8, static_cast<std::uint8_t>(threshold));
    while (c + n <= count) {
        alignas(64) std::uint64_t equal[kWords] = {}; // whole words, if vectors are shorter
        const std::int64_t c0 = c;
        const std::int64_t vectors = std::min(count - c0, 64 * kWords) / n;
        auto *belowBytes = reinterpret_cast<std::uint8_t *>(below + c0 / 64);
        auto *equalBytes = reinterpret_cast<std::uint8_t *>(equal);
        std::uint64_t withTies = 0;
        for (std::int64_t k = 0; k < vectors; ++k) {
            const auto v = hn::LoadU(d8, top + c0 + k * n);
            hn::StoreMaskBits(d8, hn::Lt(v, t), belowBytes + k * (n / 8));
            const auto tied = hn::Eq(v, t);
            hn::StoreMaskBits(d8, tied, equalBytes + k * (n / 8));
            withTies |= std::uint64_t(!hn::AllFalse(d8, tied)) << (static_cast<std::uint64_t>(k * n) / 64);
        }
        for (; withTies != 0; withTies &= withTies - 1) {
            const int w = std::countr_zero(withTies);
            listTies(equal[w], c0 + 64 * w, ties, tieCount);
        }
        c = c0 + vectors * n;
    }
#endif
    for (; c < count; ++c) {
        below[c / 64] |= std::uint64_t(top[c] < threshold) << (c % 64);
        if (top[c] == threshold)
            ties[tieCount++] = static_cast<std::uint32_t>(c);
    }
    return tieCount;
}

void ApplyDropout(const InputRow &x, const std::uint64_t *kept, float keep, DropoutTarget target, std::int64_t cols,
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
        put(dropoutLanes(mask, scaled, positional, keepv, target), out + c, stream);
    }
#else
    (void)streaming;
#endif
    for (; c < cols; ++c)
        out[c] = dropoutCell(x, c, bitOf(kept, c), keep, target);
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

std::int64_t compareBytes(const std::uint8_t *top, std::int64_t count, std::uint32_t threshold, std::uint64_t *below,
                          std::uint32_t *ties)
{
    return HWY_DYNAMIC_DISPATCH(CompareBytes)(top, count, threshold, below, ties);
}

void applyDropout(const InputRow &x, const std::uint64_t *kept, float keep, DropoutTarget target, std::int64_t cols,
                  float *out, bool streaming)
{
    HWY_DYNAMIC_DISPATCH(ApplyDropout)(x, kept, keep, target, cols, out, streaming);
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
