#pragma once

#include <cstddef>
#include <cstdint>

namespace posenc {

// Sums of cosines turned frequency by frequency (FamilyCurves' sums over offsets), vectorised for
// the CPU's SIMD target (SimdTargets) across the frequencies. Every target computes the same bits:
// the products and sums are IEEE operations lane by lane (no fused multiply-add), and a sum over the
// frequencies adds them into eight partial sums, frequency f into partial f mod 8, whatever the
// vector's width, then the eight in one fixed order, then the frequencies past the last whole eight
// one after another.
namespace RotationSimd {

// For t < count: sums[t] += sum_f re[f] over f < n, then each (re[f], im[f]) is turned by
// (c[f], s[f]): re' = re c - im s, im' = re s + im c. re and im hold the turns after the last
// sample's on return.
void turnAndSum(double *re, double *im, const double *c, const double *s, std::size_t n, std::int64_t count,
                double *sums);

// (re[f], im[f]) turned by (c[f], s[f]) as turnAndSum turns them, for f < n.
void turn(double *re, double *im, const double *c, const double *s, std::size_t n);

} // namespace RotationSimd

} // namespace posenc
