#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/EmbeddingsSimd.cpp"
#include <hwy/foreach_target.h> // before highway.h

#include <hwy/highway.h>

#include "core/EmbeddingsSimd.h"

#include <numbers>

HWY_BEFORE_NAMESPACE();
namespace posenc {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using DI = hn::RebindToSigned<DF>;
using DU = hn::RebindToUnsigned<DF>;
using VF = hn::Vec<DF>;

// a * b + c, rounded twice.
HWY_INLINE VF mulAdd(VF a, VF b, VF c)
{
    return hn::Add(hn::Mul(a, b), c);
}

HWY_INLINE VF constant(float value)
{
    return hn::Set(DF(), value);
}

// log(x) for normal positive x: the exponent and the mantissa in [sqrt(1/2), sqrt(2)), then
// Cephes' polynomial of degree 8 in three parts.
HWY_INLINE VF logarithm(VF x)
{
    const DF df;
    const DI di;
    const DU du;
    const auto bits = hn::BitCast(du, x);
    VF e = hn::Add(hn::ConvertTo(df, hn::BitCast(di, hn::ShiftRight<23>(bits))), constant(-126.0f));
    const VF m = hn::BitCast(df, hn::Or(hn::And(bits, hn::Set(du, ~0x7f800000u)), hn::Set(du, 0x3f000000u)));
    const auto below = hn::Lt(m, constant(0.707106781186547524f));
    VF t = hn::Sub(m, constant(1.0f));
    e = hn::Sub(e, hn::IfThenElseZero(below, constant(1.0f)));
    t = hn::Add(t, hn::IfThenElseZero(below, m));
    const VF t2 = hn::Mul(t, t);
    const VF t3 = hn::Mul(t2, t);
    VF y = mulAdd(constant(7.0376836292E-2f), t, constant(-1.1514610310E-1f));
    VF y1 = mulAdd(constant(-1.2420140846E-1f), t, constant(+1.4249322787E-1f));
    VF y2 = mulAdd(constant(+2.0000714765E-1f), t, constant(-2.4999993993E-1f));
    y = mulAdd(y, t, constant(1.1676998740E-1f));
    y1 = mulAdd(y1, t, constant(-1.6668057665E-1f));
    y2 = mulAdd(y2, t, constant(+3.3333331174E-1f));
    y = mulAdd(y, t3, y1);
    y = mulAdd(y, t3, y2);
    y = hn::Mul(y, t3);
    y = mulAdd(constant(-0.5f), t2, y);
    t = hn::Add(t, y);
    return mulAdd(e, constant(static_cast<float>(std::numbers::ln2)), t);
}

// sin and cos of 0 <= x < 2^15: x reduced by its nearest multiple of pi/2 in four parts, then
// the sine or the cosine polynomial as the quadrant says.
HWY_INLINE void sineCosine(VF x, VF &sine, VF &cosine)
{
    const DF df;
    const DI di;
    const VF magic = constant(12582912.0f); // 1.5 * 2^23: adding it rounds to an integer
    const VF rounded = hn::Add(hn::Mul(x, constant(0.636619746685028076171875f)), magic);
    const auto quadrant = hn::BitCast(di, rounded);
    const VF y = hn::Sub(rounded, magic);
    VF r = mulAdd(y, constant(-1.5703125f), x);
    r = mulAdd(y, constant(-0.000483989715576171875f), r);
    r = mulAdd(y, constant(1.62865035235881805419921875e-07f), r);
    r = mulAdd(y, constant(5.5644315544167710640977020375430583953857421875e-11f), r);
    const auto signBit = hn::Set(di, static_cast<std::int32_t>(0x80000000u));
    const auto sineSign = hn::And(hn::Xor(hn::BitCast(di, x), hn::ShiftLeft<30>(quadrant)), signBit);
    const auto cosineSign = hn::And(hn::ShiftLeft<30>(hn::Add(quadrant, hn::Set(di, 1))), signBit);
    const auto even = hn::RebindMask(df, hn::Eq(hn::And(quadrant, hn::Set(di, 1)), hn::Zero(di)));
    const VF r2 = hn::Mul(r, r);
    VF c = constant(2.4372266125283204019069671630859375e-05f);
    c = mulAdd(c, r2, constant(-0.00138865201734006404876708984375f));
    c = mulAdd(c, r2, constant(0.041666619479656219482421875f));
    c = mulAdd(c, r2, constant(-0.5f));
    c = mulAdd(c, r2, constant(1.0f));
    VF s = constant(-0.0001959234114083702898469196984621021329076029360294342041015625f);
    s = mulAdd(s, r2, constant(0.0083326873655616851693794799871284340042620897293090820312500000f));
    s = mulAdd(s, r2, constant(-0.1666666203982298255503735617821803316473960876464843750000000000f));
    s = hn::Mul(s, r2);
    s = mulAdd(s, r, r);
    sine = hn::Xor(hn::IfThenElse(even, s, c), hn::BitCast(df, sineSign));
    cosine = hn::Xor(hn::IfThenElse(even, c, s), hn::BitCast(df, cosineSign));
}

HWY_INLINE void boxMuller(hn::Vec<DU> w1, hn::Vec<DU> w2, VF sigma, float *out)
{
    const DF df;
    const DI di;
    constexpr float kToUnit = 1.0f / 16777216.0f; // 24 random bits to a float in [0, 1)
    // u1 in (0, 1) so that log(u1) is finite.
    const VF u1 = hn::Mul(hn::Add(hn::ConvertTo(df, hn::BitCast(di, hn::ShiftRight<8>(w1))), constant(0.5f)),
                          constant(kToUnit));
    const VF u2 = hn::Mul(hn::ConvertTo(df, hn::BitCast(di, hn::ShiftRight<8>(w2))), constant(kToUnit));
    const VF radius = hn::Mul(hn::Sqrt(hn::Mul(logarithm(u1), constant(-2.0f))), sigma);
    VF sine, cosine;
    sineCosine(hn::Mul(u2, constant(static_cast<float>(2.0 * std::numbers::pi))), sine, cosine);
    hn::StoreInterleaved2(hn::Mul(radius, cosine), hn::Mul(radius, sine), df, out);
}

void NormalPairs(const std::uint32_t *words, std::int64_t pairs, float sigma, float *out)
{
    const DF df;
    const DU du;
    const VF s = hn::Set(df, sigma);
    std::int64_t k = 0;
#if HWY_TARGET != HWY_SCALAR
    const auto n = static_cast<std::int64_t>(hn::Lanes(df));
    for (; k + n <= pairs; k += n) {
        const auto lo = hn::LoadU(du, words + 2 * k);
        const auto hi = hn::LoadU(du, words + 2 * k + n);
        boxMuller(hn::ConcatEven(du, hi, lo), hn::ConcatOdd(du, hi, lo), s, out + 2 * k);
    }
#endif
    for (; k < pairs; ++k) {
        alignas(64) float both[2 * hn::MaxLanes(DF())];
        boxMuller(hn::Set(du, words[2 * k]), hn::Set(du, words[2 * k + 1]), s, both);
        out[2 * k] = both[0];
        out[2 * k + 1] = both[1];
    }
}

} // namespace HWY_NAMESPACE
} // namespace posenc
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace posenc {

HWY_EXPORT(NormalPairs);

void normalPairs(const std::uint32_t *words, std::int64_t pairs, float sigma, float *out)
{
    HWY_DYNAMIC_DISPATCH(NormalPairs)(words, pairs, sigma, out);
}

} // namespace posenc
#endif
