#pragma once

#include <array>
#include <complex>
#include <limits>

namespace posenc {

// A Gaussian window over integer rows n: weights exp(-(n - centre)^2 / (2 sigma^2)) for the
// rows first <= n <= last. An infinite end is no edge: the Gaussian's own tail.
struct GaussianWindow
{
    static constexpr double kOpen = std::numeric_limits<double>::infinity();

    double centre = 0.0;
    double sigma = 1.0;
    double first = -kOpen;
    double last = kOpen;
};

// S(w) = sum over the window's rows of weight(n) exp(i w n), in O(1) whatever the window's
// length, for sigma >= kMinSigma and 0 <= w <= 1 (the sinusoidal table's frequencies).
//
// Without edges, Poisson summation gives S(w) = sqrt(2 pi) sigma exp(i w centre - sigma^2 w^2 / 2)
// plus aliases of relative size exp(-sigma^2 (2 pi - w)^2 / 2) < 3e-14, left out. At an edge,
// the Euler-Maclaurin formula gives the sum as the integral of weight(x) exp(i w x) from the
// edge on (a complex erfc, through the Faddeeva function) plus half the edge's term plus
// sum_k B_2k / (2k)! d^(2k-1)/dx^(2k-1) at the edge, whose derivatives of the Gaussian are
// Hermite polynomials. That series is asymptotic with error ~ exp(-(sigma (2 pi - w))^2 / 2),
// the same aliases again. Measured against long-double direct sums: within 1e-13 of S(0).
class GaussianSum
{
public:
    static constexpr double kMinSigma = 1.5;
    static constexpr int kMaxEdgeTerms = 64;
    // Rows further than this many sigmas from the centre weigh less than 7e-10 of the peak:
    // direct sums leave them out, and a window's edge that far away counts as no edge.
    static constexpr double kReach = 6.5;

    // The terms of a series whose term j is about sqrt(j!) / rate^j of its first, given
    // log(rate): those until a term falls below 1e-17, at most kMaxEdgeTerms.
    static int seriesTerms(double logRate);

    // Precomputes what depends on w and sigma alone: the edge terms' coefficients.
    GaussianSum(double omega, double sigma);

    double omega() const { return m_omega; }
    double sigma() const { return m_sigma; }
    // exp(-sigma^2 w^2 / 2): the factor a window without edges applies to the frequency.
    double attenuation() const { return m_attenuation; }

    // S(w) over `window`, whose sigma must be this sum's. Zero for an empty window.
    std::complex<double> operator()(const GaussianWindow &window) const;

private:
    // sum_j G_j E_j at an edge u sigmas from the centre: G_j = d^j/dx^j of the weight there,
    // E_j the Euler-Maclaurin coefficient of derivative j (real for odd j, imaginary for even).
    // `weight` is the weight at the edge, exp(-u^2 / 2).
    std::complex<double> edgeSeries(double u, double weight) const;
    // e^{-v^2} erfc(x - i v), v = w sigma / sqrt(2): the half-line integral from x on, given
    // turn = e^{2 i x v}.
    std::complex<double> halfLine(double x, std::complex<double> turn) const;

    double m_omega;
    double m_sigma;
    double m_v;
    double m_attenuation;
    int m_terms = 0;
    std::array<double, kMaxEdgeTerms> m_edge {}; // |E_j|, j = 0 .. m_terms - 1
};

} // namespace posenc
