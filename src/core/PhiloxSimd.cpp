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
    lo = hn::Mul(a, m); // one instruction, where the products above would take two
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

// The `count` counters (at most Batches vectors) whose groups are in groupsOf(0), groupsOf(1), ...,
// as independent batches.
template<int Batches, class GroupsOf>
HWY_INLINE void drawBatches(const PhiloxStream &key, std::int64_t position, const GroupsOf &groupsOf,
                            std::int64_t count, std::uint32_t *out)
{
    const auto n = static_cast<std::int64_t>(hn::Lanes(D()));
    Lanes lanes[Batches];
    for (int b = 0; b < Batches; ++b)
        lanes[b] = afterTwoRounds(key, position, groupsOf(b));
    laterRounds(key, lanes);
    for (int b = 0; b < Batches; ++b) {
        if (count >= (b + 1) * n)
            store(lanes[b], out + 4 * b * n);
        else
            storeFirst(lanes[b], count - b * n, out + 4 * b * n);
    }
}

// The last counters, fewer than kBatches vectors' worth: as many batches as they fill, rather
// than one vector after another.
template<class GroupsOf>
HWY_INLINE void drawRest(const PhiloxStream &key, std::int64_t position, const GroupsOf &groupsOf, std::int64_t count,
                         std::uint32_t *out)
{
    const auto n = static_cast<std::int64_t>(hn::Lanes(D()));
    static_assert(kBatches == 4, "the cases below");
    switch ((count + n - 1) / n) {
    case 0:
        break;
    case 1:
        drawBatches<1>(key, position, groupsOf, count, out);
        break;
    case 2:
        drawBatches<2>(key, position, groupsOf, count, out);
        break;
    case 3:
        drawBatches<3>(key, position, groupsOf, count, out);
        break;
    default:
        drawBatches<4>(key, position, groupsOf, count, out);
        break;
    }
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
    // Vector b of the batch from counter i.
    const auto groupsOf
        = [&](int b) HWY_ATTR { return hn::Add(lanes0, hn::Set(d, group0 + static_cast<std::uint32_t>(i + b * n))); };
    for (; i + kBatches * n <= count; i += kBatches * n)
        drawBatches<kBatches>(key, position, groupsOf, kBatches * n, out + 4 * i);
    drawRest(key, position, groupsOf, count - i, out + 4 * i);
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
    const auto loaded = [&](int b) HWY_ATTR { return hn::LoadU(d, groups + i + b * n); };
    for (; i + kBatches * n <= count; i += kBatches * n)
        drawBatches<kBatches>(key, position, loaded, kBatches * n, out + 4 * i);
    // The last few (ties are few) padded to whole vectors.
    alignas(64) std::uint32_t rest[kBatches * hn::MaxLanes(D())] = {};
    std::copy(groups + i, groups + count, rest);
    const auto padded = [&](int b) HWY_ATTR { return hn::Load(d, rest + b * n); };
    drawRest(key, position, padded, count - i, out + 4 * i);
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
