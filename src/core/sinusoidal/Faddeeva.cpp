#include "Faddeeva.h"

#include <array>
#include <cmath>
#include <numbers>

namespace posenc {

namespace {

// Weideman's rational approximation (SIAM J. Numer. Anal. 31, 1994) with N = 40 terms:
// w(z) = 2 p(Z) / (L - iz)^2 + 1 / (sqrt(pi) (L - iz)), Z = (L + iz) / (L - iz), where p's
// coefficients are the cosine transform of exp(-t^2) (L^2 + t^2) at t = L tan(theta / 2).
// Measured against a long-double quadrature: 5e-16 relative for Im z >= 0.3, |z| <= 60.
constexpr int kTerms = 40;

struct Weideman
{
    double l = 0.0;
    std::array<double, kTerms + 1> a {};

    Weideman()
    {
        const int m = 2 * kTerms;
        l = std::sqrt(kTerms / std::numbers::sqrt2);
        for (int n = 0; n <= kTerms; ++n) {
            long double sum = 0.0L;
            for (int k = -m + 1; k <= m - 1; ++k) {
                const long double theta = static_cast<long double>(k) * std::numbers::pi_v<long double> / m;
                const long double t = l * std::tan(theta / 2.0L);
                sum += std::exp(-t * t) * (l * l + t * t)
                    * std::cos(std::numbers::pi_v<long double> * static_cast<long double>(k * n) / m);
            }
            a[static_cast<std::size_t>(n)] = static_cast<double>(sum / (2 * m));
        }
    }

    std::complex<double> operator()(std::complex<double> z) const
    {
        const std::complex<double> iz(-z.imag(), z.real());
        const std::complex<double> denominator = l - iz;
        const std::complex<double> big = (l + iz) / denominator;
        std::complex<double> p = 0.0;
        for (int n = kTerms; n >= 1; --n)
            p = p * big + a[static_cast<std::size_t>(n)];
        return 2.0 * p / (denominator * denominator) + (1.0 / std::sqrt(std::numbers::pi)) / denominator;
    }
};

// Laplace's continued fraction w(z) = (i / sqrt(pi)) / (z - (1/2) / (z - 1 / (z - (3/2) / ...))),
// which converges fast far from the origin: 2e-16 relative with 8 levels where |z| >= 12 and
// with 24 where |z| >= 6 (measured as above).
std::complex<double> continuedFraction(std::complex<double> z, int levels)
{
    // a / t = a conj(t) / |t|^2 for real a: std::complex's division guards against overflow
    // that cannot happen here, at several times the cost.
    double re = z.real(), im = z.imag();
    for (int k = levels; k >= 1; --k) {
        const double scale = 0.5 * k / (re * re + im * im);
        re = z.real() - scale * re;
        im = z.imag() + scale * im;
    }
    const double scale = 1.0 / (std::sqrt(std::numbers::pi) * (re * re + im * im));
    return {im * scale, re * scale};
}

} // namespace

std::complex<double> faddeeva(std::complex<double> z)
{
    static const Weideman rational;
    const double r2 = std::norm(z);
    if (r2 >= 144.0)
        return continuedFraction(z, 8);
    if (r2 >= 36.0)
        return continuedFraction(z, 24);
    return rational(z);
}

} // namespace posenc
