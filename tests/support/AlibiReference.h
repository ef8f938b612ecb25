#pragma once

// Float64 references for ALiBi, written from the reference code, never from the code under test:
// ofirpress/attention_with_linear_biases' get_slopes (any head count, the interleave included),
// MPT's gen_slopes, the bias of a query for a key, causal or not, and the softmax of the bias
// alone. No header of the code under test: the command line's tests include it too.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace alibiref {

// get_slopes_power_of_2(n): start = 2**(-2**-(log2(n) - 3)), [start * start**i for i in range(n)].
inline std::vector<double> slopesPowerOfTwo(std::int64_t n)
{
    const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(double(n)) - 3.0)));
    std::vector<double> s;
    for (std::int64_t i = 0; i < n; ++i)
        s.push_back(start * std::pow(start, double(i)));
    return s;
}

// get_slopes(n), as its Python reads: the power-of-two series, or the closest power's series and
// every other slope of twice that power's ([0::2][:n - closest]), recursively.
inline std::vector<double> slopes(std::int64_t n)
{
    const double l = std::log2(double(n));
    if (l == std::floor(l))
        return slopesPowerOfTwo(n);
    const auto closest = std::int64_t(1) << std::int64_t(std::floor(l));
    std::vector<double> s = slopesPowerOfTwo(closest);
    const std::vector<double> twice = slopes(2 * closest);
    for (std::int64_t i = 0; i < n - closest; ++i)
        s.push_back(twice[std::size_t(2 * i)]);
    return s;
}

// MPT's gen_slopes(n_heads, alibi_bias_max=8): m = arange(1, N + 1) * 8 / N for N the power of
// two at or above n, slopes 1 / 2**m, then [1::2] before [::2], the first n.
inline std::vector<double> genSlopes(std::int64_t n, double biasMax = 8.0)
{
    const auto big = std::int64_t(std::pow(2.0, std::ceil(std::log2(double(n)))));
    std::vector<double> s;
    for (std::int64_t k = 1; k <= big; ++k)
        s.push_back(1.0 / std::pow(2.0, double(k) * (biasMax / double(big))));
    if (big == n)
        return s;
    std::vector<double> ordered;
    for (std::size_t i = 1; i < s.size(); i += 2)
        ordered.push_back(s[i]);
    for (std::size_t i = 0; i < s.size(); i += 2)
        ordered.push_back(s[i]);
    ordered.resize(std::size_t(n));
    return ordered;
}

// The bias of query i for key j; -inf where the causal mask hides the key.
inline double bias(double m, std::int64_t i, std::int64_t j, bool causal)
{
    if (causal && j > i)
        return -std::numeric_limits<double>::infinity();
    return -m * std::abs(double(i - j));
}

// Softmax over the keys 0..L-1 of query i with content scores zero: each key's weight.
inline std::vector<double> softmax(double m, std::int64_t L, std::int64_t i, bool causal)
{
    std::vector<double> w(std::size_t(L), 0.0);
    double z = 0.0;
    for (std::int64_t j = 0; j < L; ++j) {
        const double b = bias(m, i, j, causal);
        w[std::size_t(j)] = std::isfinite(b) ? std::exp(b) : 0.0;
        z += w[std::size_t(j)];
    }
    for (double &x : w)
        x /= z;
    return w;
}

// The least distance D whose keys within D of the query hold at least `share` of the weights.
inline std::int64_t span(const std::vector<double> &weights, std::int64_t i, double share)
{
    const auto L = std::int64_t(weights.size());
    double within = 0.0;
    for (std::int64_t d = 0; d < L; ++d) {
        if (i - d >= 0)
            within += weights[std::size_t(i - d)];
        if (d > 0 && i + d < L)
            within += weights[std::size_t(i + d)];
        if (within >= share)
            return d;
    }
    return L - 1;
}

} // namespace alibiref
