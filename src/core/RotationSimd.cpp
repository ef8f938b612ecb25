#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/RotationSimd.cpp"
#include <hwy/foreach_target.h> // before highway.h

#include <hwy/highway.h>

#include "core/RotationSimd.h"

HWY_BEFORE_NAMESPACE();
namespace posenc {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// Eight doubles at most a vector: the partial sums are eight on every target.
constexpr std::size_t kPartials = 8;

// The vectors' turns by (c, s), lane by lane: products and differences, each rounded alone.
template<class D, class V> HWY_INLINE void turnOne(D, V &re, V &im, V c, V s)
{
    const V next = hn::Sub(hn::Mul(re, c), hn::Mul(im, s));
    im = hn::Add(hn::Mul(re, s), hn::Mul(im, c));
    re = next;
}

void Turn(double *re, double *im, const double *c, const double *s, std::size_t n)
{
    const hn::CappedTag<double, kPartials> d;
    const std::size_t lanes = hn::Lanes(d);
    std::size_t f = 0;
    for (; f + lanes <= n; f += lanes) {
        auto r = hn::LoadU(d, re + f), i = hn::LoadU(d, im + f);
        turnOne(d, r, i, hn::LoadU(d, c + f), hn::LoadU(d, s + f));
        hn::StoreU(r, d, re + f);
        hn::StoreU(i, d, im + f);
    }
    for (; f < n; ++f) {
        const double next = re[f] * c[f] - im[f] * s[f];
        im[f] = re[f] * s[f] + im[f] * c[f];
        re[f] = next;
    }
}

void TurnAndSum(double *re, double *im, const double *c, const double *s, std::size_t n, std::int64_t count,
                double *sums)
{
    const hn::CappedTag<double, kPartials> d;
    using V = hn::Vec<decltype(d)>;
    const std::size_t lanes = hn::Lanes(d);
    const std::size_t whole = n / kPartials * kPartials;
    HWY_ALIGN double partial[kPartials];
    for (std::int64_t t = 0; t < count; ++t) {
        // Partial p holds the frequencies f = p mod 8: the vectors of one block of eight side by side.
        V acc[kPartials];
        for (std::size_t k = 0; k < kPartials; k += lanes)
            acc[k / lanes] = hn::Zero(d);
        for (std::size_t f = 0; f < whole; f += kPartials) {
            for (std::size_t k = 0; k < kPartials; k += lanes) {
                V r = hn::LoadU(d, re + f + k), i = hn::LoadU(d, im + f + k);
                acc[k / lanes] = hn::Add(acc[k / lanes], r);
                turnOne(d, r, i, hn::LoadU(d, c + f + k), hn::LoadU(d, s + f + k));
                hn::StoreU(r, d, re + f + k);
                hn::StoreU(i, d, im + f + k);
            }
        }
        for (std::size_t k = 0; k < kPartials; k += lanes)
            hn::Store(acc[k / lanes], d, partial + k);
        double sum = ((partial[0] + partial[1]) + (partial[2] + partial[3]))
            + ((partial[4] + partial[5]) + (partial[6] + partial[7]));
        for (std::size_t f = whole; f < n; ++f) {
            sum += re[f];
            const double next = re[f] * c[f] - im[f] * s[f];
            im[f] = re[f] * s[f] + im[f] * c[f];
            re[f] = next;
        }
        sums[t] += sum;
    }
}

} // namespace HWY_NAMESPACE
} // namespace posenc
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace posenc::RotationSimd {

HWY_EXPORT(TurnAndSum);
HWY_EXPORT(Turn);

void turnAndSum(double *re, double *im, const double *c, const double *s, std::size_t n, std::int64_t count,
                double *sums)
{
    HWY_DYNAMIC_DISPATCH(TurnAndSum)(re, im, c, s, n, count, sums);
}

void turn(double *re, double *im, const double *c, const double *s, std::size_t n)
{
    HWY_DYNAMIC_DISPATCH(Turn)(re, im, c, s, n);
}

} // namespace posenc::RotationSimd
#endif
