#include "AlibiAttention.h"

#include <algorithm>
#include <cmath>

namespace posenc::AlibiAttention {

namespace {

// sum_{d=0}^{n-1} e^(-m d) = (1 - e^(-m n)) / (1 - e^(-m)), through expm1 so that a slope of
// 2^-8 keeps its digits.
double geometric(double slope, std::int64_t n)
{
    if (n <= 0)
        return 0.0;
    return std::expm1(-slope * static_cast<double>(n)) / std::expm1(-slope);
}

// The weight of the keys within `distance`, before dividing by Z.
double mass(double slope, Keys keys, std::int64_t distance)
{
    if (distance < 0)
        return 0.0;
    return geometric(slope, std::min(distance, keys.before) + 1) + geometric(slope, std::min(distance, keys.after) + 1)
        - 1.0;
}

} // namespace

Keys keysOf(std::int64_t maxLen, std::int64_t query, AlibiMask mask)
{
    return {query, mask == AlibiMask::Causal ? 0 : std::max<std::int64_t>(maxLen - 1 - query, 0)};
}

double normaliser(double slope, Keys keys)
{
    return mass(slope, keys, keys.farthest());
}

double weight(double slope, Keys keys, std::int64_t distance)
{
    const std::int64_t d = std::abs(distance);
    if (d > keys.farthest())
        return 0.0;
    return std::exp(-slope * static_cast<double>(d)) / normaliser(slope, keys);
}

double within(double slope, Keys keys, std::int64_t distance)
{
    if (distance >= keys.farthest())
        return 1.0;
    return mass(slope, keys, distance) / normaliser(slope, keys);
}

std::int64_t span(double slope, Keys keys, double share)
{
    // within() grows with the distance: the least D reaching the share, by bisection.
    std::int64_t lo = 0, hi = keys.farthest();
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (within(slope, keys, mid) >= share)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

} // namespace posenc::AlibiAttention
