#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/PhiloxSimd.cpp"
#include <hwy/foreach_target.h> // before highway.h

#include <hwy/highway.h>

#include "core/PhiloxSimd.h"

#include <Random123/philox.h>

#include <algorithm>

HWY_BEFORE_NAMESPACE();
namespace posenc {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR
// One counter through Random123's own philox4x32: the scalar target's way.
void philoxOne(const PhiloxStream &key, std::int64_t position, std::uint32_t group, std::uint32_t *out)
{
    const r123::Philox4x32::ctr_type counter {{static_cast<std::uint32_t>(position),
                                               static_cast<std::uint32_t>(static_cast<std::uint64_t>(position) >> 32),
                                               group, key.stream}};
    const auto words = r123::Philox4x32()(counter, {{key.seedLow, key.seedHigh}});
    std::copy(words.begin(), words.end(), out);
}
#else
using D = hn::ScalableTag<std::uint32_t>;
using V = hn::Vec<D>;
// Independent batches of counters hide the latency of each round's multiplications.
constexpr int kBatches = 4;

// Word k of a register's counters is in ck, one counter per lane.
struct Lanes
{
    V c0, c1, c2, c3;
};

// The 64-bit products a * m of every lane, as their high and low words.
HWY_INLINE void mulHiLo(V a, V m, V &hi, V &lo)
{
    const D d;
    const hn::RepartitionToWide<D> d64;
    const auto even = hn::MulEven(a, m);
    const auto odd = hn::MulEven(hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(d64, a))), m);
    lo = hn::OddEven(hn::BitCast(d, hn::ShiftLeft<32>(odd)), hn::BitCast(d, even));
    hi = hn::OddEven(hn::BitCast(d, odd), hn::BitCast(d, hn::ShiftRight<32>(even)));
}

// Philox4x32-10's rounds 0 and 1 for the counters (position, groups, stream) of one row. Their
// words 0, 1 and 3 are the same in every lane, and so, in each of these two rounds, is one of the
// two products: it is taken once, which saves a tenth of all the vector multiplications.
HWY_INLINE Lanes afterTwoRounds(const PhiloxStream &key, std::int64_t position, V groups)
{
    const D d;
    const auto positionLow = static_cast<std::uint32_t>(position);
    const auto positionHigh = static_cast<std::uint32_t>(static_cast<std::uint64_t>(position) >> 32);
    // Round 0: word 0 (the position's low half) is shared, word 2 (the group) is not.
    std::uint32_t sharedHi;
    std::uint32_t sharedLo = ::mulhilo32(positionLow, PHILOX_M4x32_0, &sharedHi);
    V hi, lo;
    mulHiLo(groups, hn::Set(d, PHILOX_M4x32_1), hi, lo);
    const V c0 = hn::Xor(hi, hn::Set(d, positionHigh ^ key.seedLow));
    const V c1 = lo;
    const std::uint32_t c2 = sharedHi ^ key.stream ^ key.seedHigh;
    const std::uint32_t c3 = sharedLo;
    // Round 1: now word 2 is the shared one.
    mulHiLo(c0, hn::Set(d, PHILOX_M4x32_0), hi, lo);
    sharedLo = ::mulhilo32(c2, PHILOX_M4x32_1, &sharedHi);
    return {hn::Xor(c1, hn::Set(d, sharedHi ^ (key.seedLow + PHILOX_W32_0))), hn::Set(d, sharedLo),
            hn::Xor(hi, hn::Set(d, c3 ^ (key.seedHigh + PHILOX_W32_1))), lo};
}

// Philox4x32-10 (Salmon et al., SC11), as Random123's philox4x32round and its key schedule:
// rounds 2 .. 9 (counted from 0), after afterTwoRounds().
template<int Batches> HWY_INLINE void laterRounds(const PhiloxStream &key, Lanes (&lanes)[Batches])
{
    const D d;
    const V multiplier0 = hn::Set(d, PHILOX_M4x32_0);
    const V multiplier1 = hn::Set(d, PHILOX_M4x32_1);
    std::uint32_t k0 = key.seedLow + PHILOX_W32_0;
    std::uint32_t k1 = key.seedHigh + PHILOX_W32_1;
    for (int round = 2; round < 10; ++round) {
        k0 += PHILOX_W32_0; // the key is bumped before each round but round 0
        k1 += PHILOX_W32_1;
        const V key0 = hn::Set(d, k0);
        const V key1 = hn::Set(d, k1);
        for (Lanes &l : lanes) {
            V hi0, lo0, hi1, lo1;
            mulHiLo(l.c0, multiplier0, hi0, lo0);
            mulHiLo(l.c2, multiplier1, hi1, lo1);
            l.c0 = hn::Xor(hn::Xor(hi1, l.c1), key0);
            l.c1 = lo1;
            l.c2 = hn::Xor(hn::Xor(hi0, l.c3), key1);
            l.c3 = lo0;
        }
    }
}

// Back to one counter's four words after another.
HWY_INLINE void store(const Lanes &l, std::uint32_t *out)
{
    hn::StoreInterleaved4(l.c0, l.c1, l.c2, l.c3, D(), out);
}

// The words of the first `count` counters only.
HWY_INLINE void storeFirst(const Lanes &l, std::int64_t count, std::uint32_t *out)
{
    alignas(64) std::uint32_t words[4 * hn::MaxLanes(D())];
    store(l, words);
    std::copy(words, words + 4 * count, out);
}
#endif

void PhiloxFill(const PhiloxStream &key, std::int64_t position, std::uint32_t group0, std::int64_t count,
                std::uint32_t *out)
{
    std::int64_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    const D d;
    const auto n = static_cast<std::int64_t>(hn::Lanes(d));
    // Iota once: Highway builds it lane by lane through memory, a stall in the loop.
    const V lanes0 = hn::Iota(d, 0);
    const auto groupsFrom
        = [&](std::int64_t k) { return hn::Add(lanes0, hn::Set(d, group0 + static_cast<std::uint32_t>(k))); };
    for (; i + kBatches * n <= count; i += kBatches * n) {
        Lanes lanes[kBatches];
        for (int b = 0; b < kBatches; ++b)
            lanes[b] = afterTwoRounds(key, position, groupsFrom(i + b * n));
        laterRounds(key, lanes);
        for (int b = 0; b < kBatches; ++b)
            store(lanes[b], out + 4 * (i + b * n));
    }
    for (; i < count; i += n) {
        Lanes lanes[1] = {afterTwoRounds(key, position, groupsFrom(i))};
        laterRounds(key, lanes);
        storeFirst(lanes[0], std::min(n, count - i), out + 4 * i);
    }
#else
    for (; i < count; ++i)
        philoxOne(key, position, group0 + static_cast<std::uint32_t>(i), out + 4 * i);
#endif
}

void PhiloxGather(const PhiloxStream &key, std::int64_t position, const std::uint32_t *groups, std::int64_t count,
                  std::uint32_t *out)
{
    std::int64_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    const D d;
    const auto n = static_cast<std::int64_t>(hn::Lanes(d));
    for (; i + n <= count; i += n) {
        Lanes lanes[1] = {afterTwoRounds(key, position, hn::LoadU(d, groups + i))};
        laterRounds(key, lanes);
        store(lanes[0], out + 4 * i);
    }
    if (i < count) { // the last few (ties are few), one vector for them all
        alignas(64) std::uint32_t rest[hn::MaxLanes(D())] = {};
        std::copy(groups + i, groups + count, rest);
        Lanes lanes[1] = {afterTwoRounds(key, position, hn::Load(d, rest))};
        laterRounds(key, lanes);
        storeFirst(lanes[0], count - i, out + 4 * i);
    }
#else
    for (; i < count; ++i)
        philoxOne(key, position, groups[i], out + 4 * i);
#endif
}

} // namespace HWY_NAMESPACE
} // namespace posenc
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace posenc {

HWY_EXPORT(PhiloxFill);
HWY_EXPORT(PhiloxGather);

void philoxFill(const PhiloxStream &key, std::int64_t position, std::uint32_t group0, std::int64_t count,
                std::uint32_t *out)
{
    HWY_DYNAMIC_DISPATCH(PhiloxFill)(key, position, group0, count, out);
}

void philoxGather(const PhiloxStream &key, std::int64_t position, const std::uint32_t *groups, std::int64_t count,
                  std::uint32_t *out)
{
    HWY_DYNAMIC_DISPATCH(PhiloxGather)(key, position, groups, count, out);
}

} // namespace posenc
#endif
