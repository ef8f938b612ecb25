#include "GaussianSum.h"

#include "Faddeeva.h"

#include <array>
#include <cmath>
#include <numbers>

namespace posenc {

namespace {

constexpr int kMaxTerms = GaussianSum::kMaxEdgeTerms;

// b_k = B_2k / (2k)! = (-1)^(k+1) 2 zeta(2k) / (2 pi)^(2k), k = 0 .. kMaxTerms (b_0 unused).
const std::array<double, kMaxTerms + 1> &bernoulli()
{
    static const std::array<double, kMaxTerms + 1> table = [] {
        std::array<double, kMaxTerms + 1> b {};
        const long double pi = std::numbers::pi_v<long double>;
        for (int k = 1; k <= kMaxTerms; ++k) {
            long double zeta = 0.0L;
            if (k == 1)
                zeta = pi * pi / 6.0L;
            else if (k == 2)
                zeta = std::pow(pi, 4.0L) / 90.0L;
            else // the terms past n = 1000 add less than 1e-21
                for (int n = 1000; n >= 1; --n)
                    zeta += std::pow(static_cast<long double>(n), static_cast<long double>(-2 * k));
            const long double magnitude = 2.0L * zeta / std::pow(2.0L * pi, static_cast<long double>(2 * k));
            b[static_cast<std::size_t>(k)] = static_cast<double>(k % 2 == 1 ? magnitude : -magnitude);
        }
        return b;
    }();
    return table;
}

// c_jq = b_k C(2k-1, j) with 2k-1-j = 2q + (j + 1) % 2: the coefficients of E_j below.
using EdgeTable = std::array<std::array<double, kMaxTerms / 2>, kMaxTerms>;

const EdgeTable &edgeCoefficients()
{
    static const EdgeTable table = [] {
        EdgeTable c {};
        const auto &b = bernoulli();
        for (int j = 0; j < kMaxTerms; ++j)
            for (int q = 0; q < kMaxTerms / 2; ++q) {
                const int k = (j + 1 + 2 * q + (j + 1) % 2) / 2;
                if (k > kMaxTerms)
                    break;
                double binomial = 1.0;
                for (int r = 0; r < j; ++r)
                    binomial = binomial * (2 * k - 1 - r) / (r + 1);
                c[static_cast<std::size_t>(j)][static_cast<std::size_t>(q)] = b[static_cast<std::size_t>(k)] * binomial;
            }
        return c;
    }();
    return table;
}

// exp(i w x), with the product w x carried exactly (hi + lo, by fma) so that the phase stays
// within ~1e-16 even where w x is near 2^24.
std::complex<double> phase(double omega, double x)
{
    const double hi = omega * x;
    const double lo = std::fma(omega, x, -hi);
    const double s = std::sin(hi), c = std::cos(hi);
    return {c - s * lo, s + c * lo};
}

// log(j) / 2 for j < kMaxTerms: the series' term counts read them for every pair and window, where
// taking the logarithms again was a tenth of a heatmap's closed forms.
const std::array<double, kMaxTerms> &halfLogs()
{
    static const std::array<double, kMaxTerms> table = [] {
        std::array<double, kMaxTerms> h {};
        for (int j = 1; j < kMaxTerms; ++j)
            h[static_cast<std::size_t>(j)] = 0.5 * std::log(static_cast<double>(j));
        return h;
    }();
    return table;
}

// Derivative terms the edge series needs for this sigma: term j is about sqrt(j!) / (sigma rho)^j
// of the edge's weight, rho = 2 pi - w the distance to the nearest pole of the series.
int termsFor(double omega, double sigma)
{
    return GaussianSum::seriesTerms(std::log(sigma * (2.0 * std::numbers::pi - omega)));
}

} // namespace

int GaussianSum::seriesTerms(double logRate)
{
    static const double logTolerance = std::log(1e-17);
    const auto &halfLog = halfLogs();
    double logTerm = 0.0; // log(sqrt(j!) / rate^j)
    for (int j = 1; j < kMaxTerms; ++j) {
        logTerm += halfLog[static_cast<std::size_t>(j)] - logRate;
        if (logTerm < logTolerance)
            return j + 1;
    }
    return kMaxTerms;
}

GaussianSum::GaussianSum(double omega, double sigma)
    : m_omega(omega)
    , m_sigma(sigma)
    , m_v(omega * sigma / std::numbers::sqrt2)
    , m_attenuation(std::exp(-m_v * m_v))
{
    // E_j = sum_k b_k C(2k-1, j) (i w)^(2k-1-j): the Euler-Maclaurin sum of d^(2k-1)/dx^(2k-1)
    // of weight(x) e^{i w x}, gathered by the derivative j of the weight. With m = 2k-1-j =
    // 2q + (j + 1) % 2, (i w)^m is real for odd j and imaginary for even j: E_j is that unit
    // times w^((j + 1) % 2) sum_q c_jq (-w^2)^q. The sum converges like (w / 2 pi)^(2q).
    const auto &c = edgeCoefficients();
    const int terms = termsFor(omega, sigma);
    const double y = -omega * omega;
    m_terms = terms;
    for (int j = 0; j < terms; ++j) {
        const auto &row = c[static_cast<std::size_t>(j)];
        double sum = row[0];
        double power = 1.0;
        for (std::size_t q = 1; q < row.size() && y != 0.0; ++q) {
            power *= y;
            const double term = row[q] * power;
            sum += term;
            if (std::abs(term) <= 1e-18 * std::abs(sum) && std::abs(row[q]) <= std::abs(row[q - 1]))
                break;
        }
        m_edge[static_cast<std::size_t>(j)] = j % 2 == 1 ? sum : omega * sum;
    }
}

std::complex<double> GaussianSum::edgeSeries(double u, double weight) const
{
    // G_j = (-1 / sigma)^j He_j(u) exp(-u^2 / 2), He the probabilists' Hermite polynomials.
    double previous = 0.0;
    double current = weight;
    double scale = 1.0;
    double re = 0.0, im = 0.0;
    for (std::size_t j = 0; j < static_cast<std::size_t>(m_terms); ++j) {
        const double g = scale * current;
        if (j % 2 == 1)
            re += g * m_edge[j];
        else
            im += g * m_edge[j];
        const double next = u * current - static_cast<double>(j) * previous;
        previous = current;
        current = next;
        scale /= -m_sigma;
    }
    return {re, im};
}

std::complex<double> GaussianSum::halfLine(double x, std::complex<double> turn) const
{
    if (m_v == 0.0)
        return std::erfc(x);
    // e^{-v^2} erfc(x - iv) = e^{-x^2 + 2ixv} w(v + ix) for x >= 0; for x < 0 through
    // erfc(-z) = 2 - erfc(z), so that w is only taken in the upper half-plane.
    const std::complex<double> factor = std::exp(-x * x) * turn;
    if (x >= 0.0)
        return factor * faddeeva({m_v, x});
    return 2.0 * m_attenuation - factor * faddeeva({-m_v, -x});
}

std::complex<double> GaussianSum::operator()(const GaussianWindow &window) const
{
    if (window.first > window.last)
        return 0.0;
    const double c = window.centre;
    const double scale = m_sigma * std::numbers::sqrt2;
    const std::complex<double> atCentre = phase(m_omega, c);
    // An edge x: its offset in units of scale, and e^{i w (x - c)} = e^{2 i v offset}.
    const auto turn = [&](double x) { return std::polar(1.0, m_omega * (x - c)); };
    std::complex<double> integral = m_attenuation * 2.0;
    std::complex<double> edges = 0.0;
    const auto edge = [&](double x, double sign) {
        const double u = (x - c) / m_sigma;
        const std::complex<double> t = turn(x);
        const double weight = std::exp(-0.5 * u * u);
        edges += t * (0.5 * weight + sign * edgeSeries(u, weight));
        return halfLine((x - c) / scale, t);
    };
    if (std::isfinite(window.first))
        integral = edge(window.first, -1.0);
    if (std::isfinite(window.last))
        integral -= edge(window.last, 1.0);
    return atCentre * (m_sigma * std::sqrt(0.5 * std::numbers::pi) * integral + edges);
}

} // namespace posenc
