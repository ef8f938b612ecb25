// The vector arithmetic of inverted dropout that the row kernels (DropoutSimd.cpp) and the PE
// kernel's combine (PositionalSimd.cpp) share, compiled once per SIMD target: each includes this
// after hwy/highway.h, and Highway's foreach_target.h includes it again for every target.

// Per-target include guard, toggled by foreach_target.h before each target.
#if defined(POSENC_CORE_DROPOUT_SIMD_INL_H) == defined(HWY_TARGET_TOGGLE)
#ifdef POSENC_CORE_DROPOUT_SIMD_INL_H
#undef POSENC_CORE_DROPOUT_SIMD_INL_H
#else
#define POSENC_CORE_DROPOUT_SIMD_INL_H
#endif

#include <hwy/highway.h>

#include "core/DropoutSimd.h"

#include <bit>
#include <cstdint>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace posenc {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE; // as in the files that include this

// How far ahead of its loads a kernel asks for the embeddings (a prefetch past the end of a
// table is harmless).
constexpr std::int64_t kPrefetchFloats = 512;

#if HWY_TARGET != HWY_SCALAR
// The keep bits of a vector's lanes as a mask: bit c % 64 of word c / 64 for the lane of cell c.
class KeptLanes
{
public:
    using DF = hn::ScalableTag<float>;
    using DU = hn::RebindToUnsigned<DF>;

    KeptLanes()
    {
        alignas(64) std::uint32_t bits[hn::MaxLanes(DU())];
        for (std::size_t lane = 0; lane < hn::MaxLanes(DU()); ++lane)
            bits[lane] = std::uint32_t(1) << lane;
        m_bits = hn::Load(DU(), bits);
    }

    // Cells c .. c + Lanes - 1, c a multiple of Lanes: the bits of one word.
    HWY_INLINE hn::Mask<DF> at(const std::uint64_t *kept, std::int64_t c) const
    {
        // Vectors of 8 lanes or more start on a byte of the bits: load the mask from there.
        if constexpr (hn::MaxLanes(DF()) >= 8 && std::endian::native == std::endian::little)
            return hn::LoadMaskBits(DF(), reinterpret_cast<const std::uint8_t *>(kept) + c / 8);
        return fromBits(static_cast<std::uint32_t>(kept[c / 64] >> (c % 64)));
    }

    // Cells c .. c + Lanes - 1, c any column: `kept` must be readable 8 bytes from bit c's byte on.
    HWY_INLINE hn::Mask<DF> anywhere(const std::uint64_t *kept, std::int64_t c) const
    {
        const auto *bytes = reinterpret_cast<const std::uint8_t *>(kept) + c / 8;
        if constexpr (hn::MaxLanes(DF()) >= 8 && std::endian::native == std::endian::little) {
            if (c % 8 == 0)
                return hn::LoadMaskBits(DF(), bytes);
        }
        std::uint64_t word;
        std::memcpy(&word, bytes, sizeof word);
        if constexpr (std::endian::native != std::endian::little)
            word = __builtin_bswap64(word);
        return fromBits(static_cast<std::uint32_t>(word >> (c % 8)));
    }

private:
    // Lane k set where bit k of `bits` is.
    HWY_INLINE hn::Mask<DF> fromBits(std::uint32_t bits) const
    {
        return hn::RebindMask(DF(), hn::TestBit(hn::Set(DU(), bits), m_bits));
    }

    hn::Vec<DU> m_bits;
};

// Y of inverted dropout for a vector of cells, from scaled = scale * E and the PE: dropped cells
// are exact zeros, survivors exactly X / keep, or for Embedding (kept ? scaled / keep : 0) + PE,
// for Positional scaled + (kept ? PE / keep : 0); dropoutValue()'s float operations, lane by lane.
template<class M, class V> HWY_INLINE V dropoutLanes(M kept, V scaled, V positional, V keep, DropoutTarget target)
{
    switch (target) {
    case DropoutTarget::Embedding:
        return hn::Add(hn::IfThenElseZero(kept, hn::Div(scaled, keep)), positional);
    case DropoutTarget::Positional:
        return hn::Add(scaled, hn::IfThenElseZero(kept, hn::Div(positional, keep)));
    case DropoutTarget::Sum:
        break;
    }
    return hn::IfThenElseZero(kept, hn::Div(hn::Add(scaled, positional), keep));
}
#endif

} // namespace HWY_NAMESPACE
} // namespace posenc
HWY_AFTER_NAMESPACE();

#endif // POSENC_CORE_DROPOUT_SIMD_INL_H
