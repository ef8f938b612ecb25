#include "AlibiAttention.h"

#include <algorithm>
#include <cmath>

namespace posenc::AlibiAttention {

Keys keysOf(std::int64_t maxLen, std::int64_t query, AlibiMask mask)
{
    return {query, mask == AlibiMask::Causal ? 0 : std::max<std::int64_t>(maxLen - 1 - query, 0)};
}

Head::Head(double slope, Keys keys)
    : m_slope(slope)
    , m_keys(keys)
    , m_denominator(std::expm1(-slope))
    , m_normaliser(mass(keys.farthest()))
{ }

// sum_{d=0}^{n-1} e^(-m d) = (1 - e^(-m n)) / (1 - e^(-m)), through expm1 so that a slope of
// 2^-8 keeps its digits.
double Head::geometric(std::int64_t n) const
{
    if (n <= 0)
        return 0.0;
    return std::expm1(-m_slope * static_cast<double>(n)) / m_denominator;
}

// The weight of the keys within `distance`, before dividing by Z.
double Head::mass(std::int64_t distance) const
{
    if (distance < 0)
        return 0.0;
    return geometric(std::min(distance, m_keys.before) + 1) + geometric(std::min(distance, m_keys.after) + 1) - 1.0;
}

double Head::weight(std::int64_t distance) const
{
    const std::int64_t d = std::abs(distance);
    if (d > m_keys.farthest())
        return 0.0;
    return std::exp(-m_slope * static_cast<double>(d)) / m_normaliser;
}

double Head::within(std::int64_t distance) const
{
    if (distance >= m_keys.farthest())
        return 1.0;
    return mass(distance) / m_normaliser;
}

std::int64_t Head::span(double share) const
{
    // within() grows with the distance: the least D reaching the share, by bisection.
    std::int64_t lo = 0, hi = m_keys.farthest();
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (within(mid) >= share)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

double weight(double slope, Keys keys, std::int64_t distance)
{
    return Head(slope, keys).weight(distance);
}

double within(double slope, Keys keys, std::int64_t distance)
{
    return Head(slope, keys).within(distance);
}

std::int64_t span(double slope, Keys keys, double share)
{
    return Head(slope, keys).span(share);
}

} // namespace posenc::AlibiAttention
